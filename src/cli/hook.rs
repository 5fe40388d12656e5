//! `inertbox hook claude` (answer one Claude Code hook event) and `hook
//! serve` (the long-running process that answers them faster). The
//! client side of the server lives with the server, in `inertbox::hookd`.

use std::io;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use inertbox::gate::Policy;

use super::args::{HookArgs, HookRevealArgs, HookServeArgs};
use super::{emit, load_policy};

pub fn claude(a: HookArgs) -> Result<ExitCode> {
    // Hooks must answer; a policy that cannot be loaded makes PreToolUse
    // ask (the other events add a note), never a silent allow.
    let (policy, policy_error) = match load_policy(a.policy.as_deref()) {
        Ok(p) => (p, None),
        Err(e) => {
            eprintln!("inertbox: {e}; using the default policy and asking before every tool call");
            (Policy::default(), Some(e.to_string()))
        }
    };
    super::say_what_stdin_is_for(
        "hook claude: waiting for one Claude Code hook event (JSON) on stdin; Claude Code runs this command \
         as a hook (see docs/hooks.md), it answers on stdout",
    );
    let mut input = Vec::new();
    if let Err(e) = io::Read::read_to_end(&mut io::Read::take(io::stdin(), inertbox::hook::MAX_INPUT), &mut input) {
        eprintln!("inertbox: cannot read the hook event: {e}");
    }
    #[cfg(unix)]
    let mut restart = false;
    // PreToolUse only reads the ledger: cheaper here than a round trip to
    // the server (0.75 against 0.9 ms, static build).
    // A policy that failed to load is answered here, where its error is,
    // and so is a size cap other than the server's (the default).
    #[cfg(unix)]
    if !a.no_server
        && a.event.as_deref() != Some("PreToolUse")
        && policy_error.is_none()
        && a.max_bytes == inertbox::input::DEFAULT_MAX_BYTES
        && !a.fail_closed
    {
        use inertbox::hookd::{Handed, hand_over};
        match hand_over(a.event.clone(), a.session.as_deref(), &policy, input) {
            Handed::Answered(out) => return emit(&out, ExitCode::SUCCESS),
            Handed::Declined { input: back, restart: gone } => {
                input = back;
                restart = gone;
            }
        }
    }
    let opts = inertbox::hook::Options {
        session: a.session,
        state: inertbox::hook::state_dir(),
        policy,
        policy_error,
        event: a.event,
        max_bytes: a.max_bytes,
        fail_closed: a.fail_closed,
    };
    let answer = inertbox::hook::handle(&input, &opts);
    let code = emit(&inertbox::hook::stdout_of(&answer), ExitCode::SUCCESS);
    #[cfg(unix)]
    if restart && let Err(e) = inertbox::hookd::spawn(inertbox::hookd::IDLE_MINUTES) {
        eprintln!("inertbox: cannot restart the hook server: {e}");
    }
    code
}

/// `hook reveal ID`: what a PostToolUse hook removed from a tool's
/// output, as it was.
pub fn reveal(a: HookRevealArgs) -> Result<ExitCode> {
    let sessions = inertbox::hook::state_dir().map(|d| d.join("sessions"));
    let record = inertbox::session::reveal::load(&a.id, a.session.as_deref(), sessions.as_deref())
        .map_err(anyhow::Error::msg)
        .context("hook reveal")?;
    let out = if a.json {
        let mut s = serde_json::to_string(&record).context("hook reveal")?;
        s.push('\n');
        s
    } else {
        inertbox::hook::reveal_text(&record)
    };
    emit(out.as_bytes(), ExitCode::SUCCESS)
}

#[cfg(unix)]
pub fn serve(a: HookServeArgs) -> Result<ExitCode> {
    use inertbox::hookd;
    if a.stop {
        return if hookd::ask_to_stop() {
            Ok(ExitCode::SUCCESS)
        } else {
            eprintln!("inertbox: no hook server of this build answers");
            Ok(ExitCode::from(1))
        };
    }
    if a.detach {
        hookd::start_detached(a.idle).map_err(anyhow::Error::msg).context("hook serve")?;
        return Ok(ExitCode::SUCCESS);
    }
    match hookd::serve(std::time::Duration::from_secs(a.idle * 60), !a.quiet) {
        Ok(hookd::Ended::AlreadyRunning) => {
            eprintln!("inertbox: a hook server answers already");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => Err(e).context("hook serve"),
    }
}

#[cfg(not(unix))]
pub fn serve(_: HookServeArgs) -> Result<ExitCode> {
    anyhow::bail!("hook serve: needs a Unix socket; on this system `hook claude` answers in its own process")
}
