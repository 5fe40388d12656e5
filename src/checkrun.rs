//! `check` over many inputs: paths, directories (in a git work tree what
//! git tracks or would add; elsewhere a walk honouring .gitignore) searched
//! for `*.inert.md`, stdin; verified in parallel, reported in a stable order
//! as stderr lines, one JSON report or GitHub annotations.

use std::ffi::OsString;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::process::Command;

use rayon::prelude::*;
use serde::Serialize;

use crate::escape::terminal_safe;
use crate::format::{CheckReport, check_reader, explain_crlf};
use crate::input::{Input, ReadError};

/// The file-name suffix a directory search collects.
pub const WRAPPED_SUFFIX: &str = ".inert.md";
/// Stdin is kept up to this many bytes while it is checked, so a wrapper
/// whose line ends became CRLF can be looked at again with LF restored
/// (a file is opened again instead). Past it only the generic hint is given.
const STDIN_KEPT: u64 = crate::input::DEFAULT_MAX_BYTES;
/// The command that makes a file's CRLF line ends LF again, in place: perl
/// is on Linux, macOS and Git for Windows alike (sed -i differs, dos2unix is
/// often missing).
const CRLF_TO_LF: &str = "perl -pi -e 's/\\r\\n/\\n/'";

/// One thing to verify, named as the user will see it.
#[derive(Debug, Clone)]
pub struct Target {
    pub input: Input,
    pub name: String,
    /// Found by searching a directory (its lines always name it).
    pub searched: bool,
}

/// A path that yielded nothing to verify, or was searched another way than
/// asked.
#[derive(Debug)]
pub enum TargetProblem {
    /// Does not exist or cannot be listed: exit 2.
    Unreadable { name: String, cause: String },
    /// A directory with no `*.inert.md` in it: a note, not a failure (a
    /// repository may hold none yet).
    Empty { name: String },
    /// In a git work tree, but git could not list the files: the directory
    /// was walked instead (files git tracks in ignored folders are not
    /// seen). A note on stderr, not a failure.
    GitFailed { name: String, cause: String },
}

impl TargetProblem {
    /// The note or error as one line (without the `inertbox: ` prefix).
    fn message(&self) -> String {
        match self {
            TargetProblem::Unreadable { name, cause } => format!("cannot read {name:?}: {cause}"),
            TargetProblem::Empty { name } => format!("{name}: no *{WRAPPED_SUFFIX} files found"),
            TargetProblem::GitFailed { name, cause } => format!(
                "{name}: git could not list the files it tracks ({cause}); walked the directory instead, \
                 so *{WRAPPED_SUFFIX} files in folders .gitignore names were not checked"
            ),
        }
    }
}

/// Expand the arguments into targets: no argument or `-` is stdin (once),
/// a directory is searched, anything else is a file.
pub fn collect_targets(args: &[OsString]) -> (Vec<Target>, Vec<TargetProblem>) {
    let mut targets = Vec::new();
    let mut problems = Vec::new();
    if args.is_empty() {
        targets.push(Target { input: Input::Stdin, name: "-".into(), searched: false });
    }
    let mut stdin_taken = false;
    for arg in args {
        let input = Input::from_arg(Some(arg));
        match &input {
            Input::Stdin => {
                if !stdin_taken {
                    stdin_taken = true;
                    targets.push(Target { input, name: "-".into(), searched: false });
                }
            }
            Input::Path(p) if p.is_dir() => {
                let name = input.label();
                let found = match git_files(p) {
                    Some(Ok(found)) => Ok(found),
                    Some(Err(cause)) => {
                        problems.push(TargetProblem::GitFailed { name: name.clone(), cause });
                        walk(p)
                    }
                    None => walk(p),
                };
                match found {
                    Ok(found) if found.is_empty() => problems.push(TargetProblem::Empty { name }),
                    Ok(found) => targets.extend(found.into_iter().map(|p| {
                        let input = Input::Path(p);
                        Target { name: input.label(), input, searched: true }
                    })),
                    Err(cause) => problems.push(TargetProblem::Unreadable { name, cause }),
                }
            }
            Input::Path(_) => targets.push(Target { name: input.label(), input, searched: false }),
        }
    }
    (targets, problems)
}

