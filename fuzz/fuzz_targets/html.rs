#![no_main]
//! The html renderer never panics on any bytes, and its spans always
//! partition its text with raw ranges inside the input.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let base = 11;
    let out = inertbox::testing::html::render(data, base);
    let mut at = 0;
    for span in &out.spans {
        assert_eq!(span.range.start, at, "spans must be contiguous");
        assert!(span.range.end > span.range.start, "empty span");
        assert!(out.text.is_char_boundary(span.range.start));
        assert!(out.text.is_char_boundary(span.range.end));
        if let Some(raw) = &span.raw {
            assert!(raw.start >= base && raw.start <= raw.end && raw.end <= base + data.len());
        }
        at = span.range.end;
    }
    assert_eq!(at, out.text.len());
    let _ = inertbox::testing::html::looks_like_html(data);
});
