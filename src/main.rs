//! The `inertbox` command line: parse arguments, hand them to the
//! subcommand's run function under `cli/`, exit with the code it returns
//! (0 ok, 1 the answer is no, 2 could not run).

use std::ffi::OsString;
use std::process::ExitCode;

use clap::Parser as _;

mod cli;

use cli::args::{Cli, Cmd, GateArgs, HookArgs, HookCmd, args_fast};
use cli::{emit, fail};

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Some(a) = args_fast::<HookArgs>(&args, &["hook", "claude"]) {
        return cli::hook::claude(a);
    }
    if let Some(a) = args_fast::<GateArgs>(&args, &["gate"]) {
        return cli::gate::run(a);
    }
    match Cli::parse_from(args).cmd {
        Cmd::Wrap(a) => cli::wrap::run(a),
        Cmd::Check(a) => cli::check::run(a),
        Cmd::Scan(a) => cli::scan::run(a),
        Cmd::Fence(a) => cli::fence::run(a),
        Cmd::Gate(a) => cli::gate::run(a),
        Cmd::Mcp(a) => cli::mcp::run(a),
        Cmd::Hook(HookCmd::Claude(a)) => cli::hook::claude(a),
        Cmd::Hook(HookCmd::Serve(a)) => cli::hook::serve(a),
        Cmd::Unwrap(a) => cli::unwrap::run(a),
        Cmd::Serve(a) => cli::serve::run(a),
        Cmd::Completions { shell } => {
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut <Cli as clap::CommandFactory>::command(), "inertbox", &mut out);
            emit(&out, ExitCode::SUCCESS)
        }
        Cmd::Man => {
            let mut out = Vec::new();
            match clap_mangen::Man::new(<Cli as clap::CommandFactory>::command()).render(&mut out) {
                Ok(()) => emit(&out, ExitCode::SUCCESS),
                Err(e) => fail(&format!("cannot render the manual: {e}")),
            }
        }
    }
}
