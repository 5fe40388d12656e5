#![no_main]
//! Loading any bytes as any kind and scanning them never panics; findings
//! lie inside the input; the report serializes.

use inertbox::document::{Document, Kind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let kind = match data.first().map(|b| b % 4) {
        Some(0) => Kind::Text,
        Some(1) => Kind::Html,
        Some(2) => Kind::Email,
        _ => Kind::Auto,
    };
    let doc = Document::load(data.to_vec(), kind, "fuzz");
    let report = inertbox::detect::scan(&doc, &inertbox::detect::Options::default());
    for f in &report.findings {
        assert!(f.start <= f.end && f.end <= data.len().max(f.end.min(data.len())));
    }
    serde_json::to_string(&report).expect("report serializes");
    let _ = inertbox::fence::body(&doc, true);
});
