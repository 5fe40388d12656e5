//! The `inertbox` command line: parse arguments, call one library function,
//! map the outcome to an exit code (0 ok, 1 the answer is no, 2 could not run).

use std::ffi::OsString;
use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use inertbox::checkrun;
use inertbox::document::{Input, lossy};
use inertbox::format::{self, COLLISION_WARNING, WrapError, WrapOptions};

const EXIT_CANNOT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "inertbox",
    version = concat!(env!("CARGO_PKG_VERSION"), " (INERTBOX format v1)"),
    about = "Stand between untrusted text and an AI agent.",
    long_about = "Stand between untrusted text and an AI agent.\n\n\
        Text from outside (logs, issue bodies, emails, web pages, other models' replies) \
        can pose as instructions. inertbox wraps it so the boundary is legible and \
        verifiable later.\n\n\
        Exit codes: 0 ok / verified, 1 the answer is no (mismatch, malformed), \
        2 could not run (usage error, unreadable input, invalid UTF-8 for wrap).",
    arg_required_else_help = true,
    after_help = "Example:\n  pbpaste | inertbox wrap - | pbcopy    # wrap what you were about to paste\n  inertbox check docs/                  # verify every *.inert.md under docs/"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Wrap text as an INERTBOX v1 document (data, not instructions) with a sha256 stamp
    #[command(
        long_about = "Read a text file (or stdin for `-` or no file) and print an INERTBOX v1 \
            wrapped document: anchors whose tag cannot occur in the content, guidance that \
            the content is data, the source label, the byte count and sha256 of the exact \
            input bytes, and a fence longer than any backtick run inside.\n\n\
            Output is byte-identical to the reference implementation (inertbox 0.2.0-alpha.0), \
            except that a leading BOM stays inside the fence so the stamp verifies.\n\n\
            Exit codes: 0 wrapped; 2 unreadable input, invalid UTF-8, or a --source with \
            control characters (nothing is printed on stdout).",
        after_help = "Examples:\n  inertbox wrap notes.md > notes.inert.md\n  pbpaste | inertbox wrap - --source claude-reply | pbcopy"
    )]
    Wrap(WrapArgs),
    /// Verify wrapped documents: structure first, then bytes and sha256
    #[command(
        long_about = "Verify every INERTBOX wrapper in each input: anchors paired, metadata run \
            present, fence intact, nothing between the closing fence and the end anchor; then \
            the byte count and sha256 of the content.\n\n\
            Inputs are files, directories (walked for *.inert.md, honouring .gitignore) or `-` \
            for stdin (the default). One line per wrapper goes to stderr: \
            `ok   - <source> (N bytes, sha256 verified)` or `FAIL - <source>: <reasons>`.\n\n\
            Exit codes: 0 every input verified; 1 any wrapper failed, or an input held no \
            wrapper; 2 an input could not be read (its name is printed).",
        after_help = "Examples:\n  inertbox check notes.inert.md\n  inertbox check docs/ --quiet        # CI: print failures only\n  inertbox check docs/ --json > report.json"
    )]
    Check(CheckArgs),
    /// Find what in an email, page or message speaks to an AI or hides from a person
    #[command(
        long_about = "Load each input as an email, HTML page or text (sniffed, or set with --type), \
            find what a person would not see (hidden HTML, text only the plain part of an email has, \
            invisible Unicode, terminal escapes) and what the words say to an AI (overrides, persona \
            hijacks, forged chat markers, exfiltration links, encoded payloads, in many languages), \
            and give a verdict: allow, review or block.\n\n\
            Score: high 60, medium 25, low 8 points; each repeat of a rule counts half the one before; \
            block on any high finding or at --block-at, review at --review-at. A quoted example of an \
            attack counts one step lower.\n\n\
            Exit codes: 0 allow; 1 review or block (with --fail-on block: block only); 2 could not run \
            (unreadable input, over --max-bytes, bad option); on 2 nothing is printed on stdout.",
        after_help = "Examples:\n  inertbox scan message.eml && echo clean\n  curl -s https://example.com | inertbox scan --type html -\n  inertbox scan --json issue.md | jq .verdict\n  inertbox scan --format sarif docs/*.md > scan.sarif"
    )]
    Scan(ScanArgs),
}

#[derive(Args)]
struct WrapArgs {
    /// Text file to wrap; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    file: Option<OsString>,
    /// Source label for the header (default: the file path, or `-` for stdin); one line, no control characters
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    source: Option<OsString>,
    /// Add a `generated:` line with the current UTC time (ISO-8601, milliseconds)
    #[arg(long)]
    timestamp: bool,
}

