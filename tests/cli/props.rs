//! Properties that must hold for every input (library level, so thousands of
//! cases run quickly).

use proptest::prelude::*;

use inertbox::{WrapOptions, check_bytes, wrap_bytes};

fn opts(source: &str) -> WrapOptions {
    WrapOptions { source: source.to_string(), timestamp: None }
}

/// Text that exercises the format: backticks, anchors, metadata look-alikes,
/// line separators, astral characters, CR.
fn tricky_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<String>(),
        Just("`".to_string()),
        Just("```".to_string()),
        Just("\n".to_string()),
        Just("\r\n".to_string()),
        Just("[INERTBOX v1 begin ".to_string()),
        Just("[INERTBOX v1 end ".to_string()),
        Just("]".to_string()),
        Just("source: x\nbytes: 1\n".to_string()),
        Just("😀\u{2028}\u{feff}".to_string()),
        "[0-9a-f]{1,8}",
    ];
    prop::collection::vec(piece, 0..20).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn check_of_wrap_verifies(text in tricky_text(), source in "[^\\x00-\\x1f\\x7f]{0,20}") {
        let doc = wrap_bytes(text.as_bytes(), &opts(&source)).unwrap().doc;
        let report = check_bytes(&doc);
        prop_assert!(report.ok, "{:?}", report);
        prop_assert_eq!(report.wrappers.len(), 1);
        prop_assert_eq!(report.wrappers[0].bytes, Some(text.len() as u64));
    }

    #[test]
    fn any_changed_content_byte_fails(text in tricky_text().prop_filter("non-empty", |t| !t.is_empty()), pick in any::<prop::sample::Index>(), to in any::<u8>()) {
        let wrapped = wrap_bytes(text.as_bytes(), &opts("p")).unwrap();
        let doc = wrapped.doc;
        // The content starts right after the opening fence line.
        let fence_line = format!("{}text\n", "`".repeat(wrapped.stamp.fence_len));
        let start = doc.windows(fence_line.len()).position(|w| w == fence_line.as_bytes()).unwrap() + fence_line.len();
        let i = start + pick.index(text.len());
        prop_assume!(doc[i] != to);
        let mut bad = doc.clone();
        bad[i] = to;
        prop_assert!(!check_bytes(&bad).ok);
    }

    #[test]
    fn check_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = check_bytes(&bytes);
    }

    #[test]
    fn check_never_panics_on_mangled_documents(text in tricky_text(), cut in any::<prop::sample::Index>(), insert in tricky_text()) {
        let doc = wrap_bytes(text.as_bytes(), &opts("m")).unwrap().doc;
        let at = cut.index(doc.len() + 1);
        let mut bad = doc[..at].to_vec();
        bad.extend_from_slice(insert.as_bytes());
        bad.extend_from_slice(&doc[at..]);
        let _ = check_bytes(&bad);
    }
}