/// In a git work tree, the `*.inert.md` files under `dir` that git tracks,
/// and those not yet added that .gitignore does not exclude: a wrapped
/// document force-added in an ignored folder is checked. None outside a
/// work tree; an error when git is missing or fails inside one. A nested
/// repository or submodule is listed the same way, by its own git.
fn git_files(dir: &Path) -> Option<Result<Vec<PathBuf>, String>> {
    let top = std::fs::canonicalize(dir).ok()?;
    // Inside a work tree: a `.git` (a directory, or a file for a worktree or
    // submodule) here or in a folder above. Asking git itself would not tell
    // "no work tree" from "git is missing".
    top.ancestors().find(|a| a.join(".git").exists())?;
    Some(git_list(dir, 0))
}

/// Nested repositories deeper than this are not followed (a loop of links).
const MAX_NESTED_REPOS: usize = 16;

fn git_list(dir: &Path, depth: usize) -> Result<Vec<PathBuf>, String> {
    // A repository's own config may name a program for git to run while
    // it lists files (core.fsmonitor): the directory checked may be anyone's.
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(["-c", "core.fsmonitor=false", "ls-files", "-z", "--cached", "--others", "--exclude-standard"])
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run git: {e}"))?;
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stderr);
        let first = said.lines().find(|l| !l.trim().is_empty()).unwrap_or("no message");
        return Err(format!("git ls-files: {}: {}", out.status, first.trim()));
    }
    let mut found = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for rel in out.stdout.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let path = dir.join(os_path(rel.strip_suffix(b"/").unwrap_or(rel)));
        // A path git lists once as staged and once as changed, or twice for a merge conflict.
        if !seen.insert(path.clone()) {
            continue;
        }
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() && depth < MAX_NESTED_REPOS => found.extend(git_list(&path, depth + 1)?),
            Ok(m) if m.is_dir() => return Err(format!("{}: repositories nested too deep", path.display())),
            Ok(m) if m.is_file() && rel.ends_with(WRAPPED_SUFFIX.as_bytes()) => found.push(path),
            // Tracked but deleted from the work tree: nothing there to check.
            _ => {}
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(unix)]
fn os_path(b: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt as _;
    PathBuf::from(std::ffi::OsStr::from_bytes(b))
}

#[cfg(not(unix))]
fn os_path(b: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(b).into_owned())
}

fn walk(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut found: Vec<PathBuf> = Vec::new();
    let walker = ignore::WalkBuilder::new(dir)
        .hidden(false)
        .require_git(false)
        .filter_entry(|e| e.file_name() != ".git")
        .build();
    for entry in walker {
        let entry = entry.map_err(|e| e.to_string())?;
        let is_file = entry.file_type().is_some_and(|t| t.is_file());
        if is_file && entry.file_name().to_string_lossy().ends_with(WRAPPED_SUFFIX) {
            found.push(entry.into_path());
        }
    }
    found.sort();
    Ok(found)
}

/// The outcome for one target.
#[derive(Debug)]
pub struct Checked {
    pub target: Target,
    pub result: Result<CheckReport, ReadError>,
}

/// Verify every target; files in parallel, results in the targets' order.
pub fn check_targets(targets: Vec<Target>) -> Vec<Checked> {
    targets
        .into_par_iter()
        .map(|target| {
            let result = check_input(&target.input);
            Checked { target, result }
        })
        .collect()
}

/// Check one input; when CR bytes stood where a wrapper failed, look again
/// with LF restored (a file is opened again, stdin was kept).
fn check_input(input: &Input) -> Result<CheckReport, ReadError> {
    let mut kept = Kept { inner: input.open()?, copy: Some(Vec::new()) };
    if !input.is_stdin() {
        kept.copy = None;
    }
    let mut report = check_reader(&mut kept).map_err(|e| input.read_error(e))?;
    if report.cr_suspect {
        let again: Box<dyn Read> = match kept.copy {
            Some(copy) => Box::new(io::Cursor::new(copy)),
            None if input.is_stdin() => return Ok(report),
            None => input.open()?,
        };
        explain_crlf(&mut report, again).map_err(|e| input.read_error(e))?;
    }
    Ok(report)
}

/// A reader that keeps a copy of what it read, up to `STDIN_KEPT` bytes
/// (past that, none).
struct Kept<R> {
    inner: R,
    copy: Option<Vec<u8>>,
}

impl<R: Read> Read for Kept<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Some(c) = &mut self.copy {
            if (c.len() + n) as u64 > STDIN_KEPT {
                self.copy = None;
            } else {
                c.extend_from_slice(&buf[..n]);
            }
        }
        Ok(n)
    }
}

