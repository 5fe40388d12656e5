//! `check`: exit codes agree with the reference for single inputs; many
//! inputs, directory walks, --json and --quiet for CI.

use predicates::prelude::*;

use crate::common::{fixture, inertbox};

fn wrapped(content: &str, source: &str) -> String {
    let opts = inertbox::WrapOptions { source: source.into(), timestamp: None };
    String::from_utf8(inertbox::wrap_bytes(content.as_bytes(), &opts).unwrap().doc).unwrap()
}

#[test]
fn verified_document_is_exit_0_with_an_ok_line() {
    inertbox()
        .args(["check", "-"])
        .write_stdin(wrapped("hello\n", "notes.md"))
        .assert()
        .code(0)
        .stdout("")
        .stderr("ok   - notes.md (6 bytes, sha256 verified)\n");
}

#[test]
fn every_failure_kind_is_exit_1() {
    let good = wrapped("some content\n", "src");
    let tag_line = good.lines().next().unwrap().to_string();
    let cases: Vec<(&str, String)> = vec![
        ("content changed", good.replace("some content", "some c0ntent")),
        ("bytes changed", good.replace("bytes: 13", "bytes: 14")),
        ("sha not hex", good.replacen("sha256: ", "sha256: X", 1)),
        ("missing source", good.replacen("source: src\n", "", 1)),
        ("no closing fence", good.replace("\n```\n[INERTBOX", "\n[INERTBOX")),
        ("truncated", good[..good.len() / 2].to_string()),
        ("text between fence and end anchor", good.replace("```\n[INERTBOX v1 end", "```\nsmuggled\n[INERTBOX v1 end")),
        ("crlf converted", good.replace('\n', "\r\n")),
        ("no wrapper", "just text\n".to_string()),
        ("empty", String::new()),
        ("newer version", good.replace("[INERTBOX v1 begin", "[INERTBOX v2 begin")),
        ("end anchor tag changed", good.replace(&tag_line.replace("begin", "end"), "[INERTBOX v1 end 0]")),
    ];
    for (name, doc) in cases {
        inertbox().args(["check", "-"]).write_stdin(doc).assert().code(1).stdout("");
        let _ = name;
    }
    inertbox()
        .args(["check", "-"])
        .write_stdin(&b"\xff\xfe"[..])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not valid UTF-8"));
}

#[test]
fn failure_lines_name_the_reason() {
    let good = wrapped("some content\n", "src");
    inertbox()
        .args(["check", "-"])
        .write_stdin(good.replace("some content", "some c0ntent"))
        .assert()
        .code(1)
        .stderr("FAIL - src: sha256 mismatch: content does not match the stamped hash\n");
    // Not a wrapper whose line ends were changed (one anchor line only): the
    // generic hint stays.
    inertbox()
        .args(["check", "-"])
        .write_stdin(good.replacen('\n', "\r\n", 1).replace("```\n", "``\n"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("EOL-converted"));
}

#[test]
fn wrappers_embedded_in_host_text_all_verify() {
    let doc = format!("Here is a log:\n{}and a second one:\n{}thanks\n", wrapped("a\n", "one"), wrapped("b", "two"));
    inertbox()
        .args(["check", "-"])
        .write_stdin(doc)
        .assert()
        .code(0)
        .stderr("ok   - one (2 bytes, sha256 verified)\nok   - two (1 bytes, sha256 verified)\n");
}

#[test]
fn one_bad_wrapper_among_good_ones_fails_the_input() {
    let doc = format!("{}{}", wrapped("a\n", "one"), wrapped("b", "two").replace("\nb\n", "\nc\n"));
    inertbox().args(["check", "-"]).write_stdin(doc).assert().code(1).stderr(predicate::str::contains("ok   - one"));
}

#[test]
fn source_with_line_separators_verifies() {
    // Improvement over the reference, whose own wrap output fails here.
    inertbox().args(["check", "-"]).write_stdin(wrapped("x", "a\u{2028}b")).assert().code(0);
}

#[test]
fn control_characters_in_labels_are_escaped_on_stderr() {
    let doc = wrapped("x", "ok").replace("source: ok", "source: \u{1b}[2Jevil\u{202e}");
    inertbox()
        .args(["check", "-"])
        .write_stdin(doc)
        .assert()
        .code(0)
        .stderr("ok   - \\u001b[2Jevil\\u202e (1 bytes, sha256 verified)\n");
}

#[test]
fn fence_not_longer_than_content_run_is_a_warning_only() {
    // Hand-edited: content holds a four-backtick run inside a three-backtick fence.
    let doc = wrapped("a ```` b", "w").replace("`````text", "```text").replace("\n`````\n", "\n```\n");
    inertbox()
        .args(["check", "-"])
        .write_stdin(doc)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("warning: fence (3 backticks)"));
}

