//! `inertbox serve --ndjson`: scan, fence, gate, check and unwrap for
//! another program, one JSON request per line.

use std::io;
use std::process::ExitCode;

use super::args::ServeArgs;
use super::{fail, load_policy};

pub fn run(a: ServeArgs) -> ExitCode {
    let policy = match load_policy(a.policy.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let _ = a.ndjson;
    let server = match inertbox::serve::Server::new(policy, a.max_bytes) {
        Ok(s) => s,
        Err(e) => return fail(&format!("serve: {e}")),
    };
    match inertbox::serve::serve(server, io::stdin().lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("serve: {e}")),
    }
}
