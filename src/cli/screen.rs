//! `inertbox screen prompt`, `screen verdict`, and the model that `scan
//! --screen-cmd` asks: a command of the user's, run with the prompt on
//! stdin (inertbox itself talks to no network).

use std::io::Write as _;
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Result, bail};

use inertbox::Document;
use inertbox::detect::{self, Report};
use inertbox::input::{Input, lossy};
use inertbox::screen;

use super::args::{ScreenPromptArgs, ScreenVerdictArgs};
use super::emit;

/// How long a command that timed out has to go once its group was killed
/// before its output is given up on.
const KILL_GRACE: Duration = Duration::from_secs(2);

/// Read content to screen as `scan` and `fence` do: capped, never binary,
/// an empty input said on stderr.
fn content(input: &Input, max_bytes: u64, kind: inertbox::document::Kind, source: Option<String>) -> Result<Document> {
    let raw = Document::read(input, Some(max_bytes))?.raw;
    input.refuse_binary(&raw)?;
    if raw.is_empty() {
        eprintln!("{}", input.empty_note("there is nothing to screen"));
    }
    Ok(Document::load(raw, kind, source.unwrap_or_else(|| input.source_label())))
}

pub fn prompt(a: ScreenPromptArgs) -> Result<ExitCode> {
    let input = Input::from_arg(a.file.as_deref());
    let doc = content(&input, a.max_bytes, a.kind, a.source.as_ref().map(lossy))?;
    let exclude: Vec<String> = a.exclude.iter().map(lossy).collect();
    let p = screen::prompt(&doc, &exclude)?;
    let out = if a.json {
        let mut s = serde_json::to_string_pretty(&p).expect("a prompt serializes");
        s.push('\n');
        s
    } else {
        p.prompt
    };
    emit(out.as_bytes(), ExitCode::SUCCESS)
}

pub fn verdict(a: ScreenVerdictArgs) -> Result<ExitCode> {
    if a.no_colour {
        anstream::ColorChoice::Never.write_global();
    }
    let content_input = Input::from_arg(Some(&a.content));
    let reply_input = Input::from_arg(a.reply.as_deref());
    if content_input.is_stdin() && reply_input.is_stdin() {
        bail!("stdin (`-`) can be read only once: give the content or the reply as a file");
    }
    let doc = content(&content_input, a.max_bytes, a.kind, Some(content_input.name()))?;
    let raw = Document::read(&reply_input, Some(screen::MAX_REPLY as u64))?.raw;
    let reply = String::from_utf8_lossy(&raw);
    let opts = detect::Options::default();
    let (report, notes) =
        screen::verdict(&doc, &reply, a.nonce.as_deref(), &opts).map_err(|e| anyhow::anyhow!("screen verdict: {e}"))?;
    for n in notes {
        eprintln!("inertbox: screen verdict: {n}");
    }
    super::scan::print(&[(content_input.name(), report)], a.report.format(), a.report.fail_on)
}

/// `scan --screen-cmd`: the rules' report with the model's findings added,
/// or with a `screen.no_answer` finding when the model gave no verdict.
pub fn second_opinion(
    doc: &Document,
    report: Report,
    cmd: &str,
    timeout: Duration,
    opts: &detect::Options,
    name: &str,
) -> Report {
    let said = |what: &str| eprintln!("inertbox: scan --screen-cmd: {name}: {what}");
    let extra = match screen::prompt(doc, &[]) {
        Err(e) => vec![screen::no_answer(&e.to_string())],
        Ok(p) => match ask(cmd, &p.prompt, timeout) {
            Err(why) => vec![screen::no_answer(&why)],
            Ok(reply) => match screen::parse(&reply, Some(&p.nonce)) {
                Err(e) => vec![screen::no_answer(&e.to_string())],
                Ok(answer) => {
                    let s = screen::locate(doc, &answer);
                    for n in &s.notes {
                        said(n);
                    }
                    s.findings
                }
            },
        },
    };
    for f in extra.iter().filter(|f| f.rule == screen::RULE_NO_ANSWER) {
        said(&f.why);
    }
    screen::merge(report, extra, opts)
}

/// Run `cmd` with `sh -c`, the prompt on its stdin, and return its stdout:
/// an error when it cannot start, exits unsuccessfully, prints more than a
/// reply may hold, or runs past `timeout` (then it is killed, with every
/// process it started). Its stderr is ours.
pub fn ask(cmd: &str, prompt: &str, timeout: Duration) -> Result<String, String> {
    use std::os::unix::process::CommandExt;
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        // Its own process group, so a timeout ends what it started too.
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run `sh -c`: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped");
    let prompt = prompt.as_bytes().to_vec();
    // A command that never reads its stdin just gets a broken pipe.
    std::thread::spawn(move || {
        let _ = stdin.write_all(&prompt);
    });
    let stdout = child.stdout.take().expect("piped");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(inertbox::input::read_capped(stdout, Some(screen::MAX_REPLY as u64)));
    });
    let deadline = Instant::now() + timeout;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() >= deadline => {
                kill_group(&mut child);
                return Err(format!("the command did not answer within {} s (--screen-timeout)", timeout.as_secs()));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("cannot wait for the command: {e}")),
        }
    };
    let out = match rx.recv_timeout(KILL_GRACE) {
        Ok(Ok(Ok(out))) => out,
        Ok(Ok(Err(_))) => {
            kill_group(&mut child);
            return Err(format!("the command printed more than {} bytes", screen::MAX_REPLY));
        }
        Ok(Err(e)) => return Err(format!("cannot read the command's output: {e}")),
        // It exited, but something it started holds its stdout open.
        Err(_) => {
            kill_group(&mut child);
            return Err("the command exited, and what it started kept its output open".into());
        }
    };
    if !status.success() {
        return Err(format!("the command failed ({status})"));
    }
    Ok(String::from_utf8_lossy(&out).into_owned())
}

/// Kill the command's process group (`kill -KILL -- -PGID`), then the
/// command itself should that fail.
fn kill_group(child: &mut std::process::Child) {
    let group = format!("-{}", child.id());
    let killed = Command::new("kill")
        .args(["-KILL", "--", &group])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !killed {
        let _ = child.kill();
    }
    let _ = child.wait();
}