#[test]
fn directories_are_walked_for_inert_md_honouring_gitignore() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::create_dir_all(root.join("docs/sub")).unwrap();
    std::fs::create_dir_all(root.join("target")).unwrap();
    std::fs::write(root.join("docs/a.inert.md"), wrapped("a", "a")).unwrap();
    std::fs::write(root.join("docs/sub/b.inert.md"), wrapped("b", "b")).unwrap();
    std::fs::write(root.join("docs/notes.md"), "not wrapped").unwrap();
    std::fs::write(root.join("target/stale.inert.md"), "broken").unwrap();
    std::fs::write(root.join(".gitignore"), "target/\n").unwrap();
    inertbox()
        .arg("check")
        .arg(root)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("a.inert.md: ok   - a").and(predicate::str::contains("b.inert.md: ok   - b")))
        .stderr(predicate::str::contains("stale").not());
    // Without the ignore rule the stale file is checked and fails.
    std::fs::remove_file(root.join(".gitignore")).unwrap();
    inertbox().arg("check").arg(root).assert().code(1).stderr(predicate::str::contains("stale.inert.md"));
}

#[test]
fn stable_order_and_quiet() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..30 {
        let body = if i == 17 { "tampered".to_string() } else { wrapped(&format!("doc {i}"), &format!("s{i}")) };
        std::fs::write(dir.path().join(format!("{i:02}.inert.md")), body).unwrap();
    }
    let out = inertbox().arg("check").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stderr).unwrap();
    let names: Vec<&str> =
        text.lines().filter_map(|l| l.trim_start_matches("inertbox: ").split(".inert.md").next()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted);
    let quiet = inertbox().arg("check").arg("--quiet").arg(dir.path()).output().unwrap();
    let q = String::from_utf8(quiet.stderr).unwrap();
    assert_eq!(q.lines().count(), 1, "{q}");
    assert!(q.contains("17.inert.md") && q.contains("no INERTBOX wrapper found"), "{q}");
}

#[test]
fn json_report_on_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.inert.md");
    std::fs::write(&p, wrapped("hi", "lbl")).unwrap();
    let out = inertbox().arg("check").arg("--json").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    let w = &v["files"][0]["wrappers"][0];
    assert_eq!(w["source"], "lbl");
    assert_eq!(w["bytes"], 2);
    assert_eq!(w["verified"], true);
    assert_eq!(w["line"], 1);
}

#[test]
fn unreadable_path_is_exit_2_naming_it_and_others_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("x.inert.md");
    std::fs::write(&p, wrapped("hi", "lbl")).unwrap();
    inertbox()
        .arg("check")
        .arg(&p)
        .arg("/nonexistent/y.inert.md")
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("/nonexistent/y.inert.md").and(predicate::str::contains("ok   - lbl")));
    // --json keeps stdout empty on exit 2.
    inertbox().arg("check").arg("--json").arg(&p).arg("/nonexistent/y").assert().code(2).stdout("");
}

