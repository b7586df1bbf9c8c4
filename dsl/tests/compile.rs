//! Compile-time checks: calls against the vocabulary, variables, numbers, positions.

mod common;

use common::{codes, compile_effect, line_col, render};
use gloam_dsl::{Host, KnownNames, Limits, NameKind, ScriptContext, ScriptSource};

#[test]
fn valid_scripts_compile() {
    for text in [
        "deal_damage(target, 1);",
        "if adjacent(this_fighter, target) { push(target, 1); }",
        "let enemies = enemy_fighters().filter(|f| distance(f, this_fighter) <= 2); enemies.len()",
        "for f in fighters() { if has_token(f, \"guard\") { remove_token(f, \"guard\"); } }",
        "fn twice(n) { n * 2 } twice(damage(target))",
        "target.deal_damage(1);",
        "let t = choose_fighter(enemy_fighters(), \"Pick one\"); heal(t, 1);",
        "// a comment\nlet x = 1_000; x + round()",
        "hex_of(target).q + hex(1, -1).r",
        "if target == () { 0 } else { 1 }",
    ] {
        if let Err(errors) = compile_effect(&Host::new(), text) {
            panic!(
                "`{text}`:\n{}",
                errors.iter().map(render).collect::<String>()
            );
        }
    }
}

#[test]
fn unknown_function_suggests_the_closest_name() {
    let host = Host::new();
    let errors = compile_effect(&host, "deal_damag(target, 1);").unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code_name(), "gloam::dsl::unknown_function");
    assert_eq!(errors[0].help_text(), Some("did you mean `deal_damage`?"));
}

#[test]
fn unknown_function_far_from_every_name_points_at_the_reference() {
    let errors = compile_effect(&Host::new(), "teleport(target);").unwrap_err();
    assert_eq!(
        errors[0].help_text(),
        Some("the functions scripts may call are listed in docs/dsl.md")
    );
}

#[test]
fn wrong_arity_names_the_expected_count() {
    let errors = compile_effect(&Host::new(), "push(target);").unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::wrong_arity");
    assert_eq!(
        errors[0].to_string(),
        "`push` takes 2 arguments; this call gives 1"
    );
}

#[test]
fn wrong_arity_counts_the_receiver_of_a_method_call() {
    assert_eq!(codes("target.push();"), ["gloam::dsl::wrong_arity"]);
    assert!(codes("target.push(1);").is_empty());
}

#[test]
fn overloaded_names_accept_each_documented_arity() {
    assert!(codes("counter(\"x\") + counter(target, \"x\")").is_empty());
    let errors = compile_effect(&Host::new(), "counter();").unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "`counter` takes 1 or 2 arguments; this call gives 0"
    );
}

#[test]
fn every_bad_call_is_reported_at_once_even_in_dead_code() {
    let text = "if false { fightrs(); }\npush(target);\nheal(target, 1, 2);\nlet x = [1].lenn();";
    assert_eq!(
        codes(text),
        [
            "gloam::dsl::unknown_function",
            "gloam::dsl::wrong_arity",
            "gloam::dsl::wrong_arity",
            "gloam::dsl::unknown_function",
        ]
    );
}

#[test]
fn library_functions_are_checked_too() {
    assert!(codes("[1, 2].len() + [3].filter(|x| x > 1).len()").is_empty());
    assert_eq!(codes("[1].len(2)"), ["gloam::dsl::wrong_arity"]);
}

#[test]
fn script_functions_are_checked_against_their_definition() {
    assert!(codes("fn hit(f) { deal_damage(f, 1) } hit(target);").is_empty());
    assert_eq!(
        codes("fn hit(f) { deal_damage(f, 1) } hit(target, 2);"),
        ["gloam::dsl::wrong_arity"]
    );
}

#[test]
fn print_and_debug_are_refused() {
    assert_eq!(codes("print(\"hello\");"), ["gloam::dsl::unknown_function"]);
    assert_eq!(codes("debug(1);"), ["gloam::dsl::unknown_function"]);
}

#[test]
fn eval_is_refused() {
    assert_eq!(codes("eval(\"1\")"), ["gloam::dsl::syntax"]);
    assert_eq!(codes("Fn(\"eval\").call(\"1\")"), ["gloam::dsl::syntax"]);
}