#[derive(Args)]
struct CheckArgs {
    /// Wrapped documents or directories to verify; `-` or nothing reads stdin
    #[arg(value_name = "PATH")]
    paths: Vec<OsString>,
    /// Print one JSON report on stdout instead of lines on stderr
    #[arg(long)]
    json: bool,
    /// Print failures only
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Args)]
struct ScanArgs {
    /// Files to scan; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
    /// What the input is; auto sniffs mail headers and markup
    #[arg(long = "type", value_enum, default_value_t = KindArg::Auto)]
    kind: KindArg,
    /// Print JSON (same as --format json)
    #[arg(long)]
    json: bool,
    /// Output format: human, json (one object; one line per input for several) or sarif (SARIF 2.1.0)
    #[arg(long, value_enum)]
    format: Option<ScanFormat>,
    /// Exit 1 at this verdict or worse
    #[arg(long, value_enum, default_value_t = FailOn::Review)]
    fail_on: FailOn,
    /// Score at which the verdict is review
    #[arg(long, value_name = "N", default_value_t = inertbox::detect::DEFAULT_REVIEW_AT)]
    review_at: u32,
    /// Score at which the verdict is block (any high finding blocks too)
    #[arg(long, value_name = "N", default_value_t = inertbox::detect::DEFAULT_BLOCK_AT)]
    block_at: u32,
    /// Finding codes to leave out, comma-separated (e.g. invisible_chars,bidi_override)
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Source label for the report (default: the path, or `-`)
    #[arg(long, value_name = "NAME")]
    source: Option<OsString>,
    /// No colour, even on a terminal (NO_COLOR in the environment does the same)
    #[arg(long = "no-colour", alias = "no-color")]
    no_colour: bool,
    /// Refuse inputs larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::detect::DEFAULT_MAX_BYTES)]
    max_bytes: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum KindArg {
    Auto,
    Email,
    Html,
    Text,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ScanFormat {
    Human,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Review,
    Block,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Wrap(a) => run_wrap(a),
        Cmd::Check(a) => run_check(a),
        Cmd::Scan(a) => run_scan(a),
    }
}

fn run_scan(a: ScanArgs) -> ExitCode {
    use inertbox::detect::{self, Code, Verdict};
    use inertbox::document::Kind;
    if a.no_colour {
        anstream::ColorChoice::Never.write_global();
    }
    let mut ignore = Vec::new();
    for name in &a.ignore {
        match Code::parse(name.trim()) {
            Some(c) => ignore.push(c),
            None => {
                let known: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
                return fail(&format!("--ignore: unknown finding code {name:?} (known: {})", known.join(", ")));
            }
        }
    }
    if a.review_at > a.block_at {
        return fail("--review-at must not be above --block-at");
    }
    let kind = match a.kind {
        KindArg::Auto => Kind::Auto,
        KindArg::Email => Kind::Email,
        KindArg::Html => Kind::Html,
        KindArg::Text => Kind::Text,
    };
    let opts = detect::Options { review_at: a.review_at, block_at: a.block_at, ignore };
    let inputs: Vec<Input> = if a.files.is_empty() {
        vec![Input::Stdin]
    } else {
        a.files.iter().map(|f| Input::from_arg(Some(f))).collect()
    };
    if inputs.iter().filter(|i| i.is_stdin()).count() > 1 {
        return fail("stdin (`-`) can be read only once");
    }
    let source = a.source.as_ref().map(lossy);
    let reports = match detect::scan_inputs(&inputs, kind, a.max_bytes, source.as_deref(), &opts) {
        Ok(r) => r,
        Err(e) => return fail(&e.to_string()),
    };
    let format = if a.json { ScanFormat::Json } else { a.format.unwrap_or(ScanFormat::Human) };
    let out = match format {
        ScanFormat::Human => reports.iter().map(|(_, r)| inertbox::report::human(r)).collect::<Vec<_>>().join("\n"),
        ScanFormat::Json if reports.len() == 1 => inertbox::report::json(&reports[0].1),
        ScanFormat::Json => reports.iter().map(|(_, r)| inertbox::report::json_line(r)).collect(),
        ScanFormat::Sarif => inertbox::report::sarif(&reports),
    };
    let worst = reports.iter().map(|(_, r)| r.verdict).max().unwrap_or(Verdict::Allow);
    let flagged = match a.fail_on {
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
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&format!("cannot write output: {e}")),
        _ => code,
    }
}

fn run_wrap(a: WrapArgs) -> ExitCode {
    let input = Input::from_arg(a.file.as_deref());
    let opts = WrapOptions {
        source: a.source.as_ref().map(lossy).unwrap_or_else(|| input.label()),
        timestamp: a.timestamp.then(format::timestamp_now),
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    match format::wrap_input(&input, &opts, &mut out) {
        Ok(stamp) => {
            if stamp.collision {
                eprintln!("inertbox: warning: {COLLISION_WARNING}");
            }
            ExitCode::SUCCESS
        }
        // The reader went away: end quietly with wrap's own verdict.
        Err(WrapError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&e.to_string()),
    }
}

fn run_check(a: CheckArgs) -> ExitCode {
    let (targets, problems) = checkrun::collect_targets(&a.paths);
    let checked = checkrun::check_targets(targets);
    let code = checkrun::exit_code(&checked, &problems);
    // On exit 2 stdout stays empty, even for --json: the reasons go to stderr.
    if a.json && code != EXIT_CANNOT {
        let report = checkrun::json_report(&checked, &problems);
        if let Err(e) = io::stdout().lock().write_all(report.as_bytes())
            && e.kind() != io::ErrorKind::BrokenPipe
        {
            return fail(&format!("cannot write output: {e}"));
        }
    } else {
        let mut err = io::stderr().lock();
        for line in checkrun::human_lines(&checked, &problems, a.quiet) {
            let _ = writeln!(err, "{line}");
        }
    }
    ExitCode::from(code)
}

/// Report a could-not-run error on stderr and exit 2.
fn fail(msg: &str) -> ExitCode {
    eprintln!("inertbox: {msg}");
    ExitCode::from(EXIT_CANNOT)
}