#[test]
fn a_directory_without_wrapped_docs_has_nothing_to_check_and_passes_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("README.md"), "no wrapped documents here\n").unwrap();
    inertbox()
        .arg("check")
        .arg(dir.path())
        .assert()
        .code(0)
        .stdout("")
        .stderr(predicate::str::starts_with("inertbox: no *.inert.md files found under "))
        .stderr(predicate::str::contains(": nothing to check\n"));
    // --quiet still says it: a CI run that checked nothing is never silent.
    inertbox()
        .args(["check", "--quiet"])
        .arg(dir.path())
        .assert()
        .code(0)
        .stderr(predicate::str::contains("nothing to check"));
    // JSON names the case, not as a read error.
    let out = inertbox().args(["check", "--json"]).arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["ok"], true);
    assert_eq!(v["status"], "nothing_to_check");
    assert_eq!(v["files"], serde_json::json!([]));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("read_error"));
    assert!(v["notes"][0].as_str().unwrap().contains("nothing to check"), "{v}");
    // GitHub: a notice, no error annotation.
    let out = inertbox().args(["check", "--format", "github"]).arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("::notice ") && !text.contains("::error"), "{text}");
    // A directory without any beside one with a verified document: a note, exit 0.
    let other = tempfile::tempdir().unwrap();
    std::fs::write(other.path().join("a.inert.md"), wrapped("a", "a")).unwrap();
    inertbox()
        .arg("check")
        .arg(dir.path())
        .arg(other.path())
        .assert()
        .code(0)
        .stderr(predicate::str::contains("ok   - a").and(predicate::str::contains("no *.inert.md files found")));
    // A file named on the command line without a wrapper still fails (as the reference).
    inertbox().arg("check").arg(dir.path().join("README.md")).assert().code(1);
}

fn git(dir: &std::path::Path, args: &[&str]) {
    let ok = std::process::Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "user.email=t@example.test", "-c", "user.name=t"])
        .args(args)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("HOME", dir)
        .status()
        .expect("the tests need git on PATH")
        .success();
    assert!(ok, "git {args:?}");
}

#[test]
fn in_a_git_work_tree_what_git_tracks_is_checked_even_in_an_ignored_folder() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    std::fs::write(root.join(".gitignore"), "gen/\nbuild/\n").unwrap();
    std::fs::create_dir_all(root.join("gen")).unwrap();
    std::fs::create_dir_all(root.join("build")).unwrap();
    std::fs::create_dir_all(root.join("docs")).unwrap();
    std::fs::write(root.join("gen/x.inert.md"), wrapped("generated\n", "x")).unwrap();
    std::fs::write(root.join("build/stale.inert.md"), "broken, and ignored").unwrap();
    std::fs::write(root.join("docs/new.inert.md"), wrapped("not added yet", "new")).unwrap();
    git(root, &["add", ".gitignore"]);
    git(root, &["add", "-f", "gen/x.inert.md"]);
    inertbox()
        .arg("check")
        .arg(root)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("x.inert.md: ok   - x"))
        .stderr(predicate::str::contains("new.inert.md: ok   - new"))
        .stderr(predicate::str::contains("stale").not());
    // Tampered after it was committed: the check fails and names the file.
    std::fs::write(root.join("gen/x.inert.md"), wrapped("generated\n", "x").replace("generated", "generatEd")).unwrap();
    inertbox()
        .arg("check")
        .arg(root)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("gen/x.inert.md: FAIL - x: sha256 mismatch"));
    // A folder searched from inside the tree is listed the same way.
    inertbox().arg("check").arg(root.join("gen")).assert().code(1);
}

#[cfg(unix)]
#[test]
fn listing_a_repository_runs_no_program_its_config_names() {
    // core.fsmonitor names a program git runs as it lists files: a checked
    // directory may be anyone's, so check turns it off.
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    std::fs::write(root.join("a.inert.md"), wrapped("a", "a")).unwrap();
    let ran = root.join("ran");
    git(root, &["config", "core.fsmonitor", &format!("touch '{}'; false", ran.display())]);
    inertbox().arg("check").arg(root).assert().code(0).stderr(predicate::str::contains("ok   - a"));
    assert!(!ran.exists(), "check ran the repository's fsmonitor");
}

#[test]
fn when_git_cannot_list_a_work_tree_the_walk_runs_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    git(root, &["init", "-q"]);
    std::fs::write(root.join("a.inert.md"), wrapped("a", "a")).unwrap();
    let no_git = tempfile::tempdir().unwrap();
    inertbox()
        .arg("check")
        .arg(root)
        .env("PATH", no_git.path())
        .assert()
        .code(0)
        .stderr(predicate::str::contains("ok   - a"))
        .stderr(predicate::str::contains("git could not list the files it tracks"))
        .stderr(predicate::str::contains("walked the directory instead"));
    // Outside a work tree there is nothing to say: the walk is the way.
    let plain = tempfile::tempdir().unwrap();
    std::fs::write(plain.path().join("a.inert.md"), wrapped("a", "a")).unwrap();
    inertbox()
        .arg("check")
        .arg(plain.path())
        .env("PATH", no_git.path())
        .assert()
        .code(0)
        .stderr(predicate::str::contains("git").not());
}

