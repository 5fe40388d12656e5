//! The command line's run functions, one file per subcommand, each taking
//! its parsed arguments and returning the exit code (0 ok, 1 the answer is
//! no) or the error that made it unable to run (`main` prints it and exits
//! 2). Errors are anyhow's here, with context, and the library's own
//! thiserror enums below. Shared here: writing stdout, loading a policy,
//! and what makes an input an email by declaration.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use inertbox::detect::Report;
use inertbox::document::Kind;
use inertbox::input::Input;

pub mod args;
pub mod check;
pub mod fence;
pub mod gate;
pub mod hook;
pub mod man;
pub mod mcp;
pub mod scan;
pub mod screen;
pub mod serve;
pub mod unwrap;
pub mod wrap;

/// Exit code: could not run (usage, unreadable input, over the size cap).
pub const EXIT_CANNOT: u8 = 2;

/// Write data to stdout in one go; a closed pipe is quiet and keeps `code`.
pub fn emit(out: &[u8], code: ExitCode) -> Result<ExitCode> {
    match io::stdout().lock().write_all(out) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("cannot write output"),
        _ => Ok(code),
    }
}

/// A server that reads stdin until it closes, started by hand in a
/// terminal, says on stderr what it waits for (it would look hung).
pub fn say_what_stdin_is_for(what: &str) {
    if io::IsTerminal::is_terminal(&io::stdin()) {
        eprintln!("inertbox: {what} (Ctrl-D ends)");
    }
}

pub fn load_policy(path: Option<&Path>) -> Result<inertbox::gate::Policy> {
    Ok(match path {
        Some(p) => inertbox::gate::Policy::load(p)?,
        None => inertbox::gate::Policy::default(),
    })
}

/// Is this input an email by declaration: `--type email`, or a file named
/// `*.eml`? Only then does its From name a sender the gate trusts
/// (`gate::declared_sender`); content that only looks like an email
/// does not.
pub fn declared_email(kind: Kind, input: &Input) -> bool {
    kind == Kind::Email
        || matches!(input, Input::Path(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("eml")))
}

/// Record scanned content as read in a session file (opened to append):
/// each report with whether its input is an email by declaration. (`scan`
/// and `fence` take no policy: what their reads ask for is not kept, so a
/// gate with `listedTargets` takes nothing they name as listed.)
pub fn record<'a>(session: &Path, reads: impl IntoIterator<Item = (&'a Report, bool)>) -> Result<()> {
    Ok(inertbox::session::record(session, reads, false)?)
}
