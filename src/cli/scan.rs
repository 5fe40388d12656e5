//! `inertbox scan`: findings and a verdict; `--clean` rewrites files
//! without their invisible content.

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};

use inertbox::Document;
use inertbox::input::{Input, lossy};

use super::args::{FailOn, ScanArgs, ScanFormat};
use super::{declared_email, emit, record};

/// Files to scan past which `scan` runs as a batch (the server's engines).
const BATCH_BYTES: u64 = 2 << 20;

pub fn run(a: ScanArgs) -> Result<ExitCode> {
    use inertbox::detect::{self, Code};
    if a.clean {
        return run_clean(&a.files, a.dry_run);
    }
    if a.no_colour {
        anstream::ColorChoice::Never.write_global();
    }
    let mut ignore = Vec::new();
    for name in &a.ignore {
        match Code::parse(name.trim()) {
            Some(c) => ignore.push(c),
            None => {
                let known: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
                bail!("--ignore: unknown finding code {name:?} (known: {})", known.join(", "));
            }
        }
    }
    if a.review_at > a.block_at {
        bail!("--review-at must not be above --block-at");
    }
    let kind = a.kind;
    let opts = detect::Options { review_at: a.review_at, block_at: a.block_at, ignore };
    let inputs: Vec<Input> = if a.files.is_empty() {
        vec![Input::Stdin]
    } else {
        a.files.iter().map(|f| Input::from_arg(Some(f))).collect()
    };
    if inputs.iter().filter(|i| i.is_stdin()).count() > 1 {
        bail!("stdin (`-`) can be read only once");
    }
    // A batch is a server's job: more than BATCH_BYTES of files run the
    // engines that cost more to build and search faster (docs/engines.md).
    // Chosen once, before anything is searched, by what was asked.
    if inputs.iter().filter_map(Input::file_len).sum::<u64>() > BATCH_BYTES {
        inertbox::run_as_server();
    }
    let source = a.source.as_ref().map(lossy);
    // Every input is read (and refused when binary) before anything is
    // scanned or printed: on exit 2 stdout stays empty.
    let mut docs = Vec::with_capacity(inputs.len());
    for input in &inputs {
        let raw = Document::read(input, Some(a.max_bytes))?.raw;
        input.refuse_binary(&raw)?;
        docs.push(raw);
    }
    let mut reports = Vec::with_capacity(inputs.len());
    for (input, raw) in inputs.iter().zip(docs) {
        if raw.is_empty() {
            eprintln!("{}", input.empty_note("nothing was scanned"));
        }
        // A report carries --source, or the input's name as given.
        let doc = Document::load(raw, kind, source.clone().unwrap_or_else(|| input.name()));
        let mut report = detect::scan(&doc, &opts);
        if let Some(cmd) = &a.screen_cmd {
            let timeout = std::time::Duration::from_secs(a.screen_timeout);
            report = super::screen::second_opinion(&doc, report, cmd, timeout, &opts, &input.name());
        }
        reports.push((input.name(), report));
    }
    if let Some(session) = &a.session
        && let Err(e) = record(session, reports.iter().zip(&inputs).map(|((_, r), i)| (r, declared_email(a.kind, i))))
    {
        return Err(e);
    }
    print(&reports, a.report.format(), a.report.fail_on)
}

/// Print reports in a format and give the exit code their worst verdict
/// calls for (`scan` and `screen verdict`).
pub fn print(reports: &[(String, inertbox::detect::Report)], format: ScanFormat, fail_on: FailOn) -> Result<ExitCode> {
    use inertbox::detect::Verdict;
    let out = match format {
        ScanFormat::Human => {
            reports.iter().map(|(name, r)| inertbox::report::human(r, name)).collect::<Vec<_>>().join("\n")
        }
        ScanFormat::Json => reports.iter().map(|(name, r)| inertbox::report::json_line(r, name)).collect(),
        ScanFormat::Sarif => inertbox::report::sarif(reports),
    };
    let worst = reports.iter().map(|(_, r)| r.verdict).max().unwrap_or(Verdict::Allow);
    let flagged = match fail_on {
        FailOn::Review => worst >= Verdict::Review,
        FailOn::Block => worst >= Verdict::Block,
    };
    let code = if flagged { ExitCode::from(1) } else { ExitCode::SUCCESS };
    let written = if format == ScanFormat::Human {
        anstream::stdout().lock().write_all(out.as_bytes())
    } else {
        io::stdout().lock().write_all(out.as_bytes())
    };
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("cannot write output"),
        _ => Ok(code),
    }
}

/// `scan --clean`: rewrite files without their invisible content.
fn run_clean(files: &[OsString], dry_run: bool) -> Result<ExitCode> {
    let mut plans = Vec::new();
    for f in files {
        let input = Input::from_arg(Some(f));
        let Input::Path(path) = &input else { bail!("--clean rewrites files; it cannot read stdin") };
        let raw = Document::read(&input, None)?.raw;
        let Ok(text) = String::from_utf8(raw) else {
            bail!("{input}: not valid UTF-8; --clean rewrites text files only");
        };
        if let Some(cleaned) = inertbox::load::clean(&text) {
            plans.push((path.clone(), input.label(), text, cleaned));
        }
    }
    if dry_run {
        let mut out = String::new();
        for (_, label, before, after) in &plans {
            for (line, old, new) in inertbox::load::changed_lines(before, after) {
                out.push_str(&format!("{label}:{line}:\n- {old}\n+ {new}\n"));
            }
        }
        let code = if plans.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) };
        return emit(out.as_bytes(), code);
    }
    for (path, label, before, after) in &plans {
        if let Err(e) = inertbox::input::replace_file(path, after.as_bytes()) {
            bail!("cannot rewrite {label:?}: {e} (the file is unchanged)");
        }
        eprintln!("inertbox: cleaned {label}: removed {} bytes of invisible content", before.len() - after.len());
    }
    Ok(ExitCode::SUCCESS)
}
