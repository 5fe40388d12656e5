#![no_main]
//! The session file reader is total: any text is read or refused, never a
//! panic; what it reads decides calls, takes new records and reads back
//! to the same ledger. Adding through an `Appender` (which reads only the
//! file's tail) leaves what adding to the whole file leaves. Deciding in a
//! file as it is read (`decide_in`) decides as the whole file read does,
//! and fails with its error.

use inertbox::detect::Verdict;
use inertbox::gate::{History, Journal, Recorder};
use inertbox::session::{Appender, SessionFile};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let policy = inertbox::gate::Policy::default();
    let send = inertbox::gate::parse_call(r#"{"tool":"send_email","args":{"to":"a@b.test","cc":"me@home.test"}}"#)
        .expect("a fixed call parses");
    let raw = std::env::temp_dir().join(format!("inertbox-fuzz-session-raw-{}", std::process::id()));
    std::fs::write(&raw, data).expect("temp file");
    let streamed = inertbox::session::decide_in(&raw, &send, &policy);
    let whole = SessionFile::open(&raw).map(|s| inertbox::gate::decide(&send, &s, &policy));
    match (streamed, whole) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        (a, b) => panic!("read as it streams: {a:?}; read whole: {b:?}"),
    }
    let _ = std::fs::remove_file(&raw);

    let text = String::from_utf8_lossy(data).into_owned();
    let Ok(mut s) = SessionFile::from_text(text.clone()) else { return };
    let _ = (s.any_read(), s.injected());
    let call =
        inertbox::gate::parse_call(r#"{"tool":"send_email","args":{"to":"a@b.test","url":"https://b.test/?q=1"}}"#)
            .expect("a fixed call parses");
    let _ = inertbox::gate::decide(&call, &s, &inertbox::gate::Policy::default());
    s.add_read("fuzz", Verdict::Block, Vec::new(), vec!["x\t@y.test".into()]);
    let added = s.ledger();
    s.forget("r1");
    let before = s.ledger();
    let again = SessionFile::from_text(s.text().to_string()).expect("what was written reads back");
    assert_eq!(again.ledger(), before);

    let path = std::env::temp_dir().join(format!("inertbox-fuzz-session-{}", std::process::id()));
    std::fs::write(&path, &text).expect("temp file");
    let mut a = Appender::open(&path).expect("a file that reads whole opens to append");
    a.add_read("fuzz", Verdict::Block, Vec::new(), vec!["x\t@y.test".into()]);
    a.commit().expect("append");
    drop(a);
    let on_disk = SessionFile::open(&path).expect("an appended file reads back");
    assert_eq!(on_disk.ledger(), added);
});
