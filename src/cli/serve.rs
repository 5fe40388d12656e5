//! `inertbox serve --ndjson`: scan, fence, gate, check and unwrap for
//! another program, one JSON request per line.

use std::io;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use super::args::ServeArgs;
use super::{load_policy, say_what_stdin_is_for};

pub fn run(a: ServeArgs) -> Result<ExitCode> {
    let policy = load_policy(a.policy.as_deref())?;
    say_what_stdin_is_for(
        "serve: waiting for one JSON request a line on stdin, e.g. {\"op\":\"scan\",\"content\":\"hello\"}; \
         one JSON answer a line goes to stdout (see inertbox serve --help)",
    );
    let _ = a.ndjson;
    let server = inertbox::serve::Server::new(policy, a.max_bytes).context("serve")?;
    match inertbox::serve::serve(server, io::stdin().lock(), io::stdout().lock()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("serve"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
