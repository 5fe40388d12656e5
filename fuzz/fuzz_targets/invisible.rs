#![no_main]
//! find and strip never panic on any text; runs are well formed; strip is
//! idempotent.

use inertbox::load::strip;
use inertbox::testing::invisible::find;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut at = 0;
    for run in find(&text) {
        assert!(at <= run.range.start && run.range.start < run.range.end && run.range.end <= text.len());
        assert!(text.is_char_boundary(run.range.start) && text.is_char_boundary(run.range.end));
        at = run.range.end;
    }
    let once = strip(&text);
    assert_eq!(strip(&once), once);
});