/// The command that makes a file's line ends LF again, when its wrappers
/// were recognised with CRLF line ends.
fn fix_command(c: &Checked) -> Option<String> {
    let report = c.result.as_ref().ok()?;
    report.line_endings.as_ref()?;
    Some(match &c.target.input {
        Input::Stdin => "make the line ends LF again before checking: perl -pe 's/\\r\\n/\\n/' | inertbox check".into(),
        Input::Path(p) => {
            let shown = p.to_string_lossy();
            let quoted = shlex::try_quote(&shown).map_or_else(|_| format!("{shown:?}"), |q| q.into_owned());
            format!("{CRLF_TO_LF} {quoted} (and mark *{WRAPPED_SUFFIX} -text in .gitattributes so git keeps them LF)")
        }
    })
}

/// How the run went, as the JSON report's `status` names it.
fn status(checked: &[Checked], problems: &[TargetProblem]) -> &'static str {
    match exit_code(checked, problems) {
        0 if checked.is_empty() => "nothing_to_check",
        0 => "verified",
        _ => "failed",
    }
}

/// The note when no input held anything to check (every input was a
/// directory without one).
fn nothing_to_check(checked: &[Checked], problems: &[TargetProblem]) -> Option<String> {
    if status(checked, problems) != "nothing_to_check" {
        return None;
    }
    let dirs: Vec<String> = problems
        .iter()
        .filter_map(|p| match p {
            TargetProblem::Empty { name } => Some(format!("{name:?}")),
            _ => None,
        })
        .collect();
    Some(format!("no *{WRAPPED_SUFFIX} files found under {}: nothing to check", dirs.join(", ")))
}

/// The notes, each one line without the `inertbox: ` prefix: directories
/// searched another way than asked, directories with nothing to check (in
/// one line when nothing at all was).
fn note_texts(checked: &[Checked], problems: &[TargetProblem]) -> Vec<String> {
    let whole = nothing_to_check(checked, problems);
    let mut notes: Vec<String> = problems
        .iter()
        .filter(|p| match p {
            TargetProblem::Unreadable { .. } => false,
            TargetProblem::Empty { .. } => whole.is_none(),
            TargetProblem::GitFailed { .. } => true,
        })
        .map(TargetProblem::message)
        .collect();
    notes.extend(whole);
    notes
}

/// The notes for stderr, in every format.
pub fn notes(checked: &[Checked], problems: &[TargetProblem]) -> Vec<String> {
    note_texts(checked, problems).iter().map(|n| format!("inertbox: {}", terminal_safe(n))).collect()
}

/// The stderr lines for a human reader, one per wrapper, as the reference
/// prints them; with several inputs each line starts with the input's name.
/// Problems of a whole input always name a file they came from.
pub fn human_lines(checked: &[Checked], problems: &[TargetProblem], quiet: bool) -> Vec<String> {
    let many = checked.len() + problems.len() > 1 || checked.iter().any(|c| c.target.searched);
    let mut lines = Vec::new();
    for c in checked {
        let name = terminal_safe(&c.target.name);
        let prefix = if many { format!("{name}: ") } else { String::new() };
        let report = match &c.result {
            Ok(r) => r,
            Err(e) => {
                lines.push(format!("inertbox: {}", terminal_safe(&e.to_string())));
                continue;
            }
        };
        let whole = if many || !c.target.input.is_stdin() { format!("{name}: ") } else { String::new() };
        for e in &report.errors {
            lines.push(format!("inertbox: {whole}{}", terminal_safe(e)));
        }
        if let Some(fix) = fix_command(c) {
            lines.push(format!("inertbox: {whole}to fix: {}", terminal_safe(&fix)));
        }
        for w in &report.wrappers {
            let label = terminal_safe(w.source.as_deref().unwrap_or("(unknown source)"));
            if w.verified {
                if !quiet {
                    lines.push(format!("{prefix}ok   - {label} ({} bytes, sha256 verified)", w.bytes.unwrap_or(0)));
                }
            } else {
                let why: Vec<String> = w.errors.iter().map(|e| terminal_safe(e)).collect();
                lines.push(format!("{prefix}FAIL - {label}: {}", why.join("; ")));
            }
            if !quiet {
                for warn in &w.warnings {
                    lines.push(format!("{prefix}       warning: {}", terminal_safe(warn)));
                }
            }
        }
    }
    for p in problems.iter().filter(|p| matches!(p, TargetProblem::Unreadable { .. })) {
        lines.push(format!("inertbox: {}", terminal_safe(&p.message())));
    }
    lines
}

