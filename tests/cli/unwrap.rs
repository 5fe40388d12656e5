//! `unwrap`: the first balanced JSON value in a model's reply.

use predicates::prelude::*;
use proptest::prelude::*;

use crate::common::inertbox;

#[test]
fn exit_codes() {
    inertbox()
        .arg("unwrap")
        .write_stdin("Here you go:\n```json\n{\"a\": [1, \"}\"]}\n```\nAnything else?")
        .assert()
        .code(0)
        .stdout("{\"a\": [1, \"}\"]}\n");
    inertbox()
        .arg("unwrap")
        .write_stdin("Sorry, I cannot do that.")
        .assert()
        .code(1)
        .stdout("")
        .stderr(predicate::str::contains("no JSON"));
    inertbox().args(["unwrap", "/nonexistent"]).assert().code(2).stdout("");
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i32>().prop_map(serde_json::Value::from),
        "[a-z{}\\[\\]\"\\\\ ]{0,12}".prop_map(serde_json::Value::from),
    ];
    let inner = leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::from),
            prop::collection::btree_map("[a-z\"{}]{1,6}", inner, 0..5)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    });
    // The top level is an object or an array, as a model is asked for.
    prop_oneof![
        prop::collection::vec(inner.clone(), 0..5).prop_map(serde_json::Value::from),
        prop::collection::btree_map("[a-z]{1,6}", inner, 0..5)
            .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
    ]
}

proptest! {
    /// For any JSON value v and prose p without braces or brackets,
    /// unwrap(p + fence(v) + p) == v.
    #[test]
    fn prose_and_fences_around_any_value(v in json_value(), p in "[a-zA-Z0-9 .,:;!?'\\n-]{0,60}", pretty in any::<bool>()) {
        let body = if pretty { serde_json::to_string_pretty(&v).unwrap() } else { serde_json::to_string(&v).unwrap() };
        let reply = format!("{p}\n```json\n{body}\n```\n{p}");
        let got = inertbox::unwrap::first_json(&reply).expect("found");
        prop_assert_eq!(serde_json::from_str::<serde_json::Value>(got).unwrap(), v);
    }
}
