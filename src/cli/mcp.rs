//! `inertbox mcp`: the tools over MCP on stdio.

use std::io;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use super::args::McpArgs;
use super::load_policy;

pub fn run(a: McpArgs) -> Result<ExitCode> {
    let policy = load_policy(a.policy.as_deref())?;
    let stdin = io::stdin();
    match inertbox::mcp::serve(policy, a.max_bytes, stdin.lock(), io::stdout().lock()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("mcp"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