#[derive(Serialize)]
struct JsonFile<'a> {
    path: &'a str,
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    read_error: Option<String>,
    errors: &'a [String],
    wrappers: &'a [crate::format::WrapperReport],
    #[serde(skip_serializing_if = "Option::is_none")]
    line_endings: Option<&'a crate::format::CrlfDamage>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fix: Option<String>,
}

#[derive(Serialize)]
struct JsonReport<'a> {
    ok: bool,
    /// verified, failed or nothing_to_check.
    status: &'static str,
    files: Vec<JsonFile<'a>>,
    /// Directories with nothing to check, or walked because git failed.
    notes: Vec<String>,
}

/// One JSON report for every input (an unreadable input appears as a file
/// with a `read_error`; its run exits 2 and never prints this).
pub fn json_report(checked: &[Checked], problems: &[TargetProblem]) -> String {
    let empty: &[String] = &[];
    let mut files: Vec<JsonFile> = checked
        .iter()
        .map(|c| match &c.result {
            Ok(r) => JsonFile {
                path: &c.target.name,
                ok: r.ok,
                read_error: None,
                errors: &r.errors,
                wrappers: &r.wrappers,
                line_endings: r.line_endings.as_ref(),
                fix: fix_command(c),
            },
            Err(e) => JsonFile {
                path: &c.target.name,
                ok: false,
                read_error: Some(e.to_string()),
                errors: empty,
                wrappers: &[],
                line_endings: None,
                fix: None,
            },
        })
        .collect();
    for p in problems {
        if let TargetProblem::Unreadable { name, cause } = p {
            files.push(JsonFile {
                path: name,
                ok: false,
                read_error: Some(cause.clone()),
                errors: empty,
                wrappers: &[],
                line_endings: None,
                fix: None,
            });
        }
    }
    let notes = note_texts(checked, problems);
    let report = JsonReport { ok: exit_code(checked, problems) == 0, status: status(checked, problems), files, notes };
    let mut s = serde_json::to_string_pretty(&report).expect("plain data serializes");
    s.push('\n');
    s
}

/// GitHub Actions workflow commands: one `::error` annotation per failing
/// wrapper (at its begin anchor's line) and one per input whose trouble is
/// the input's own (its errors and the fix in one message), so CI marks the
/// file once; a `::notice` when there was nothing to check.
pub fn github_annotations(checked: &[Checked], problems: &[TargetProblem]) -> String {
    let mut out = String::new();
    for c in checked {
        let Ok(report) = &c.result else { continue };
        let file = escape_property(&c.target.name);
        if !report.errors.is_empty() {
            let mut msg = report.errors.join("; ");
            if let Some(fix) = fix_command(c) {
                msg.push_str(&format!(". To fix: {fix}"));
            }
            out.push_str(&format!("::error file={file},title=inertbox check::{}\n", escape_data(&msg)));
        }
        for w in report.wrappers.iter().filter(|w| !w.verified) {
            let label = w.source.as_deref().unwrap_or("(unknown source)");
            let msg = format!("wrapped document {label:?} failed: {}", w.errors.join("; "));
            out.push_str(&format!("::error file={file},line={},title=inertbox check::{}\n", w.line, escape_data(&msg)));
        }
    }
    for p in problems {
        if let TargetProblem::GitFailed { .. } = p {
            out.push_str(&format!("::warning title=inertbox check::{}\n", escape_data(&p.message())));
        }
    }
    if let Some(n) = nothing_to_check(checked, problems) {
        out.push_str(&format!("::notice title=inertbox check::{}\n", escape_data(&n)));
    }
    out
}

/// Escape a workflow command's message (`%`, CR, LF).
fn escape_data(s: &str) -> String {
    s.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// Escape a workflow command's property value (also `:` and `,`).
fn escape_property(s: &str) -> String {
    escape_data(s).replace(':', "%3A").replace(',', "%2C")
}

/// 0 when everything found verified (or nothing was found to check), 2 when
/// something could not be read, else 1.
pub fn exit_code(checked: &[Checked], problems: &[TargetProblem]) -> u8 {
    let unreadable = checked.iter().any(|c| c.result.is_err())
        || problems.iter().any(|p| matches!(p, TargetProblem::Unreadable { .. }));
    if unreadable {
        2
    } else if checked.iter().any(|c| c.result.as_ref().map(|r| !r.ok).unwrap_or(true)) {
        1
    } else {
        0
    }
}
