//! `inertbox wrap`: the INERTBOX v1 wrapped document on stdout; `--scan`
//! adds findings on stderr.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;

use inertbox::Document;
use inertbox::format::{self, COLLISION_WARNING, WrapError, WrapOptions};
use inertbox::input::{Input, lossy};

use super::args::WrapArgs;

pub fn run(a: WrapArgs) -> Result<ExitCode> {
    let input = Input::from_arg(a.file.as_deref());
    let opts = WrapOptions {
        source: a.source.as_ref().map(lossy).unwrap_or_else(|| input.label()),
        timestamp: a.timestamp.then(format::timestamp_now),
    };
    // With --scan, stdin is read once and used for both.
    let stdin_bytes = if a.scan && input.is_stdin() { Some(Document::read(&input, None)?.raw) } else { None };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let wrapped = match &stdin_bytes {
        Some(bytes) => format::wrap_bytes(bytes, &opts).and_then(|w| {
            out.write_all(&w.doc).and_then(|()| out.flush()).map_err(WrapError::Write)?;
            Ok(w.stamp)
        }),
        None => format::wrap_input(&input, &opts, &mut out),
    };
    drop(out);
    let code = match wrapped {
        Ok(stamp) => {
            if stamp.collision {
                eprintln!("inertbox: warning: {COLLISION_WARNING}");
            }
            ExitCode::SUCCESS
        }
        // The reader went away: end quietly with wrap's own verdict.
        Err(WrapError::Write(e) | WrapError::Copy(_, e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => return Err(e.into()),
    };
    if a.scan {
        advisory_scan(&input, stdin_bytes, &opts.source, a.max_bytes);
    }
    Ok(code)
}

/// `wrap --scan`: findings on stderr, never touching stdout or the exit code.
fn advisory_scan(input: &Input, bytes: Option<Vec<u8>>, source: &str, cap: u64) {
    let raw = match bytes {
        Some(b) if b.len() as u64 > cap => {
            eprintln!(
                "inertbox scan: skipped ({})",
                inertbox::input::ReadError::TooLarge { path: input.display_name(), cap }
            );
            return;
        }
        Some(b) => b,
        None => match Document::read(input, Some(cap)) {
            Ok(d) => d.raw,
            Err(e) => {
                eprintln!("inertbox scan: skipped ({e})");
                return;
            }
        },
    };
    let doc = Document::load(raw, inertbox::document::Kind::Auto, source);
    let r = inertbox::detect::scan(&doc, &inertbox::detect::Options::default());
    let mut err = io::stderr().lock();
    let _ = writeln!(
        err,
        "inertbox scan: {} (score {}), {} finding(s); advisory only: the wrapped output and exit code do not change",
        r.verdict.as_str(),
        r.score,
        r.findings.len() + r.findings_omitted
    );
    for f in &r.findings {
        let _ = writeln!(err, "  - {}", inertbox::report::finding_line(f));
    }
}
