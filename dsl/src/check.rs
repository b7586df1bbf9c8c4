//! The call checker: every call in a compiled script against the vocabulary.

use std::collections::{BTreeMap, BTreeSet};

use rhai::{AST, ASTNode, Expr, Position, Stmt};

use crate::KnownNames;
use crate::diagnostic::{DslDiagnostic, Site};
use crate::vocabulary::{FunctionKind, entries, vocabulary};

/// Rhai's keyword functions, handled by the evaluator rather than registered.
const KEYWORDS: &[&str] = &[
    "Fn",
    "call",
    "curry",
    "type_of",
    "is_def_var",
    "is_def_fn",
    "is_shared",
];

/// Functions the engine registers that scripts may not call.
const FORBIDDEN: &[(&str, &str)] = &[
    (
        "print",
        "scripts have no output; a card's words belong in its `text` field",
    ),
    (
        "debug",
        "scripts have no output; a card's words belong in its `text` field",
    ),
];

/// The functions a script may call besides the vocabulary: Rhai's list, map, string and
/// arithmetic functions that the host registered, by name, with their numbers of arguments.
#[derive(Clone, Debug, Default)]
pub(crate) struct Library {
    pub(crate) arities: BTreeMap<String, BTreeSet<usize>>,
}

/// One call found in the script.
struct Call {
    name: String,
    /// The number of arguments; `None` for a name given to `Fn("name")`, whose calls are
    /// made later with any number of arguments.
    arity: Option<usize>,
    position: Position,
    method: bool,
    /// The arguments written as string literals.
    literals: Vec<Literal>,
}

/// A string literal given as an argument.
struct Literal {
    /// Which parameter it fills (a method call's receiver is parameter 0).
    index: usize,
    text: String,
    /// The position of its opening quote.
    position: Position,
}

/// The string literals among a call's arguments, the receiver of a method call included.
fn literals_of(path: &[ASTNode], args: &[Expr], method: bool) -> Vec<Literal> {
    let shift = usize::from(method);
    let mut literals = Vec::new();
    if method {
        // `"round".counter()`: the call is the right side of a `.` whose left is the literal.
        if let [.., ASTNode::Expr(Expr::Dot(dot, ..)), ASTNode::Expr(this)] = path {
            if std::ptr::eq(&dot.rhs, *this) {
                if let Expr::StringConstant(text, position) = &dot.lhs {
                    literals.push(Literal {
                        index: 0,
                        text: text.to_string(),
                        position: *position,
                    });
                }
            }
        }
    }
    for (index, arg) in args.iter().enumerate() {
        if let Expr::StringConstant(text, position) = arg {
            literals.push(Literal {
                index: index + shift,
                text: text.to_string(),
                position: *position,
            });
        }
    }
    literals
}

/// Checks every call of `ast`, and the names given to vocabulary functions as string literals
/// against `names`; returns the problems found and the vocabulary functions used.
pub(crate) fn check_calls(
    ast: &AST,
    site: &Site,
    library: &Library,
    condition: bool,
    names: &KnownNames,
) -> (Vec<DslDiagnostic>, BTreeSet<&'static str>) {
    let mut calls: Vec<Call> = Vec::new();
    ast.walk(&mut |path: &[ASTNode]| {
        let found = match path.last() {
            Some(ASTNode::Stmt(Stmt::FnCall(call, position)))
            | Some(ASTNode::Expr(Expr::FnCall(call, position))) => Some((call, *position, false)),
            Some(ASTNode::Expr(Expr::MethodCall(call, position))) => Some((call, *position, true)),
            _ => None,
        };
        if let Some((call, position, method)) = found {
            let is_name = call
                .name
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
            if call.op_token.is_none() && is_name {
                calls.push(Call {
                    name: call.name.to_string(),
                    arity: Some(call.args.len() + usize::from(method)),
                    position,
                    method,
                    literals: literals_of(path, &call.args, method),
                });
            }
            // `Fn("deal_damage")` names a function to call later: check the name exists.
            if call.name == "Fn" && !method {
                if let [Expr::StringConstant(target, target_position)] = call.args.as_slice() {
                    calls.push(Call {
                        name: target.to_string(),
                        arity: None,
                        position: *target_position,
                        method: false,
                        literals: Vec::new(),
                    });
                }
            }
        }
        true
    });
    calls.sort_by_key(|call| (call.position.line(), call.position.position()));
    calls.dedup_by(|a, b| a.position == b.position && a.name == b.name);

    let mut script_fns: BTreeMap<String, BTreeSet<usize>> = BTreeMap::new();
    for function in ast.iter_functions() {
        script_fns
            .entry(function.name.to_string())
            .or_default()
            .insert(function.params.len());
    }

    let mut problems = Vec::new();
    let mut used = BTreeSet::new();
    for call in &calls {
        if let Some(problem) = check_call(call, site, library, &script_fns, condition, &mut used) {
            problems.push(problem);
        }
        if !script_fns.contains_key(&call.name) {
            check_names(call, site, names, &mut problems);
        }
    }
    (problems, used)
}

