#![no_main]
//! The call and policy parsers are total, and deciding any parsed call
//! against any parsed policy never panics.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut mid = text.len() / 2;
    while !text.is_char_boundary(mid) {
        mid -= 1;
    }
    let (a, b) = text.split_at(mid);
    let policy = inertbox::gate::Policy::from_json(a, "fuzz").unwrap_or_default();
    if let Ok(call) = inertbox::gate::parse_call(b) {
        let mut ledger = inertbox::gate::Ledger::default();
        ledger.add_read("fuzz", inertbox::detect::Verdict::Block, Vec::new(), vec!["x@y.test".into()]);
        ledger.trust_text(a);
        let _ = inertbox::gate::decide(&call, &ledger, &policy);
    }
    if let Ok(call) = inertbox::gate::parse_call(&text) {
        let _ = inertbox::gate::decide(&call, &inertbox::gate::Ledger::default(), &policy);
    }
    // Any text as a name, a body, SQL for a reading tool and a header, after
    // the same text was typed: every reader of arguments and of typed text.
    let mut ledger = inertbox::gate::Ledger::default();
    ledger.trust_text(b);
    ledger.add_read("fuzz", inertbox::detect::Verdict::Allow, Vec::new(), Vec::new());
    for tool in ["send_email", "mcp__db__query", "web_fetch"] {
        let args = serde_json::json!({"to": a, "body": b, "sql": text, "headers": {a: b}, "recipients": [{"text": b}]});
        let call = inertbox::gate::Call::new(tool.into(), args);
        let _ = inertbox::gate::decide(&call, &ledger, &inertbox::gate::Policy::default());
    }
    // Any text typed (its sums and the paths it asks to delete) and any
    // text read (a JSON answer's handles), then calls that use them.
    if let Ok(mut g) = inertbox::Guard::new(inertbox::gate::Policy::default()) {
        g.trust(a);
        let _ = g.ingest(b.as_bytes(), "fuzz");
        for (tool, args) in [
            ("transfer", serde_json::json!({"amount": a, "currency": b, "quantity": b, "to_iban": a})),
            ("deleteFile", serde_json::json!({"path": b, "recursive": true})),
            ("forward_email", serde_json::json!({"email_id": b, "to": a})),
            ("copy_file", serde_json::json!({"file_id": a, "parent": {"id": b}})),
            ("share_file", serde_json::json!({"file_id": b, "email": a, "role": b})),
        ] {
            let _ = g.check(&inertbox::gate::Call::new(tool.into(), args));
        }
    }
});
