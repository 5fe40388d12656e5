//! `inertbox mcp`: the tools over MCP on stdio.

use std::io;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use super::args::McpArgs;
use super::{load_policy, say_what_stdin_is_for};

pub fn run(a: McpArgs) -> Result<ExitCode> {
    let policy = load_policy(a.policy.as_deref())?;
    say_what_stdin_is_for(
        "mcp: serving MCP (JSON-RPC 2.0) on stdin and stdout, one JSON message a line; an MCP client starts \
         this command (claude mcp add inertbox -- inertbox mcp), typing at it is for testing",
    );
    let stdin = io::stdin();
    match inertbox::mcp::serve(policy, a.max_bytes, stdin.lock(), io::stdout().lock()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(e).context("mcp"),
        _ => Ok(ExitCode::SUCCESS),
    }
}