/// Checks the string literals a call to a vocabulary function gives where it expects a name.
fn check_names(call: &Call, site: &Site, known: &KnownNames, problems: &mut Vec<DslDiagnostic>) {
    if call.literals.is_empty() || known.is_permissive() {
        return;
    }
    let Some(doc) = entries(&call.name).find(|doc| Some(doc.params.len()) == call.arity) else {
        return;
    };
    for literal in &call.literals {
        let Some(kind) = doc.params.get(literal.index).and_then(|param| param.names) else {
            continue;
        };
        let declared = known.get(kind);
        if declared.is_empty() || declared.contains(&literal.text) {
            continue;
        }
        let help = match did_you_mean(&literal.text, declared.iter().map(String::as_str)) {
            Some(best) => format!("did you mean `{best}`?"),
            None => declared_words(declared),
        };
        problems.push(DslDiagnostic::UnknownName {
            name: literal.text.clone(),
            kind,
            function: call.name.clone(),
            src: site.named_source(),
            span: literal_span(site, literal),
            help: Some(help),
        });
    }
}

/// `the ruleset declares `guard`, `stagger` and 3 more`.
fn declared_words(declared: &BTreeSet<String>) -> String {
    const SHOWN: usize = 5;
    let mut shown: Vec<String> = declared
        .iter()
        .take(SHOWN)
        .map(|name| format!("`{name}`"))
        .collect();
    let more = declared.len().saturating_sub(SHOWN);
    let list = if more > 0 {
        format!("{} and {more} more", shown.join(", "))
    } else if shown.len() == 1 {
        format!("only {}", shown[0])
    } else {
        let last = shown.pop().unwrap_or_default();
        format!("{} and {last}", shown.join(", "))
    };
    format!("the ruleset declares {list}")
}

/// The text between a string literal's quotes, or the word at its position.
fn literal_span(site: &Site, literal: &Literal) -> miette::SourceSpan {
    let line = literal.position.line();
    let column = literal.position.position();
    let start = site.offset(line, column);
    let end = site.source.start + site.source.text().len();
    let text = site.source.file_text.get(start..end).unwrap_or_default();
    let mut chars = text.char_indices();
    let Some((_, quote @ ('"' | '`'))) = chars.next() else {
        return site.word_span(line, column);
    };
    let mut escaped = false;
    for (at, c) in chars {
        if c == quote && !escaped {
            return site.span_at(start + 1, at - 1);
        }
        escaped = quote == '"' && c == '\\' && !escaped;
    }
    site.word_span(line, column)
}

