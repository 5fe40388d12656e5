#![no_main]
//! wrap then check verifies for every valid UTF-8 input; wrap refuses
//! everything else without panicking.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let opts = inertbox::WrapOptions { source: "fuzz".into(), timestamp: None };
    match inertbox::wrap_bytes(data, &opts) {
        Ok(w) => {
            assert!(std::str::from_utf8(data).is_ok());
            let report = inertbox::check_bytes(&w.doc);
            assert!(report.ok, "{report:?}");
            assert_eq!(report.wrappers.len(), 1);
        }
        Err(_) => assert!(std::str::from_utf8(data).is_err()),
    }
});
