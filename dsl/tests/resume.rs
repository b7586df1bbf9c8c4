//! A compiled run that stops at a choice carries on where it stopped once the choice is
//! answered (issue 12 item 3), and ends exactly as the reference, which runs the script
//! again from its top with the answers so far: the same questions, value or error, events
//! and game, whatever construct the choice sits in.

mod common;

use common::fixture;
use gloam_core::Answer;
use gloam_dsl::{DslDiagnostic, Outcome, ScriptContext, ScriptEngine, ScriptSource};
use proptest::prelude::*;

/// Everything a script did, answered from `picks` in turn: each run's outcome, then the
/// events and the game after the last.
type Transcript = (
    Vec<Result<Outcome, DslDiagnostic>>,
    Vec<gloam_core::Event>,
    gloam_core::GameState,
);

/// Plays `text` on `engine`, answering each question with the next of `picks` (an index
/// into the options), until it finishes, fails or the picks run out. Also gives how many
/// runs resumed.
fn play(engine: ScriptEngine, text: &str, picks: &[usize]) -> Option<(Transcript, u64)> {
    play_within(engine, text, picks, None)
}

/// [`play`] with at most `operations` operations a run (`None`: the default limit).
fn play_within(
    engine: ScriptEngine,
    text: &str,
    picks: &[usize],
    operations: Option<u64>,
) -> Option<(Transcript, u64)> {
    let context =
        ScriptContext::effect("choices").with_variables(["this_fighter", "target", "player"]);
    let mut f = fixture();
    if let Some(operations) = operations {
        f.limit_operations(operations);
    }
    f.host.set_script_engine(engine);
    let script = f
        .host
        .compile(&ScriptSource::whole("choices.gloam", text), &context)
        .ok()?;
    assert_eq!(script.fallback(), None, "{text}");
    let mut answers = Vec::new();
    let mut outcomes = Vec::new();
    loop {
        let outcome = f.run_with(&script, &answers);
        let request = match &outcome {
            Ok(Outcome::NeedsChoice(request)) => Some(request.clone()),
            _ => None,
        };
        outcomes.push(outcome);
        let Some(request) = request else { break };
        let Some(pick) = picks.get(answers.len()) else {
            break;
        };
        let gloam_core::Options::One { choices } = &request.options else {
            panic!("{request:?}");
        };
        answers.push(Answer::One(choices[pick % choices.len()].clone()));
    }
    assert!(
        f.host.compiled_bails().is_empty(),
        "{:?}",
        f.host.compiled_bails()
    );
    Some((
        (outcomes, f.events.clone(), f.state.clone()),
        f.host.compiled_resumes(),
    ))
}

/// `pick()` asks which of three, and is 0, 1 or 2; `hit(target)` deals a damage first.
fn script_text(statements: &[String], last: &str) -> String {
    format!(
        "fn pick() {{ let o = choose_option([\"p\", \"q\", \"r\"], \"which?\"); \
         if o == \"p\" {{ 0 }} else if o == \"q\" {{ 1 }} else {{ 2 }} }}\n\
         fn hit(t) {{ deal_damage(t, 1); pick() }}\n\
         let a = 1; let b = 2; let l = [3, 1, 2]; let m = #{{k: 4}};\n\
         let f = |x| x * b + a;\n\
         {}\n{last}",
        statements.join("\n")
    )
}

/// On Rhai, a script that asks a question runs again from its top after the answer, and
/// `filter`, `some`, `all` and `map` give the result kept from the run before
/// (`runtime::Memo`) without running their closure again; the compiled run resumes after
/// the question. Both count a run's operations as one run from the top would, the kept
/// result's closure turns included (`limits::budget`): at every limit, both engines stop at
/// the same place after the answer, or both finish.
#[test]
fn a_kept_list_result_counts_its_closure_turns_at_every_limit() {
    let text = "let l = [1, 2, 3, 4];\n\
         let kept = l.filter(|x| { let n = 0; while n < 5 { n += 1; } x > 1 });\n\
         let o = choose_option([\"p\", \"q\"], \"which?\");\n\
         let more = l.map(|x| x * 2);\n\
         let o2 = choose_option([\"p\", \"q\"], \"again?\");\n\
         [kept, more, o, o2]";
    let (whole, _) = play(ScriptEngine::Rhai, text, &[0, 1]).expect("it compiles");
    assert!(whole.0.last().is_some_and(Result::is_ok), "{:?}", whole.0);
    let mut limit = 1;
    loop {
        let (rhai, _) =
            play_within(ScriptEngine::Rhai, text, &[0, 1], Some(limit)).expect("it compiles");
        let (compiled, _) =
            play_within(ScriptEngine::Compiled, text, &[0, 1], Some(limit)).expect("it compiles");
        assert_eq!(compiled, rhai, "limit {limit}");
        if rhai.0.last().is_some_and(Result::is_ok) {
            break;
        }
        limit += 1;
    }
    assert!(limit > 100, "the script counts {limit} operations");
}

