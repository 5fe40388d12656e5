//! `check` over many inputs: paths, directories walked for `*.inert.md`
//! (honouring .gitignore), stdin; verified in parallel, reported in a stable
//! order as stderr lines or one JSON report.

use std::ffi::OsString;
use std::path::PathBuf;

use rayon::prelude::*;
use serde::Serialize;

use crate::escape::terminal_safe;
use crate::format::{CheckReport, check_reader};
use crate::input::{Input, ReadError};

/// The file-name suffix a directory walk collects.
pub const WRAPPED_SUFFIX: &str = ".inert.md";

/// One thing to verify, named as the user will see it.
#[derive(Debug, Clone)]
pub struct Target {
    pub input: Input,
    pub name: String,
}

/// A path that yielded nothing to verify.
#[derive(Debug)]
pub enum TargetProblem {
    /// Does not exist or cannot be listed: exit 2.
    Unreadable { name: String, cause: String },
    /// A directory with no `*.inert.md` under it: a failed check, exit 1.
    Empty { name: String },
}

/// Expand the arguments into targets: no argument or `-` is stdin (once),
/// a directory is walked, anything else is a file.
pub fn collect_targets(args: &[OsString]) -> (Vec<Target>, Vec<TargetProblem>) {
    let mut targets = Vec::new();
    let mut problems = Vec::new();
    if args.is_empty() {
        targets.push(Target { input: Input::Stdin, name: "-".into() });
    }
    let mut stdin_taken = false;
    for arg in args {
        let input = Input::from_arg(Some(arg));
        match &input {
            Input::Stdin => {
                if !stdin_taken {
                    stdin_taken = true;
                    targets.push(Target { input, name: "-".into() });
                }
            }
            Input::Path(p) if p.is_dir() => match walk(p) {
                Ok(found) if found.is_empty() => problems.push(TargetProblem::Empty { name: input.label() }),
                Ok(found) => targets.extend(found),
                Err(cause) => problems.push(TargetProblem::Unreadable { name: input.label(), cause }),
            },
            Input::Path(_) => targets.push(Target { name: input.label(), input }),
        }
    }
    (targets, problems)
}

fn walk(dir: &std::path::Path) -> Result<Vec<Target>, String> {
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
    Ok(found
        .into_iter()
        .map(|p| {
            let input = Input::Path(p);
            Target { name: input.label(), input }
        })
        .collect())
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
            let result = target.input.open().and_then(|r| check_reader(r).map_err(|e| target.input.read_error(e)));
            Checked { target, result }
        })
        .collect()
}

/// The stderr lines for a human reader, one per wrapper, as the reference
/// prints them; with several inputs each line starts with the input's name.
pub fn human_lines(checked: &[Checked], problems: &[TargetProblem], quiet: bool) -> Vec<String> {
    let many = checked.len() + problems.len() > 1;
    let mut lines = Vec::new();
    for c in checked {
        let prefix = if many { format!("{}: ", terminal_safe(&c.target.name)) } else { String::new() };
        let report = match &c.result {
            Ok(r) => r,
            Err(e) => {
                lines.push(format!("inertbox: {}", terminal_safe(&e.to_string())));
                continue;
            }
        };
        for e in &report.errors {
            lines.push(format!("inertbox: {prefix}{}", terminal_safe(e)));
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
    for p in problems {
        lines.push(match p {
            TargetProblem::Unreadable { name, cause } => {
                format!("inertbox: cannot read {:?}: {}", name, terminal_safe(cause))
            }
            TargetProblem::Empty { name } => {
                format!("inertbox: {}: no *{WRAPPED_SUFFIX} files found", terminal_safe(name))
            }
        });
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
}

#[derive(Serialize)]
struct JsonReport<'a> {
    ok: bool,
    files: Vec<JsonFile<'a>>,
}

/// One JSON report for every input (problems appear as files with a
/// `read_error`).
pub fn json_report(checked: &[Checked], problems: &[TargetProblem]) -> String {
    let empty: &[String] = &[];
    let mut files: Vec<JsonFile> = checked
        .iter()
        .map(|c| match &c.result {
            Ok(r) => {
                JsonFile { path: &c.target.name, ok: r.ok, read_error: None, errors: &r.errors, wrappers: &r.wrappers }
            }
            Err(e) => JsonFile {
                path: &c.target.name,
                ok: false,
                read_error: Some(e.to_string()),
                errors: empty,
                wrappers: &[],
            },
        })
        .collect();
    for p in problems {
        let (name, why) = match p {
            TargetProblem::Unreadable { name, cause } => (name, cause.clone()),
            TargetProblem::Empty { name } => (name, format!("no *{WRAPPED_SUFFIX} files found")),
        };
        files.push(JsonFile { path: name, ok: false, read_error: Some(why), errors: empty, wrappers: &[] });
    }
    let ok = !files.is_empty() && files.iter().all(|f| f.ok);
    let mut s = serde_json::to_string_pretty(&JsonReport { ok, files }).expect("plain data serializes");
    s.push('\n');
    s
}

/// GitHub Actions workflow commands: one `::error` annotation per failing
/// wrapper (at its begin anchor's line) or input, so CI marks the file.
pub fn github_annotations(checked: &[Checked], problems: &[TargetProblem]) -> String {
    let mut out = String::new();
    for c in checked {
        let Ok(report) = &c.result else { continue };
        let file = escape_property(&c.target.name);
        for e in &report.errors {
            out.push_str(&format!("::error file={file},title=inertbox check::{}\n", escape_data(e)));
        }
        for w in report.wrappers.iter().filter(|w| !w.verified) {
            let label = w.source.as_deref().unwrap_or("(unknown source)");
            let msg = format!("wrapped document {label:?} failed: {}", w.errors.join("; "));
            out.push_str(&format!("::error file={file},line={},title=inertbox check::{}\n", w.line, escape_data(&msg)));
        }
    }
    for p in problems {
        if let TargetProblem::Empty { name } = p {
            out.push_str(&format!(
                "::error file={},title=inertbox check::no *{WRAPPED_SUFFIX} files found\n",
                escape_property(name)
            ));
        }
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

/// 0 when everything verified, 2 when something could not be read, else 1.
pub fn exit_code(checked: &[Checked], problems: &[TargetProblem]) -> u8 {
    let unreadable = checked.iter().any(|c| c.result.is_err())
        || problems.iter().any(|p| matches!(p, TargetProblem::Unreadable { .. }));
    if unreadable {
        2
    } else if !problems.is_empty() || checked.iter().any(|c| c.result.as_ref().map(|r| !r.ok).unwrap_or(true)) {
        1
    } else {
        0
    }
}
