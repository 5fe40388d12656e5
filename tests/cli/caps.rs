//! One size cap for every front end: `INERTBOX_MAX_BYTES` (or
//! `--max-bytes`) is obeyed by the commands, `serve`, `mcp` and the hooks,
//! each in its own protocol's way; none ignores it.

use serde_json::{Value, json};

use crate::common::inertbox;

const CAP: &str = "64";

fn over() -> String {
    "All quiet on this line, nothing to see.\n".repeat(4)
}

#[test]
fn the_commands_refuse_content_over_the_cap_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("big.txt");
    std::fs::write(&f, over()).unwrap();
    for args in [vec!["scan"], vec!["fence"], vec!["unwrap"]] {
        let out = inertbox().env("INERTBOX_MAX_BYTES", CAP).args(&args).arg(&f).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("64"), "{args:?}: the cap is named");
    }
    let out = inertbox()
        .env("INERTBOX_MAX_BYTES", CAP)
        .args(["gate", "--call", r#"{"tool":"read_file","args":{}}"#])
        .arg(&f)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // wrap streams any size; its advisory scan obeys the cap.
    let out = inertbox().env("INERTBOX_MAX_BYTES", CAP).args(["wrap", "--scan"]).arg(&f).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("skipped"));
    let out =
        inertbox().env("INERTBOX_MAX_BYTES", CAP).args(["wrap", "--scan", "-"]).write_stdin(over()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("skipped"));
}

#[test]
fn serve_and_mcp_answer_an_error() {
    let req = json!({"id": 1, "op": "scan", "content": over()});
    let out = inertbox()
        .env("INERTBOX_MAX_BYTES", CAP)
        .args(["serve", "--ndjson"])
        .write_stdin(format!("{req}\n"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], false);
    assert!(v["error"].as_str().unwrap().contains("64-byte limit"), "{v}");

    let call = json!({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"scan_content","arguments":{"content": over()}}});
    let out = inertbox().env("INERTBOX_MAX_BYTES", CAP).arg("mcp").write_stdin(format!("{call}\n")).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["result"]["isError"], true, "{v}");
    assert!(v["result"]["content"][0]["text"].as_str().unwrap().contains("64-byte limit"), "{v}");
}

#[test]
fn a_hook_scans_up_to_the_cap_and_counts_the_rest_as_unread() {
    let dir = tempfile::tempdir().unwrap();
    let session = dir.path().join("s.session");
    let event = json!({"session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Bash",
        "tool_input": {"command": "cat notes.txt"}, "tool_response": {"stdout": over(), "stderr": ""}});
    let out = inertbox()
        .env("INERTBOX_MAX_BYTES", CAP)
        .args(["hook", "claude", "--session"])
        .arg(&session)
        .write_stdin(event.to_string())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let answer = String::from_utf8(out.stdout).unwrap();
    assert!(answer.contains("read only the first 64"), "{answer}");
    let recorded = std::fs::read_to_string(&session).unwrap();
    assert!(recorded.lines().any(|l| l.starts_with("r\t") && l.contains("\treview\t")), "{recorded}");
    // Under the default cap the same output is clean.
    let out = inertbox()
        .env("XDG_STATE_HOME", dir.path())
        .args(["hook", "claude", "--no-server"])
        .write_stdin(event.to_string())
        .output()
        .unwrap();
    assert!(!String::from_utf8(out.stdout).unwrap().contains("read only the first"));
}
