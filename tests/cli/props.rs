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

fn any_kind() -> impl Strategy<Value = inertbox::document::Kind> {
    use inertbox::document::Kind;
    prop_oneof![Just(Kind::Auto), Just(Kind::Text), Just(Kind::Html), Just(Kind::Email)]
}

fn markup_or_mail() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        any::<String>(),
        Just("<div style=\"display:none\">".to_string()),
        Just("</div><!-- x -->".to_string()),
        Just("From: a@b.test\r\nSubject: =?UTF-8?B?SGk=?=\r\nContent-Type: multipart/alternative; boundary=b\r\n\r\n--b\r\n".to_string()),
        Just("\u{e0041}\u{200b}\u{202e}\u{1b}[8m".to_string()),
        Just("&#x49;gnore <p>".to_string()),
    ];
    prop::collection::vec(piece, 0..16).prop_map(|v| v.concat().into_bytes())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Loading never panics; every part's spans cover its text in order, on
    /// char boundaries; raw ranges lie inside the input.
    #[test]
    fn loading_is_total_and_spans_lie_inside_their_part(bytes in markup_or_mail(), kind in any_kind()) {
        let len = bytes.len();
        let doc = inertbox::Document::load(bytes, kind, "p");
        for part in &doc.parts {
            let mut at = 0;
            for s in &part.spans {
                prop_assert_eq!(s.range.start, at);
                prop_assert!(s.range.end > s.range.start);
                prop_assert!(part.text.is_char_boundary(s.range.start) && part.text.is_char_boundary(s.range.end));
                if let Some(r) = &s.raw {
                    prop_assert!(r.start <= r.end && r.end <= len);
                }
                at = s.range.end;
            }
            prop_assert_eq!(at, part.text.len());
        }
    }

    /// Stripping is idempotent, and cleaning twice changes nothing more.
    #[test]
    fn stripping_is_idempotent(text in "\\PC{0,40}", extra in prop::collection::vec(prop_oneof![Just('\u{200b}'), Just('\u{e0041}'), Just('\u{1b}'), Just('\u{202e}'), Just('\u{ad}')], 0..8)) {
        let mixed: String = text.chars().zip(extra.iter().cycle()).flat_map(|(a, b)| [a, *b]).collect();
        let once = inertbox::load::strip(&mixed);
        prop_assert_eq!(inertbox::load::strip(&once), once.clone());
        let cleaned = inertbox::load::clean(&mixed).unwrap_or(mixed.clone());
        prop_assert_eq!(inertbox::load::clean(&cleaned), None);
    }
}
