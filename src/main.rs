//! The `inertbox` command line: parse arguments, hand them to the
//! subcommand's run function under `cli/`, exit with the code it returns
//! (0 ok, 1 the answer is no, 2 could not run).

use std::ffi::OsString;
use std::process::ExitCode;

mod cli;

use anyhow::Result;

use cli::args::{Cli, Cmd, GateArgs, HookArgs, HookCmd, ScreenCmd, args_fast};
use cli::{EXIT_CANNOT, emit};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    let done = if let Some(a) = args_fast::<HookArgs>(&args, &["hook", "claude"]) {
        cli::hook::claude(a)
    } else if let Some(a) = args_fast::<GateArgs>(&args, &["gate"]) {
        cli::gate::run(a)
    } else {
        run(cli::args::parse(args).cmd)
    };
    // Could not run: one line on stderr (what failed, then its causes),
    // nothing on stdout, exit 2.
    done.unwrap_or_else(|e| {
        eprintln!("inertbox: {}", said_once(&e));
        ExitCode::from(EXIT_CANNOT)
    })
}

/// An error and its causes, `what: why: why`, each cause said once: the
/// library's errors name their cause in their own message already.
fn said_once(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let c = cause.to_string();
        if !msg.contains(&c) {
            msg.push_str(": ");
            msg.push_str(&c);
        }
    }
    msg
}

fn run(cmd: Cmd) -> Result<ExitCode> {
    match cmd {
        Cmd::Wrap(a) => cli::wrap::run(a),
        Cmd::Check(a) => cli::check::run(a),
        Cmd::Scan(a) => cli::scan::run(a),
        Cmd::Fence(a) => cli::fence::run(a),
        Cmd::Gate(a) => cli::gate::run(a),
        Cmd::Mcp(a) => cli::mcp::run(a),
        Cmd::Hook(HookCmd::Claude(a)) => cli::hook::claude(a),
        Cmd::Hook(HookCmd::Serve(a)) => cli::hook::serve(a),
        Cmd::Hook(HookCmd::Reveal(a)) => cli::hook::reveal(a),
        Cmd::Screen(ScreenCmd::Prompt(a)) => cli::screen::prompt(a),
        Cmd::Screen(ScreenCmd::Verdict(a)) => cli::screen::verdict(a),
        Cmd::Unwrap(a) => cli::unwrap::run(a),
        Cmd::Serve(a) => cli::serve::run(a),
        Cmd::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut <Cli as clap::CommandFactory>::command(), "inertbox", &mut out);
            emit(&out, ExitCode::SUCCESS)
        }
        Cmd::Man(a) => cli::man::run(a),
    }
}
