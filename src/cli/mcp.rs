//! `inertbox mcp`: the tools over MCP on stdio.

use std::io;
use std::process::ExitCode;

use super::args::McpArgs;
use super::{fail, load_policy};

pub fn run(a: McpArgs) -> ExitCode {
    let policy = match load_policy(a.policy.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let stdin = io::stdin();
    match inertbox::mcp::serve(policy, a.max_bytes, stdin.lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("mcp: {e}")),
    }
}
