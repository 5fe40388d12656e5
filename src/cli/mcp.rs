//! `inertbox mcp`: the tools over MCP on stdio; `mcp proxy` in front of
//! another MCP server; `mcp pins` to see and accept what the proxy pinned.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result, bail};

use inertbox::mcp::pins::{self, Pins};
use inertbox::mcp::proxy::{self, Proxy};

use super::args::{McpArgs, McpCmd, McpProxyArgs, PinsArgs, PinsCmd};
use super::{emit, load_policy, say_what_stdin_is_for};

pub fn run(a: McpArgs) -> Result<ExitCode> {
    match a.cmd {
        Some(McpCmd::Proxy(p)) => return run_proxy(p),
        Some(McpCmd::Pins(PinsCmd::Show(p))) => return show(p),
        Some(McpCmd::Pins(PinsCmd::Accept(p))) => return accept(p),
        None => {}
    }
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

fn pins_path(given: Option<PathBuf>) -> Result<PathBuf> {
    Ok(match given {
        Some(p) => p,
        None => pins::default_path()?,
    })
}

fn run_proxy(a: McpProxyArgs) -> Result<ExitCode> {
    let policy = load_policy(a.policy.as_deref())?;
    let server = pins::server_key(&a.server);
    let pins = Pins::open(&pins_path(a.pins)?, &server)?;
    let opts = proxy::Options {
        policy,
        session: a.session,
        pins: Some(pins),
        max_bytes: a.max_bytes,
        max_frame: inertbox::mcp::MAX_MESSAGE,
    };
    let proxy = Proxy::new(opts).context("mcp proxy")?;
    say_what_stdin_is_for(&format!(
        "mcp proxy: started {server}; passing MCP (JSON-RPC 2.0, one JSON message a line) between stdin/stdout \
         and it; an MCP client starts this command, typing at it is for testing"
    ));
    let status = proxy::run(proxy, &a.server, io::BufReader::new(io::stdin()), io::stdout())?;
    Ok(ExitCode::from(exit_code(status)))
}

/// The server's exit status as ours: its code, or 128 + the signal that
/// ended it.
fn exit_code(status: std::process::ExitStatus) -> u8 {
    if let Some(code) = status.code() {
        return u8::try_from(code & 0xff).unwrap_or(1);
    }
    #[cfg(unix)]
    if let Some(signal) = std::os::unix::process::ExitStatusExt::signal(&status) {
        return u8::try_from((128 + signal) & 0xff).unwrap_or(1);
    }
    1
}

/// Exit 1 when a change waits to be accepted (the answer is no), else 0.
fn waiting(any: bool) -> ExitCode {
    if any { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

fn show(a: PinsArgs) -> Result<ExitCode> {
    let path = pins_path(a.pins)?;
    let servers = pins::load(&path)?;
    if a.server.is_empty() {
        if servers.is_empty() {
            eprintln!("inertbox: mcp pins: no server is pinned in {}", path.display());
        }
        let any = servers.values().any(|p| !p.pending.is_empty());
        return emit(pins::summary(&servers).as_bytes(), waiting(any));
    }
    let server = pins::server_key(&a.server);
    let Some(p) = servers.get(&server) else {
        bail!("mcp pins: no pins for the server {server:?} in {}", path.display());
    };
    let mut out = String::new();
    for (tool, pin) in p.pending.iter().filter(|(t, _)| a.tool.is_empty() || a.tool.contains(t)) {
        out.push_str(&pins::diff(tool, p.tools.get(tool).map(|t| &t.definition), &pin.definition));
    }
    if out.is_empty() {
        eprintln!("inertbox: mcp pins: no change waits for {server}");
    }
    emit(out.as_bytes(), waiting(!out.is_empty()))
}

fn accept(a: PinsArgs) -> Result<ExitCode> {
    if a.server.is_empty() {
        bail!("mcp pins accept: name the server, its command after `--` as `mcp proxy` runs it");
    }
    let path = pins_path(a.pins)?;
    let server = pins::server_key(&a.server);
    let taken = pins::accept(&path, &server, &a.tool)?;
    let mut out = String::new();
    for t in &taken {
        out.push_str(&pins::diff(&t.tool, t.before.as_ref(), &t.after));
    }
    if taken.is_empty() {
        eprintln!("inertbox: mcp pins accept: no change waits for {server}");
    } else {
        eprintln!("inertbox: mcp pins accept: accepted {} change(s) for {server}", taken.len());
    }
    emit(out.as_bytes(), ExitCode::SUCCESS)
}