fn check_call(
    call: &Call,
    site: &Site,
    library: &Library,
    script_fns: &BTreeMap<String, BTreeSet<usize>>,
    condition: bool,
    used: &mut BTreeSet<&'static str>,
) -> Option<DslDiagnostic> {
    let span = match call.arity {
        Some(_) => site.word_span(call.position.line(), call.position.position()),
        // The name inside `Fn("...")`: skip the opening quote.
        None => site.span_at(
            site.offset(call.position.line(), call.position.position()) + 1,
            call.name.len(),
        ),
    };
    let name = call.name.as_str();
    let wrong_arity = |arities: &BTreeSet<usize>, help: Option<String>| DslDiagnostic::WrongArity {
        name: name.to_owned(),
        expected: arity_words(arities),
        found: call.arity.unwrap_or_default(),
        src: site.named_source(),
        span,
        help: match (help, call.method) {
            (Some(help), true) => Some(format!(
                "{help} (a method call counts the value before the dot)"
            )),
            (help, _) => help,
        },
    };
    let fits = |arities: &BTreeSet<usize>| call.arity.is_none_or(|arity| arities.contains(&arity));
    if name == "eval" {
        return Some(DslDiagnostic::Syntax {
            message: "`eval` is not available in gloam scripts".to_owned(),
            src: site.named_source(),
            span,
            help: Some(
                "every script is checked when the data loads, so scripts cannot build scripts"
                    .to_owned(),
            ),
        });
    }
    if let Some(arities) = script_fns.get(name) {
        return (!fits(arities)).then(|| wrong_arity(arities, None));
    }
    let docs: Vec<_> = entries(name).collect();
    if let Some(first) = docs.first() {
        let Some(doc) = docs
            .iter()
            .find(|doc| call.arity.is_none_or(|arity| doc.params.len() == arity))
        else {
            let arities = docs.iter().map(|doc| doc.params.len()).collect();
            let signatures = docs
                .iter()
                .map(|doc| format!("`{}`", doc.signature()))
                .collect::<Vec<_>>();
            return Some(wrong_arity(&arities, Some(signatures.join(" or "))));
        };
        used.insert(first.name);
        if condition && doc.kind != FunctionKind::Query {
            let (what, help) = match doc.kind {
                FunctionKind::Choice => (
                    "asks a player",
                    "conditions are checked whenever the rules need them; ask in the card's effect instead",
                ),
                _ => (
                    "changes the game",
                    "a condition decides whether something may happen; do it in the effect instead",
                ),
            };
            return Some(DslDiagnostic::EffectInCondition {
                name: name.to_owned(),
                what: what.to_owned(),
                src: site.named_source(),
                span,
                help: Some(help.to_owned()),
            });
        }
        return None;
    }
    if KEYWORDS.contains(&name) {
        return None;
    }
    if let Some((_, why)) = FORBIDDEN.iter().find(|(forbidden, _)| *forbidden == name) {
        return Some(DslDiagnostic::UnknownFunction {
            name: name.to_owned(),
            src: site.named_source(),
            span,
            help: Some((*why).to_owned()),
        });
    }
    if let Some(arities) = library.arities.get(name) {
        return (!fits(arities)).then(|| wrong_arity(arities, None));
    }
    let candidates = vocabulary()
        .iter()
        .map(|doc| doc.name)
        .chain(script_fns.keys().map(String::as_str))
        .chain(library.arities.keys().map(String::as_str));
    let help = match did_you_mean(name, candidates) {
        Some(best) => format!("did you mean `{best}`?"),
        None => "the functions scripts may call are listed in docs/dsl.md".to_owned(),
    };
    Some(DslDiagnostic::UnknownFunction {
        name: name.to_owned(),
        src: site.named_source(),
        span,
        help: Some(help),
    })
}

/// `1 argument`, `2 or 3 arguments`, `no arguments`.
fn arity_words(arities: &BTreeSet<usize>) -> String {
    let numbers: Vec<String> = arities.iter().map(ToString::to_string).collect();
    let plural = arities.iter().next_back().copied() != Some(1);
    match numbers.as_slice() {
        [] => "no arguments".to_owned(),
        [only] if only == "0" => "no arguments".to_owned(),
        [only] => format!("{only} argument{}", if plural { "s" } else { "" }),
        [rest @ .., last] => format!("{} or {last} arguments", rest.join(", ")),
    }
}

/// The closest candidate by edit distance, if close enough to be a likely typo.
pub(crate) fn did_you_mean<'a>(
    name: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let limit = (name.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|candidate| *candidate != name && !candidate.contains('$'))
        .map(|candidate| (edit_distance(name, candidate), candidate))
        .filter(|(distance, _)| *distance <= limit)
        .min()
        .map(|(_, candidate)| candidate)
}

/// Levenshtein distance, counting characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("fighters", "fightrs"), 1);
        assert_eq!(edit_distance("push", "push"), 0);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("deal_damage", "deal_damgae"), 2);
    }

    #[test]
    fn did_you_mean_picks_the_closest_and_refuses_far_ones() {
        let names = ["fighters", "friendly_fighters", "push"];
        assert_eq!(did_you_mean("fightrs", names), Some("fighters"));
        assert_eq!(did_you_mean("teleport", names), None);
    }

    #[test]
    fn arity_words_reads_well() {
        assert_eq!(arity_words(&[0].into()), "no arguments");
        assert_eq!(arity_words(&[1].into()), "1 argument");
        assert_eq!(arity_words(&[2].into()), "2 arguments");
        assert_eq!(arity_words(&[1, 2].into()), "1 or 2 arguments");
    }
}
