//! The two engines agree (issue 12): random well-formed scripts from a small generator run
//! on Rhai's interpreter and on gloam's evaluator of the compiled form give the same value
//! or the same error (the same diagnostic, at the same place), the same events and the same
//! game afterwards.

mod common;

use common::fixture;
use gloam_dsl::{ScriptContext, ScriptEngine, ScriptSource};
use proptest::prelude::*;

/// An expression, as text; `depth` bounds its nesting.
fn expr(depth: u32) -> BoxedStrategy<String> {
    let leaf = prop_oneof![
        (-3i64..12).prop_map(|n| n.to_string()),
        Just("9223372036854775807".to_owned()),
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just("s".to_owned()),
        Just("l".to_owned()),
        Just("m".to_owned()),
        Just("true".to_owned()),
        Just("false".to_owned()),
        Just("\"x\"".to_owned()),
        Just("()".to_owned()),
        Just("damage(target)".to_owned()),
        Just("l.len()".to_owned()),
        Just("m.k".to_owned()),
        Just("m.missing".to_owned()),
        Just("fighters().len()".to_owned()),
        Just("twice(a)".to_owned()),
        Just("fighters().contains(target)".to_owned()),
        Just("[\"x\", 1].contains(\"x\")".to_owned()),
    ];
    leaf.prop_recursive(depth, 48, 3, |inner| {
        let op = prop_oneof![
            Just("+"),
            Just("-"),
            Just("*"),
            Just("/"),
            Just("%"),
            Just("=="),
            Just("!="),
            Just("<"),
            Just(">="),
            Just("&&"),
            Just("||"),
        ];
        prop_oneof![
            (inner.clone(), op, inner.clone()).prop_map(|(l, op, r)| format!("({l} {op} {r})")),
            inner.clone().prop_map(|e| format!("!{e}")),
            inner.clone().prop_map(|e| format!("-{e}")),
            inner.clone().prop_map(|e| format!("l[{e}]")),
            inner.clone().prop_map(|e| format!("m[{e}]")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("[{a}, {b}]")),
            inner.clone().prop_map(|e| format!("#{{k: {e}, j: 1}}")),
            inner.clone().prop_map(|e| format!("`v${{{e}}}!`")),
            inner.clone().prop_map(|e| format!("l.filter(|x| x > {e})")),
            inner.clone().prop_map(|e| format!("l.map(|x| x * {e})")),
            inner.clone().prop_map(|e| format!("l.some(|x| x == {e})")),
            inner.clone().prop_map(|e| format!("l.all(|x, i| i < {e})")),
            inner.clone().prop_map(|e| format!("l.contains({e})")),
            inner.clone().prop_map(|e| format!("twice({e})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(c, t, e)| format!("if {c} {{ {t} }} else {{ {e} }}")),
            inner.prop_map(|e| format!("{{ let z = {e}; z }}")),
        ]
    })
    .boxed()
}

/// A statement, as text.
fn stmt(depth: u32) -> BoxedStrategy<String> {
    let simple = prop_oneof![
        expr(2).prop_map(|e| format!("a = {e};")),
        expr(2).prop_map(|e| format!("b += {e};")),
        expr(2).prop_map(|e| format!("l.push({e});")),
        expr(2).prop_map(|e| format!("m.k = {e};")),
        expr(2).prop_map(|e| format!("m.extra = {e};")),
        expr(2).prop_map(|e| format!("l[0] = {e};")),
        expr(2).prop_map(|e| format!("s += {e};")),
        expr(2).prop_map(|e| format!("deal_damage(target, {e});")),
        expr(1).prop_map(|e| format!("if {e} {{ throw \"no\"; }}")),
        expr(1).prop_map(|e| format!("if {e} {{ return {e}; }}")),
        Just("for x in l { b += x; }".to_owned()),
        Just("for (x, i) in l { if i > 1 { break; } a = x; }".to_owned()),
        Just("for i in 0..3 { b += i; }".to_owned()),
        Just("let n = 0; while n < 4 { n += 1; if n == 2 { continue; } a += n; }".to_owned()),
    ];
    simple
        .prop_recursive(depth, 16, 2, |inner| {
            (expr(1), inner.clone(), inner)
                .prop_map(|(c, t, e)| format!("if {c} {{ {t} }} else {{ {e} }}"))
        })
        .boxed()
}

/// A whole script: fixed variables, statements, a final value.
fn script() -> impl Strategy<Value = String> {
    (prop::collection::vec(stmt(2), 0..6), expr(3)).prop_map(|(statements, last)| {
        format!(
            "fn twice(v) {{ if v == () {{ throw \"nothing\"; }} v * 2 }}\n\
             let a = 1; let b = 2; let s = \"t\"; let l = [3, 1, 2]; let m = #{{k: 4}};\n\
             {}\n{last}",
            statements.join("\n")
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn both_engines_give_the_same_result_error_events_and_game(text in script()) {
        let context = ScriptContext::effect("random script")
            .with_variables(["this_fighter", "target", "player"]);
        let mut results = Vec::new();
        for engine in [ScriptEngine::Rhai, ScriptEngine::Compiled] {
            let mut f = fixture();
            f.host.set_script_engine(engine);
            let script = match f.host.compile(&ScriptSource::whole("random.gloam", text.as_str()), &context) {
                Ok(script) => script,
                // A script the checker refuses is the same for both engines.
                Err(_) => return Ok(()),
            };
            prop_assert_eq!(script.fallback(), None, "{}", text);
            let outcome = f.run_with(&script, &[]);
            prop_assert!(f.host.compiled_bails().is_empty(), "{:?}", f.host.compiled_bails());
            results.push((outcome, f.events.clone(), f.state.clone()));
        }
        let (rhai, compiled) = (&results[0], &results[1]);
        prop_assert_eq!(&rhai.0, &compiled.0, "{}", text);
        prop_assert_eq!(&rhai.1, &compiled.1, "{}", text);
        prop_assert_eq!(&rhai.2, &compiled.2, "{}", text);
    }
}
