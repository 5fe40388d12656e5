use assert_cmd::Command;
use sha2::{Digest, Sha256};

pub fn inertbox() -> Command {
    let mut c = Command::cargo_bin("inertbox").expect("binary built");
    c.env_remove("NO_COLOR").env_remove("INERTBOX_MAX_BYTES");
    // No hook server of the user's (a test that wants one sets its own).
    c.env("XDG_STATE_HOME", std::env::temp_dir().join("inertbox-tests-no-state"));
    c
}

/// PATH with this build's `inertbox` first, for scripts the tests run as
/// a user would (a workflow step, README's lines).
pub fn path_with_inertbox() -> String {
    let bin = assert_cmd::cargo::cargo_bin("inertbox");
    format!("{}:{}", bin.parent().unwrap().display(), std::env::var("PATH").unwrap_or_default())
}

pub fn fixture(path: &str) -> String {
    format!("{}/fixtures/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// A reviewable rendering of exact bytes: the sha256 of the bytes first (so
/// the snapshot pins every byte, newlines included), then each line with
/// invisible characters escaped and `⏎` where an LF was.
pub fn escaped(bytes: &[u8]) -> String {
    let mut out = format!("sha256 of output: {}\n", hex::encode(Sha256::digest(bytes)));
    let text = String::from_utf8_lossy(bytes);
    let mut lines = text.split('\n').peekable();
    while let Some(line) = lines.next() {
        let shown: String = line
            .chars()
            .map(|c| match c {
                '\u{feff}' | '\u{200b}'..='\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{e0000}'..='\u{e007f}' => {
                    format!("\\u{{{:x}}}", c as u32)
                }
                c if c.is_control() => c.escape_debug().to_string(),
                c => c.to_string(),
            })
            .collect();
        out.push_str(&shown);
        if lines.peek().is_some() {
            out.push_str("⏎\n");
        }
    }
    out
}
