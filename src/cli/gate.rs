//! `inertbox gate`: allow, confirm or block one tool call, from the
//! content read and the session ledger.

use std::io;
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};

use inertbox::document::Kind;
use inertbox::gate::{self, Journal, Ledger, Policy};
use inertbox::input::Input;
use inertbox::session::{SessionFile, Streamed};
use inertbox::{Document, Guard, detect};

use super::args::GateArgs;
use super::{declared_email, emit};

/// `--call` text: inline JSON, `@FILE`, or `-` for stdin.
fn call_text(arg: &str) -> Result<String> {
    if arg == "-" {
        let mut s = String::new();
        io::Read::read_to_string(&mut io::stdin(), &mut s).context("cannot read the call from stdin")?;
        Ok(s)
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).with_context(|| format!("cannot read the call from {path:?}"))
    } else {
        Ok(arg.to_string())
    }
}

pub fn run(a: GateArgs) -> Result<ExitCode> {
    let policy = match &a.policy {
        Some(p) => Policy::load(p)?,
        None => Policy::default(),
    };
    if a.call.is_none() && a.forget.is_empty() && !a.reset {
        bail!("gate needs --call JSON (or --forget ID / --reset with --session); see --help");
    }
    let call = match a.call.as_deref() {
        Some(arg) => Some(gate::parse_call(&call_text(arg)?)?),
        None => None,
    };
    // Content given here counts as read.
    let mut reads = Vec::new();
    for c in &a.content {
        let input = Input::from_arg(Some(c));
        let d = Document::read_and_load(&input, Kind::Auto, Some(a.max_bytes), None)?;
        reads.push((detect::scan(&d, &detect::Options::default()), declared_email(Kind::Auto, &input)));
    }
    // A decision that records nothing only reads the session: it is read
    // as the decision goes, not kept.
    let records = a.reset || !a.forget.is_empty() || !reads.is_empty() || !a.trust.is_empty();
    if !records && let (Some(call), Some(p)) = (&call, &a.session) {
        return gate_answer(&Guard::over(Streamed::new(p), policy).check(call)?, a.json);
    }
    let outcome = match &a.session {
        Some(p) => {
            // A reset does not read the old session (it may be the corrupt
            // file being reset).
            let file = if a.reset { SessionFile::open_reset(p) } else { SessionFile::open(p) }?;
            let mut guard = Guard::over(file, policy);
            edit(&mut guard, &a, &reads)?;
            // Only a change is written: a plain decision leaves the session as it was.
            guard.journal_mut().commit()?;
            call.map(|c| guard.check(&c))
        }
        None => {
            let mut guard = Guard::over(Ledger::default(), policy);
            edit(&mut guard, &a, &reads)?;
            call.map(|c| guard.check(&c))
        }
    };
    match outcome {
        Some(o) => gate_answer(&o, a.json),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// What `gate` changes in the ledger before it decides: a reset, what to
/// forget, the content given as read, the text the user vouches for.
fn edit<J: Journal>(guard: &mut Guard<J>, a: &GateArgs, reads: &[(detect::Report, bool)]) -> Result<()> {
    if a.reset {
        guard.reset();
    }
    for id in &a.forget {
        if !guard.forget(id) {
            bail!("--forget: no read content with id {id:?} in the session");
        }
    }
    for (report, declared) in reads {
        guard.record(report, *declared);
    }
    // Only what a person sees of the text is trusted.
    for t in &a.trust {
        guard.trust(t);
    }
    Ok(())
}

/// Print a gate decision (a summary, or JSON); exit 0 for allow, 1 otherwise.
fn gate_answer(outcome: &inertbox::gate::Outcome, json: bool) -> Result<ExitCode> {
    use inertbox::gate::Decision;
    let code = if outcome.decision == Decision::Allow { ExitCode::SUCCESS } else { ExitCode::from(1) };
    let out = if json {
        let mut s = serde_json::to_string_pretty(outcome).expect("outcome serializes");
        s.push('\n');
        s
    } else {
        inertbox::gate::summary(outcome)
    };
    emit(out.as_bytes(), code)
}
