#![no_main]
//! The JSON-RPC reader answers every line with valid JSON (or nothing for a
//! notification) and never panics; so does the hook reader.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut out = Vec::new();
    inertbox::mcp::serve(inertbox::gate::Policy::default(), inertbox::input::DEFAULT_MAX_BYTES, data, &mut out)
        .expect("in-memory io");
    for line in out.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let v: serde_json::Value = serde_json::from_slice(line).expect("each reply is JSON");
        assert!(v.is_object() || v.is_array());
    }
    let dir = std::env::temp_dir().join(format!("inertbox-fuzz-{}", std::process::id()));
    let opts = inertbox::hook::Options {
        session: Some(dir.join("s.json")),
        event: Some("PreToolUse".into()),
        ..Default::default()
    };
    let _ = std::fs::create_dir_all(&dir);
    let _ = inertbox::hook::handle(data, &opts);
});
