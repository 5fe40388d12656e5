#![no_main]
//! The session file reader is total: any text is read or refused, never a
//! panic; what it reads decides calls, takes new records and reads back
//! to the same ledger.

use inertbox::gate::{History, Journal, Recorder};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).into_owned();
    let Ok(mut s) = inertbox::session::SessionFile::from_text(text) else { return };
    let _ = (s.any_read(), s.injected());
    let call = inertbox::gate::parse_call(r#"{"tool":"send_email","args":{"to":"a@b.test","url":"https://b.test/?q=1"}}"#)
        .expect("a fixed call parses");
    let _ = inertbox::gate::decide(&call, &s, &inertbox::gate::Policy::default());
    s.add_read("fuzz", inertbox::detect::Verdict::Block, Vec::new(), vec!["x\t@y.test".into()]);
    s.forget("r1");
    let before = s.ledger();
    let again = inertbox::session::SessionFile::from_text(s.text().to_string()).expect("what was written reads back");
    assert_eq!(again.ledger(), before);
});