#[test]
fn names_given_to_fn_are_checked() {
    assert!(codes("let f = Fn(\"deal_damage\"); f.call(target, 1);").is_empty());
    assert_eq!(
        codes("let f = Fn(\"deal_damag\");"),
        ["gloam::dsl::unknown_function"]
    );
}

#[test]
fn undefined_variable_suggests_a_context_variable() {
    let errors = compile_effect(&Host::new(), "deal_damage(targt, 1);").unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::undefined_variable");
    assert_eq!(errors[0].help_text(), Some("did you mean `target`?"));
}

#[test]
fn undefined_variable_that_is_a_function_says_to_call_it() {
    let errors = compile_effect(&Host::new(), "fighters.len()").unwrap_err();
    assert_eq!(
        errors[0].help_text(),
        Some("`fighters` is a function: write `fighters(...)`")
    );
}

#[test]
fn context_variables_are_only_those_declared() {
    let host = Host::new();
    let source = ScriptSource::whole("x.gloam", "deal_damage(target, 1);");
    let errors = host
        .compile(&source, &ScriptContext::effect("x"))
        .unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::undefined_variable");
    let context = ScriptContext::effect("x").with_variables(["target"]);
    assert!(host.compile(&source, &context).is_ok());
}

#[test]
fn decimal_numbers_are_explained() {
    let errors = compile_effect(&Host::new(), "deal_damage(target, 1.5);").unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::decimal_number");
    assert_eq!(errors[0].to_string(), "`1.5` is not a whole number");
    assert_eq!(
        errors[0].help_text(),
        Some("rules are integer: write 1 or 2")
    );
    assert_eq!(errors[0].span(), 20..23);
    let errors = compile_effect(&Host::new(), "let x = 2.0;").unwrap_err();
    assert_eq!(errors[0].help_text(), Some("rules are integer: write 2"));
}

#[test]
fn syntax_errors_are_reported() {
    assert_eq!(codes("deal_damage(target, 1"), ["gloam::dsl::syntax"]);
    assert_eq!(codes("let = 3;"), ["gloam::dsl::syntax"]);
}

#[test]
fn deep_nesting_is_a_limit_at_compile_time() {
    let text = format!("{}1{}", "(".repeat(200), ")".repeat(200));
    let errors = compile_effect(&Host::new(), &text).unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::limit_exceeded");
    assert!(
        errors[0].to_string().contains("expression depth"),
        "{}",
        errors[0]
    );
}

/// Issue 17 item 2: checking stays fast because a script has a size limit. Parsing grows
/// faster than a script's length (a 1.4 MB card took 7 s), so a script over
/// `Limits::script_bytes` is refused before it is parsed, located at its start; one at the
/// limit compiles.
#[test]
fn a_script_over_the_size_limit_is_refused_before_parsing() {
    let host = Host::with_limits(Limits {
        script_bytes: 1_000,
        ..Limits::default()
    });
    let line = "let a = 1;\n";
    let at_limit = line.repeat(1_000 / line.len());
    assert!(compile_effect(&host, &at_limit).is_ok());
    let over = format!("{at_limit}{line}");
    let errors = compile_effect(&host, &over).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code_name(), "gloam::dsl::limit_exceeded");
    assert!(
        errors[0]
            .to_string()
            .contains("script size in bytes (1000)"),
        "{}",
        errors[0]
    );
    assert_eq!(errors[0].span(), 0..0);
    assert!(
        errors[0]
            .help_text()
            .unwrap_or_default()
            .contains("1001 bytes long"),
        "{:?}",
        errors[0].help_text()
    );
    assert_eq!(Limits::default().script_bytes, 65_536);
}

#[test]
fn effects_and_choices_in_a_condition_are_refused() {
    let host = Host::new();
    let context = ScriptContext::condition("restriction").with_variables(["target"]);
    let compile = |text: &str| {
        host.compile(&ScriptSource::whole("c.gloam", text), &context)
            .err()
            .unwrap_or_default()
            .iter()
            .map(|error| error.to_string())
            .collect::<Vec<_>>()
    };
    assert!(compile("damage(target) > 0 && adjacent(target, target)").is_empty());
    assert_eq!(
        compile("deal_damage(target, 1); true"),
        ["`deal_damage` changes the game, and a condition may only look at the game"]
    );
    assert_eq!(
        compile("choose_option([\"a\"], \"?\") == \"a\""),
        ["`choose_option` asks a player, and a condition may only look at the game"]
    );
}