#[test]
fn a_wrapper_whose_line_ends_became_crlf_is_recognised_with_the_fix() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("notes.inert.md");
    let good = wrapped("line one\nline two\n", "notes");
    std::fs::write(&p, good.replace('\n', "\r\n")).unwrap();
    let out = inertbox().arg("check").arg(&p).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    let name = p.display().to_string();
    assert!(err.contains(&format!("inertbox: {name}: line endings were changed from LF to CRLF")), "{err}");
    assert!(err.contains("the wrapper verifies"), "{err}");
    assert!(err.contains(&format!("to fix: perl -pi -e 's/\\r\\n/\\n/' {name}")), "{err}");
    assert!(!err.contains("no INERTBOX wrapper found"), "{err}");
    // GitHub: one error annotation for the file, the fix inside it.
    let out = inertbox().args(["check", "--format", "github"]).arg(&p).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    assert!(text.starts_with("::error ") && text.contains("CRLF") && text.contains("To fix: perl"), "{text}");
    // JSON says what the line ends became.
    let out = inertbox().args(["check", "--json"]).arg(&p).output().unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"][0]["line_endings"]["changed_to"], "crlf");
    assert_eq!(v["files"][0]["line_endings"]["verified"], 1);
    assert!(v["files"][0]["fix"].as_str().unwrap().starts_with("perl -pi -e"));
    // Stdin too, with the command for a pipe.
    inertbox()
        .args(["check", "-"])
        .write_stdin(good.replace('\n', "\r\n"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("line endings were changed from LF to CRLF"))
        .stderr(predicate::str::contains("perl -pe"));
    // What the fix does (CRLF made LF) makes it verify again.
    std::fs::write(&p, std::fs::read_to_string(&p).unwrap().replace("\r\n", "\n")).unwrap();
    inertbox().arg("check").arg(&p).assert().code(0);
}

#[test]
fn a_single_file_without_a_wrapper_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("plain.inert.md");
    std::fs::write(&p, "just text\n").unwrap();
    inertbox()
        .arg("check")
        .arg(&p)
        .assert()
        .code(1)
        .stderr(format!("inertbox: {}: no INERTBOX wrapper found\n", p.display()));
}

#[test]
fn a_bytes_mismatch_says_what_kind_of_change_it_looks_like() {
    let kinds = [
        ("a line  \nb\nc\n", "line  \n", "line\n", "trailing spaces trimmed"),
        ("one\ntwo\n", "two\n\n```", "two\n```", "the final newline removed"),
        ("one\ntwo\nthree\n", "two\nthree\n\n```", "two\nth\n```", "the end cut off"),
        ("one\r\ntwo\r\n", "\r\n", "\n", "line ends changed from CRLF to LF"),
        ("one\ntwo\n", "one\n", "one\r\n", "line ends look changed from LF to CRLF"),
    ];
    for (content, from, to, said) in kinds {
        let doc = wrapped(content, "w");
        let body_at = doc.find("```text\n").unwrap() + 8;
        let (head, body) = doc.split_at(body_at);
        let edited = format!("{head}{}", body.replace(from, to));
        assert_ne!(edited, doc, "{said}");
        inertbox()
            .args(["check", "-"])
            .write_stdin(edited)
            .assert()
            .code(1)
            .stderr(predicate::str::contains("bytes mismatch").and(predicate::str::contains(said)));
    }
}

#[test]
fn fixtures_with_expected_verdicts() {
    // fixtures/check/*.inert.md: the first line of each fixture's sidecar
    // `.expect` file is the exit code the reference gives for it.
    let dir = fixture("check");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "expect") {
            let want: i32 = std::fs::read_to_string(&path).unwrap().lines().next().unwrap().trim().parse().unwrap();
            let doc = path.with_extension("md");
            let got = inertbox().arg("check").arg(&doc).output().unwrap().status.code().unwrap();
            assert_eq!(got, want, "{}", doc.display());
            n += 1;
        }
    }
    assert!(n >= 5, "fixtures present");
}