/// An expression in which a choice may sit anywhere.
fn expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (0i64..4).prop_map(|n| n.to_string()),
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just("pick()".to_owned()),
        Just("hit(target)".to_owned()),
        Just("choose_fighter([target, this_fighter], \"who?\") == target".to_owned()),
        Just("damage(target)".to_owned()),
    ];
    leaf.prop_recursive(depth, 24, 3, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("({l} + {r})")),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("({l} > {r})")),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("({l} == 1 && {r} > 0)")),
            (inner.clone(), inner.clone()).prop_map(|(l, r)| format!("({l} == 1 || {r} > 0)")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, t, e)| format!("if {c} == 1 {{ {t} }} else {{ {e} }}")),
            inner
                .clone()
                .prop_map(|e| format!("{{ let z = {e}; z + 1 }}")),
            inner.clone().prop_map(|e| format!("[{e}, 1].len()")),
            inner.clone().prop_map(|e| format!("`v${{{e}}}`.len()")),
            inner
                .clone()
                .prop_map(|e| format!("l.map(|x| x + {e}).len()")),
            inner.clone().prop_map(|e| format!("f.call({e})")),
            inner.clone().prop_map(|e| format!("(#{{k: {e}}}).k")),
            (inner.clone(), inner.clone())
                .prop_map(|(v, x)| format!("(switch {v} {{ 0 => {x}, 1 => 5, _ => b }})")),
        ]
    })
    .boxed()
}

/// A statement in which a choice may sit anywhere.
fn stmt(depth: u32) -> BoxedStrategy<String> {
    let simple = prop_oneof![
        expr(2).prop_map(|e| format!("a = {e};")),
        expr(2).prop_map(|e| format!("b += {e};")),
        expr(2).prop_map(|e| format!("m.k = {e};")),
        expr(2).prop_map(|e| format!("push(l, {e});")),
        expr(2).prop_map(|e| format!("insert(l, 1, {e});")),
        expr(2).prop_map(|e| format!("l[{e} % 3] = 7;")),
        expr(2).prop_map(|e| format!("deal_damage(target, {e});")),
        expr(1).prop_map(|e| format!("if {e} == 2 {{ throw \"no\"; }}")),
        expr(1).prop_map(|e| format!("if {e} == 0 {{ return {e}; }}")),
        expr(1).prop_map(|e| format!("for x in l {{ b += x * {e}; }}")),
        expr(1).prop_map(|e| format!("for (x, i) in 0..3 {{ if {e} == i {{ break; }} a += x; }}")),
        expr(1).prop_map(|e| format!(
            "let n = 0; while n < 3 {{ n += 1; if {e} == 1 {{ continue; }} a += n; }}"
        )),
        expr(1).prop_map(|e| format!("let n = 0; while {e} + n < 3 {{ n += 1; }}")),
        expr(1).prop_map(|e| format!("let n = 0; do {{ n += {e}; }} while n < 2 && n > 0;")),
        expr(1).prop_map(|e| format!(
            "try {{ a = {e}; if a == 2 {{ throw a; }} }} catch (err) {{ b = err; }}"
        )),
        expr(1).prop_map(|e| format!("try {{ throw 1; }} catch {{ b = {e}; }}")),
        expr(1).prop_map(|e| format!("b = switch {e} {{ 0 => pick(), 1 => 9, _ => {e} }};")),
    ];
    simple
        .prop_recursive(depth, 12, 2, |inner| {
            prop_oneof![
                (expr(1), inner.clone(), inner.clone())
                    .prop_map(|(c, t, e)| format!("if {c} > 0 {{ {t} }} else {{ {e} }}")),
                inner.prop_map(|body| format!("{{ {body} }}")),
            ]
        })
        .boxed()
}

fn script() -> impl Strategy<Value = String> {
    (prop::collection::vec(stmt(2), 0..5), expr(2))
        .prop_map(|(statements, last)| script_text(&statements, &format!("[{last}, l]")))
}

/// Every resumable construct in one script, answered: the compiled engine resumes and ends
/// as the reference does.
#[test]
fn a_run_stopped_inside_every_construct_resumes_and_agrees_with_rhai() {
    let text = script_text(
        &[
            "a = pick() + pick();".to_owned(),
            "deal_damage(target, 1); if pick() == 1 { b = hit(target); } else { b = pick(); }"
                .to_owned(),
            "for x in l { b += x * pick(); }".to_owned(),
            "let n = 0; while n < pick() + 1 { n += 1; a += pick(); }".to_owned(),
            "try { a = hit(target); throw a; } catch (err) { b = err + pick(); }".to_owned(),
            "b = switch pick() { 0 => pick(), 1 => 9, _ => hit(target) };".to_owned(),
            "let c = pick() == 1 && hit(target) > 0 || pick() == 2;".to_owned(),
        ],
        "[a, b, l, m, damage(target)]",
    );
    let picks = [
        1, 2, 0, 1, 1, 2, 0, 1, 2, 2, 1, 0, 1, 1, 0, 2, 1, 0, 2, 1, 1, 0, 2,
    ];
    let (rhai, _) = play(ScriptEngine::Rhai, &text, &picks).expect("it compiles");
    let (compiled, resumes) = play(ScriptEngine::Compiled, &text, &picks).expect("it compiles");
    assert_eq!(rhai, compiled);
    assert!(
        matches!(rhai.0.last(), Some(Ok(Outcome::Done { .. }))),
        "{:?}",
        rhai.0.last()
    );
    assert_eq!(
        resumes as usize,
        rhai.0.len() - 1,
        "every run after an answer resumed"
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn a_resumed_run_agrees_with_rhai_running_again(
        text in script(),
        picks in prop::collection::vec(0usize..3, 0..12),
    ) {
        let Some((rhai, _)) = play(ScriptEngine::Rhai, &text, &picks) else {
            // A script the checker refuses is the same for both engines.
            return Ok(());
        };
        let (compiled, _) = play(ScriptEngine::Compiled, &text, &picks).expect("it compiles");
        prop_assert_eq!(&rhai.0, &compiled.0, "{}", text);
        prop_assert_eq!(&rhai.1, &compiled.1, "{}", text);
        prop_assert_eq!(&rhai.2, &compiled.2, "{}", text);
    }
}