#[test]
fn a_bad_range_is_reported_not_panicked() {
    let source = ScriptSource::new("f.gloam", "é", 1, 2);
    let errors = Host::new()
        .compile(&source, &ScriptContext::effect("x"))
        .unwrap_err();
    assert_eq!(errors[0].code_name(), "gloam::dsl::syntax");
}

#[test]
fn script_reports_the_functions_it_uses() {
    let script = compile_effect(
        &Host::new(),
        "if push(target, 1) { deal_damage(target, damage(target)); }",
    )
    .unwrap();
    assert_eq!(script.uses(), ["damage", "deal_damage", "push"]);
}

/// A card file whose script starts on line 10; the script's third line is the file's 12th.
fn card_file(script_lines: &[&str]) -> (String, usize, usize) {
    let mut file = String::new();
    for line in 1..=9 {
        file.push_str(&format!("// line {line}\n"));
    }
    file.push_str("card \"Lunge\" { effect = {");
    let start = file.len();
    for line in script_lines {
        file.push_str(line);
        file.push('\n');
    }
    let end = file.len();
    file.push_str("} }\n");
    (file, start, end)
}

#[test]
fn positions_map_to_the_card_file() {
    let (file, start, end) = card_file(&["", "    let t = target;", "    deal_damag(t, 1);"]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let context = ScriptContext::effect("card \"Lunge\" effect").with_variables(["target"]);
    let errors = Host::new().compile(&source, &context).unwrap_err();
    let span = errors[0].span();
    assert_eq!(line_col(&file, span.start), (12, 5));
    assert_eq!(&file[span], "deal_damag");
}

#[test]
fn positions_on_the_first_line_keep_the_file_column() {
    let (file, start, end) = card_file(&[" fightrs(); }"]);
    let end = end - " }\n".len();
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let errors = Host::new()
        .compile(&source, &ScriptContext::effect("x"))
        .unwrap_err();
    let span = errors[0].span();
    assert_eq!(line_col(&file, span.start), (10, 27));
    assert_eq!(&file[span], "fightrs");
}

#[test]
fn rendered_compile_diagnostics() {
    let (file, start, end) = card_file(&[
        "",
        "    let t = choose_fighter(enemy_fightrs(), \"Pick\");",
        "    push(t);",
        "    deal_damage(t, 1.5);",
    ]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let context = ScriptContext::effect("card \"Lunge\" effect").with_variables(["target"]);
    let errors = Host::new().compile(&source, &context).unwrap_err();
    insta::assert_snapshot!("decimal_number", render(&errors[0]));

    let (file, start, end) = card_file(&[
        "",
        "    let t = choose_fighter(enemy_fightrs(), \"Pick\");",
        "    push(t);",
    ]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let errors = Host::new().compile(&source, &context).unwrap_err();
    let rendered: Vec<String> = errors.iter().map(render).collect();
    insta::assert_snapshot!("unknown_function", rendered[0]);
    insta::assert_snapshot!("wrong_arity", rendered[1]);

    let (file, start, end) = card_file(&["", "    deal_damage(targt, 1);"]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let errors = Host::new().compile(&source, &context).unwrap_err();
    insta::assert_snapshot!("undefined_variable", render(&errors[0]));

    let (file, start, end) = card_file(&["", "    deal_damage(target, 1"]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let errors = Host::new().compile(&source, &context).unwrap_err();
    insta::assert_snapshot!("syntax", render(&errors[0]));

    let (file, start, end) = card_file(&[
        "",
        "    damage(target) > 0 && give_token(target, \"guard\")",
    ]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let condition = ScriptContext::condition("card \"Lunge\" condition").with_variables(["target"]);
    let errors = Host::new().compile(&source, &condition).unwrap_err();
    insta::assert_snapshot!("effect_in_condition", render(&errors[0]));
}

/// A ruleset's names: two tokens, keywords, characteristics, counters, hex types, events,
/// zones and dice.
fn ruleset_names() -> KnownNames {
    KnownNames::permissive()
        .with(NameKind::Token, ["guard", "stagger"])
        .with(NameKind::Keyword, ["leader", "hunter"])
        .with(NameKind::Characteristic, ["move", "defence", "wounds"])
        .with(NameKind::Counter, ["round", "glory"])
        .with(NameKind::HexType, ["lethal", "starting"])
        .with(NameKind::Event, ["phase_end", "round_end", "power_step"])
        .with(NameKind::Zone, ["power_hand", "power_deck"])
        .with(NameKind::Die, ["attack", "defence"])
}

fn compile_named(names: KnownNames, text: &str) -> Vec<gloam_dsl::DslDiagnostic> {
    let context = ScriptContext::effect("test effect")
        .with_variables(common::EFFECT_VARIABLES)
        .with_names(names);
    Host::new()
        .compile(&ScriptSource::whole("test.gloam", text), &context)
        .err()
        .unwrap_or_default()
}

/// `(code, message, help)` of each problem `text` has with the ruleset's names.
fn name_problems(text: &str) -> Vec<(String, String)> {
    compile_named(ruleset_names(), text)
        .iter()
        .map(|error| {
            assert_eq!(error.code_name(), "gloam::dsl::unknown_name", "{error}");
            (
                error.to_string(),
                error.help_text().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

#[test]
fn declared_names_compile() {
    let text = "if has_token(target, \"guard\") && has_keyword(target, \"leader\") { \
                give_token(target, \"stagger\"); remove_token(target, \"guard\"); } \
                modify(target, \"move\", 1, \"phase_end\"); mark(\"power_step\", player); \
                let n = counter(\"round\") + counter(player, \"glory\") + tokens(target, \"guard\") \
                + characteristic(target, \"defence\") + zone_size(player, \"power_hand\"); \
                set_counter(\"round\", n); add_counter(target, \"glory\", 1); \
                cards_in(player, \"power_deck\"); roll(\"attack\", 2); \
                hexes_of_type(\"lethal\"); hex_has_type(hex(0, 0), \"starting\"); \
                choose_option([\"left\", \"right\"], \"Which way?\")";
    let errors = compile_named(ruleset_names(), text);
    assert!(
        errors.is_empty(),
        "{}",
        errors.iter().map(render).collect::<String>()
    );
}

#[test]
fn every_kind_of_name_is_checked() {
    for (text, message) in [
        ("has_token(target, \"gaurd\")", "unknown token `gaurd`"),
        ("tokens(target, \"stager\")", "unknown token `stager`"),
        ("give_token(target, \"stun\")", "unknown token `stun`"),
        ("remove_token(target, \"x\")", "unknown token `x`"),
        (
            "has_keyword(target, \"leeder\")",
            "unknown keyword `leeder`",
        ),
        (
            "characteristic(target, \"mov\")",
            "unknown characteristic `mov`",
        ),
        ("counter(\"rounds\")", "unknown counter `rounds`"),
        ("counter(player, \"glroy\")", "unknown counter `glroy`"),
        ("set_counter(\"turn\", 1)", "unknown counter `turn`"),
        ("set_counter(target, \"turn\", 1)", "unknown counter `turn`"),
        ("add_counter(\"turn\", 1)", "unknown counter `turn`"),
        ("add_counter(target, \"turn\", 1)", "unknown counter `turn`"),
        ("hexes_of_type(\"lethl\")", "unknown hex type `lethl`"),
        (
            "hex_has_type(hex(0, 0), \"edge\")",
            "unknown hex type `edge`",
        ),
        ("zone_size(player, \"hand\")", "unknown zone `hand`"),
        ("cards_in(player, \"discard\")", "unknown zone `discard`"),
        ("roll(\"atack\", 1)", "unknown die `atack`"),
        (
            "mark(\"phase_ends\")",
            "unknown timing window or event `phase_ends`",
        ),
        (
            "mark(\"phase_ends\", target)",
            "unknown timing window or event `phase_ends`",
        ),
        (
            "modify(target, \"speed\", 1, \"phase_end\")",
            "unknown characteristic `speed`",
        ),
        (
            "modify(target, \"move\", 1, \"turn_end\")",
            "unknown timing window or event `turn_end`",
        ),
    ] {
        let problems = name_problems(text);
        assert_eq!(problems.len(), 1, "`{text}`: {problems:?}");
        assert_eq!(problems[0].0, message, "`{text}`");
    }
}

#[test]
fn unknown_name_suggests_the_closest_declared_name() {
    assert_eq!(
        name_problems("give_token(target, \"gard\");"),
        [(
            "unknown token `gard`".to_owned(),
            "did you mean `guard`?".to_owned()
        )]
    );
    assert_eq!(
        name_problems("modify(target, \"move\", 1, \"round_ends\");")[0].1,
        "did you mean `round_end`?"
    );
}

#[test]
fn unknown_name_far_from_every_name_lists_a_few() {
    assert_eq!(
        name_problems("give_token(target, \"stun\");")[0].1,
        "the ruleset declares `guard` and `stagger`"
    );
    assert_eq!(
        name_problems("mark(\"x\");")[0].1,
        "the ruleset declares `phase_end`, `power_step` and `round_end`"
    );
    let many =
        KnownNames::permissive().with(NameKind::Token, ["a1", "b2", "c3", "d4", "e5", "f6", "g7"]);
    let errors = compile_named(many, "give_token(target, \"zzzz\")");
    assert_eq!(
        errors[0].help_text(),
        Some("the ruleset declares `a1`, `b2`, `c3`, `d4`, `e5` and 2 more")
    );
    let one = KnownNames::permissive().with(NameKind::Token, ["guard"]);
    let errors = compile_named(one, "give_token(target, \"zzzz\")");
    assert_eq!(
        errors[0].help_text(),
        Some("the ruleset declares only `guard`")
    );
}

#[test]
fn names_are_checked_in_method_calls_and_dead_code() {
    assert_eq!(name_problems("target.has_token(\"gard\")").len(), 1);
    assert_eq!(name_problems("\"rond\".counter()").len(), 1);
    assert!(name_problems("\"round\".counter()").is_empty());
    assert_eq!(
        name_problems("\"rond\".counter().abs()").len(),
        0,
        "the receiver of a chain is not seen"
    );
    assert_eq!(name_problems("if false { mark(\"nope\"); }").len(), 1);
    assert_eq!(
        name_problems(
            "fighters().filter(|f| has_token(f, \"gard\") || has_keyword(f, \"hunterr\"))"
        )
        .len(),
        2
    );
}

#[test]
fn only_literals_in_name_places_are_checked() {
    for text in [
        // Computed names are not checked.
        "let t = \"gard\"; has_token(target, t)",
        "has_token(target, \"gu\" + \"ard\")",
        "has_token(target, `${\"gard\"}`)",
        // Strings that are not names.
        "choose_fighter(fighters(), \"gard\")",
        "choose_option([\"gard\"], \"Pick\") == \"gard\"",
        // A script function of the same name is the script's business.
        "fn has_token(f, name) { name == \"x\" } has_token(target, \"gard\")",
        // Library functions.
        "\"gard\".len()",
    ] {
        assert!(name_problems(text).is_empty(), "`{text}`");
    }
}

#[test]
fn kinds_without_names_are_not_checked() {
    assert!(compile_named(KnownNames::permissive(), "give_token(target, \"anything\")").is_empty());
    assert!(compile_effect(&Host::new(), "mark(\"anything\"); roll(\"any\", 1)").is_ok());
    let tokens_only = KnownNames::permissive().with(NameKind::Token, ["guard"]);
    assert!(
        compile_named(
            tokens_only.clone(),
            "mark(\"anything\"); has_keyword(target, \"x\")"
        )
        .is_empty()
    );
    assert_eq!(
        compile_named(tokens_only, "has_token(target, \"x\")").len(),
        1
    );
}

#[test]
fn unknown_names_are_reported_with_the_other_problems() {
    let context = ScriptContext::condition("restriction")
        .with_variables(["target"])
        .with_names(ruleset_names());
    let errors = Host::new()
        .compile(
            &ScriptSource::whole(
                "c.gloam",
                "has_token(target, \"gard\") && give_token(target, \"stun\")",
            ),
            &context,
        )
        .unwrap_err();
    let codes: Vec<&str> = errors.iter().map(|error| error.code_name()).collect();
    assert_eq!(
        codes,
        [
            "gloam::dsl::unknown_name",
            "gloam::dsl::effect_in_condition",
            "gloam::dsl::unknown_name",
        ]
    );
}

#[test]
fn unknown_name_labels_the_text_inside_the_quotes() {
    let (file, start, end) = card_file(&[
        "",
        "    give_token(target, \"gu\\\"ard\");",
        "    mark(`round_ends`);",
    ]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let context = ScriptContext::effect("card \"Lunge\" effect")
        .with_variables(["target"])
        .with_names(ruleset_names());
    let errors = Host::new().compile(&source, &context).unwrap_err();
    assert_eq!(errors.len(), 2);
    assert_eq!(errors[0].to_string(), "unknown token `gu\"ard`");
    assert_eq!(&file[errors[0].span()], "gu\\\"ard");
    assert_eq!(line_col(&file, errors[0].span().start), (11, 25));
    assert_eq!(&file[errors[1].span()], "round_ends");
    assert_eq!(line_col(&file, errors[1].span().start), (12, 11));
}

#[test]
fn rendered_unknown_name() {
    let (file, start, end) = card_file(&[
        "",
        "    if has_token(target, \"gard\") {",
        "        modify(target, \"move\", -1, \"phase_end\");",
        "    }",
    ]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let context = ScriptContext::effect("card \"Lunge\" effect")
        .with_variables(["target"])
        .with_names(ruleset_names());
    let errors = Host::new().compile(&source, &context).unwrap_err();
    assert_eq!(errors.len(), 1);
    insta::assert_snapshot!("unknown_name", render(&errors[0]));
}

/// `(code, text labelled)` of each problem of `text` as an effect script, in order.
fn problems(text: &str) -> Vec<(&'static str, String)> {
    let context = ScriptContext::effect("test effect")
        .with_variables(common::EFFECT_VARIABLES)
        .with_names(ruleset_names());
    match Host::new().compile(&ScriptSource::whole("test.gloam", text), &context) {
        Ok(_) => Vec::new(),
        Err(errors) => errors
            .iter()
            .map(|error| (error.code_name(), text[error.span()].to_owned()))
            .collect(),
    }
}

/// The help of the one undefined variable `name` of `text`.
fn undefined_help(text: &str, name: &str) -> String {
    let errors = compile_effect(&Host::new(), text).unwrap_err();
    let found: Vec<_> = errors
        .iter()
        .filter(|error| error.to_string() == format!("unknown variable `{name}`"))
        .collect();
    assert_eq!(found.len(), 1, "`{text}`: {errors:?}");
    found[0].help_text().unwrap_or_default().to_owned()
}

fn undefined(text: &str) -> Vec<String> {
    problems(text)
        .into_iter()
        .map(|(code, label)| {
            assert_eq!(code, "gloam::dsl::undefined_variable", "`{text}`: {label}");
            label
        })
        .collect()
}

#[test]
fn every_mistake_of_a_script_is_reported_at_once() {
    let text = "give_tokn(nobody, \"guard\"); heal(); give_token(target, \"gard\");";
    assert_eq!(
        problems(text),
        [
            ("gloam::dsl::unknown_function", "give_tokn".to_owned()),
            ("gloam::dsl::undefined_variable", "nobody".to_owned()),
            ("gloam::dsl::wrong_arity", "heal".to_owned()),
            ("gloam::dsl::unknown_name", "gard".to_owned()),
        ]
    );
}

#[test]
fn every_undefined_variable_is_reported_with_its_own_span() {
    let text = "deal_damage(nobody, 1);\nheal(somebody, nobody);";
    let errors = compile_effect(&Host::new(), text).unwrap_err();
    let spans: Vec<_> = errors.iter().map(|error| error.span()).collect();
    assert_eq!(spans, [12..18, 29..37, 39..45]);
    assert!(
        errors
            .iter()
            .all(|error| error.code_name() == "gloam::dsl::undefined_variable")
    );
}

#[test]
fn closures_see_the_variables_around_them() {
    for text in [
        "let n = 2; fighters().filter(|f| distance(f, target) <= n).len() + nobody",
        "let n = 2; fighters().filter(|f| fighters().filter(|g| distance(f, g) <= n).len() > 1); nobody",
        "let add = |a, b| a + b; add.call(1, 2) + nobody",
        "let k = 1; let f = || { let j = k; j + 1 }; f.call() + nobody",
        "fn near(f) { fighters().filter(|g| distance(f, g) <= 1) } near(target); nobody",
    ] {
        assert_eq!(undefined(text), ["nobody"], "`{text}`");
    }
    // What a closure reads and nothing declares: each read, once.
    assert_eq!(
        undefined("fighters().filter(|f| distance(f, nobdy) <= 1 && nobdy != f); nobody"),
        ["nobdy", "nobdy", "nobody"]
    );
    // A closure's parameters and variables end with it.
    assert_eq!(undefined("let f = |x| { let y = x; y }; x + y"), ["x", "y"]);
}

#[test]
fn shadowing_and_blocks_scope_variables() {
    assert_eq!(
        undefined("let x = 1; { let x = x + 1; x; } let y = x; y + nobody"),
        ["nobody"]
    );
    assert_eq!(
        undefined("if true { let inner = 1; } inner + nobody"),
        ["inner", "nobody"]
    );
    assert_eq!(
        undefined_help("if true {\n let inner = 1;\n}\ninner", "inner"),
        "the `inner` declared on line 2 is out of scope here: it lives only until the end of its block"
    );
    assert_eq!(
        undefined_help("let x = x + 1;", "x"),
        "`x` is being declared here, and its initial value cannot read it"
    );
    // A `const` is a variable too; a switch declares nothing.
    assert_eq!(
        undefined("const MAX = 3; switch MAX { 3 => MAX, 2 if MAX > 1 => 0, _ => nobody }"),
        ["nobody"]
    );
}

#[test]
fn loop_and_catch_variables_live_in_their_block() {
    assert_eq!(
        undefined("for (f, i) in fighters() { deal_damage(f, i); } nobody"),
        ["nobody"]
    );
    assert_eq!(
        undefined("for f in fighters() { } f + nobody"),
        ["f", "nobody"]
    );
    assert_eq!(
        undefined("try { throw 1; } catch (err) { err + 1; } err + nobody"),
        ["err", "nobody"]
    );
    assert_eq!(
        undefined("let n = 0; while n < 3 { n += 1; } n + nobody"),
        ["nobody"]
    );
}

#[test]
fn functions_see_their_parameters_and_the_context() {
    assert_eq!(
        undefined("fn hit(f, n) { deal_damage(f, n); this; target } hit(target, 1); nobody"),
        ["nobody"]
    );
    assert_eq!(
        undefined("fn twice(n) { n * 2 } let f = twice; f.call(1) + nobody"),
        ["nobody"],
        "a function's name is a value"
    );
    assert_eq!(
        undefined_help(
            "let bonus = 1;\nfn more(x) { x + bonus }\nmore(nobody)",
            "bonus"
        ),
        "a function sees only its parameters and this script's context: pass `bonus` to it as an argument"
    );
}

#[test]
fn variables_used_before_their_let_are_errors() {
    assert_eq!(
        undefined("deal_damage(t, 1);\nlet t = target;\nheal(t, 1); heal(u, 1); let u = t;"),
        ["t", "u"]
    );
    assert_eq!(
        undefined_help("deal_damage(t, 1);\nlet t = target;", "t"),
        "`t` is declared only later, on line 2: declare it before using it"
    );
    assert_eq!(
        undefined("let f = || late; let late = 1; nobody"),
        ["late", "nobody"],
        "a closure captures what is declared where it is written"
    );
}

#[test]
fn undefined_variables_suggest_variables_in_scope() {
    assert_eq!(
        undefined_help("deal_damage(targt, 1); heal(nobody, 1);", "targt"),
        "did you mean `target`?"
    );
    assert_eq!(
        undefined_help(
            "let amount = 2; deal_damage(target, amont); heal(targt, 1);",
            "amont"
        ),
        "did you mean `amount`?"
    );
    assert_eq!(
        undefined_help("fighters.len() + nobody", "fighters"),
        "`fighters` is a function: write `fighters(...)`"
    );
}

#[test]
fn a_syntax_error_still_stops_the_script() {
    assert_eq!(
        codes("deal_damage(nobody, 1); let = 3;"),
        ["gloam::dsl::syntax"]
    );
    assert_eq!(
        codes("deal_damage(nobody, 1); deal_damage(target, 1.5);"),
        ["gloam::dsl::decimal_number"]
    );
}

#[test]
fn rendered_mistakes_of_one_script() {
    let (file, start, end) = card_file(&[
        "",
        "    give_tokn(nobody, \"guard\");",
        "    heal();",
        "    deal_damage(targt, 1);",
    ]);
    let source = ScriptSource::new("cards/lunge.gloam", file.as_str(), start, end);
    let context = ScriptContext::effect("card \"Lunge\" effect").with_variables(["target"]);
    let errors = Host::new().compile(&source, &context).unwrap_err();
    let rendered: String = errors.iter().map(render).collect();
    insta::assert_snapshot!("every_mistake", rendered);
}
