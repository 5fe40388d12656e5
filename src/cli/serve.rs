//! `inertbox serve --ndjson`: scan, fence, gate, check and unwrap for
//! another program, one JSON request per line.

use std::io;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use super::args::ServeArgs;
use super::load_policy;

pub fn run(a: ServeArgs) -> Result<ExitCode> {
    let policy = load_policy(a.policy.as_deref())?;
    let _ = a.ndjson;
    let server = inertbox::serve::Server::new(policy, a.max_bytes).context("serve")?;
    match inertbox::serve::serve(server, io::stdin().lock(), io::stdout().lock()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("serve"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
