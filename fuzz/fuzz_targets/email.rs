#![no_main]
//! The email loader never panics on any bytes, and what it returns is
//! consistent: every body's raw range lies inside the input, plain_only
//! ranges lie inside the plain text on char boundaries, the budgets hold.

use inertbox::testing::email::{self, BodyKind, MAX_TEXT_BYTES};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = email::looks_like_email(data);
    let parsed = email::parse(data);
    let mut total = 0;
    for body in &parsed.bodies {
        total += body.text.len();
        if let Some(r) = &body.raw {
            assert!(r.start <= r.end && r.end <= data.len(), "{} {r:?} of {}", body.location, data.len());
        }
    }
    assert!(total <= MAX_TEXT_BYTES);
    // Compare each alternative group's plain and HTML text the way the
    // loader does (the HTML text as written stands in for its visible text).
    for plain in parsed.bodies.iter().filter(|b| b.kind == BodyKind::Plain && b.alternative.is_some()) {
        for html in parsed.bodies.iter().filter(|b| b.kind == BodyKind::Html && b.alternative == plain.alternative) {
            for r in email::plain_only(&plain.text, &html.text) {
                assert!(r.start <= r.end && r.end <= plain.text.len());
                assert!(plain.text.is_char_boundary(r.start) && plain.text.is_char_boundary(r.end));
            }
        }
    }
    let text = String::from_utf8_lossy(data);
    for (name, _) in email::calendar_fields(&text) {
        assert!(!name.is_empty());
    }
    let half = text.len() / 2;
    let cut = (0..=half).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
    for r in email::plain_only(&text[..cut], &text[cut..]) {
        assert!(text[..cut].is_char_boundary(r.start) && text[..cut].is_char_boundary(r.end));
    }
});
