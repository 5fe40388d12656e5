//! The `inertbox` command line: parse arguments, call one library function,
//! map the outcome to an exit code (0 ok, 1 the answer is no, 2 could not run).

use std::ffi::OsString;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use inertbox::Document;
use inertbox::checkrun;
use inertbox::document::{Input, lossy};
use inertbox::format::{self, COLLISION_WARNING, WrapError, WrapOptions};

const EXIT_CANNOT: u8 = 2;

#[derive(Parser)]
#[command(
    name = "inertbox",
    version = concat!(env!("CARGO_PKG_VERSION"), " (INERTBOX format v1)"),
    about = "Stand between untrusted text and an AI agent.",
    long_about = "Stand between untrusted text and an AI agent.\n\n\
        Text from outside (logs, issue bodies, emails, web pages, other models' replies) \
        can pose as instructions. inertbox wraps it so the boundary is legible and verifiable \
        later (wrap, check), finds what in it speaks to an AI or hides from a person (scan), \
        fences it for a prompt with a nonce it cannot forge (fence), and decides whether a tool \
        call may run after it was read (gate). It serves agents directly (mcp, hook) and takes \
        the JSON out of a model's reply (unwrap).\n\n\
        Exit codes (every command): 0 ok / verified / allow; 1 the answer is no (mismatch, \
        review or block, confirm or block); 2 could not run (usage error, unreadable input, \
        input over the size cap). On 2 nothing is printed on stdout.",
    arg_required_else_help = true,
    after_help = "Examples:\n  pbpaste | inertbox wrap - | pbcopy      # wrap what you were about to paste\n  inertbox check docs/                    # verify every *.inert.md under docs/\n  inertbox scan message.eml && echo clean # branch on a verdict\n  inertbox fence page.html --instructions # fence content for a prompt\n  inertbox gate --call '{\"tool\":\"send_email\",\"args\":{\"to\":\"x@evil.test\"}}' message.eml"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Wrap text as an INERTBOX v1 document (data, not instructions) with a sha256 stamp
    #[command(
        long_about = "Read a text file (or stdin for `-` or no file) and print an INERTBOX v1 \
            wrapped document: anchors whose tag cannot occur in the content, guidance that \
            the content is data, the source label, the byte count and sha256 of the exact \
            input bytes, and a fence longer than any backtick run inside.\n\n\
            Output is byte-identical to the reference implementation (inertbox 0.2.0-alpha.0), \
            except that a leading BOM stays inside the fence so the stamp verifies.\n\n\
            Exit codes: 0 wrapped; 2 unreadable input, invalid UTF-8, or a --source with \
            control characters (nothing is printed on stdout).",
        after_help = "Examples:\n  inertbox wrap notes.md > notes.inert.md\n  pbpaste | inertbox wrap - --source claude-reply | pbcopy"
    )]
    Wrap(WrapArgs),
    /// Verify wrapped documents: structure first, then bytes and sha256
    #[command(
        long_about = "Verify every INERTBOX wrapper in each input: anchors paired, metadata run \
            present, fence intact, nothing between the closing fence and the end anchor; then \
            the byte count and sha256 of the content.\n\n\
            Inputs are files, directories (walked for *.inert.md, honouring .gitignore) or `-` \
            for stdin (the default). One line per wrapper goes to stderr: \
            `ok   - <source> (N bytes, sha256 verified)` or `FAIL - <source>: <reasons>`.\n\n\
            Exit codes: 0 every input verified; 1 any wrapper failed, or an input held no \
            wrapper; 2 an input could not be read (its name is printed).",
        after_help = "Examples:\n  inertbox check notes.inert.md\n  inertbox check docs/ --quiet        # CI: print failures only\n  inertbox check docs/ --json > report.json"
    )]
    Check(CheckArgs),
    /// Find what in an email, page or message speaks to an AI or hides from a person
    #[command(
        long_about = "Load each input as an email, HTML page or text (sniffed, or set with --type), \
            find what a person would not see (hidden HTML, text only the plain part of an email has, \
            invisible Unicode, terminal escapes) and what the words say to an AI (overrides, persona \
            hijacks, forged chat markers, exfiltration links, encoded payloads, in many languages), \
            and give a verdict: allow, review or block.\n\n\
            Score: high 60, medium 25, low 8 points; each repeat of a rule counts half the one before; \
            block on any high finding or at --block-at, review at --review-at. A quoted example of an \
            attack counts one step lower.\n\n\
            Exit codes: 0 allow; 1 review or block (with --fail-on block: block only); 2 could not run \
            (unreadable input, over --max-bytes, bad option); on 2 nothing is printed on stdout.",
        after_help = "Examples:\n  inertbox scan message.eml && echo clean\n  curl -s https://example.com | inertbox scan --type html -\n  inertbox scan --json issue.md | jq .verdict\n  inertbox scan --format sarif docs/*.md > scan.sarif"
    )]
    Scan(ScanArgs),
    /// Fence untrusted content for a prompt with a nonce it cannot forge
    #[command(
        long_about = "Wrap untrusted content for a prompt: <untrusted-content nonce=\"N\" source=\"LABEL\" \
            risk=\"allow|review|block\"> … </untrusted-content nonce=\"N\">. The nonce comes from the OS \
            random source (18 alphanumeric characters, over 100 bits). Inside: the visible text of each part \
            (an email's From/To/Date/Subject first); hidden text removed (or kept and labelled with \
            --keep-hidden); invisible characters and terminal escapes stripped; anything that looks like a \
            boundary (this tag in any spelling, chat-template tokens, prompt-section tags, role JSON, INERTBOX \
            anchors) defused with visible substitutes, no word removed.\n\n\
            Modes: tags (default); datamark (every space becomes U+02C6, so injected text cannot pass as \
            text outside); base64 (the content encoded: the strongest isolation).\n\n\
            Exit codes: 0 fenced (whatever the risk); 2 could not run.",
        after_help = "Examples:\n  inertbox fence message.eml --source \"email from Dana\"\n  inertbox fence page.html --instructions --mode datamark\n  inertbox fence --inline \"$SUBJECT\""
    )]
    Fence(FenceArgs),
    /// Decide allow / confirm / block for a tool call after untrusted content was read
    #[command(
        long_about = "Decide whether an agent's tool call may run. The tool's category comes from its name \
            (send_draft is send, create_draft draft, create_event send; unknown counts as send; policy can \
            name tools), its targets from its arguments (addresses, links, domains, phone and account \
            numbers). Before any untrusted content everything is allowed; after, the decision table applies: \
            read/organize/write/draft allow; browse confirms after an injection; send, destructive, \
            financial, access, execute and unknown confirm (block after an injection); an action aimed at \
            an address or link only the content mentioned confirms (blocks after an injection); a link \
            nobody gave the model with data in its query confirms.\n\n\
            Content files given here count as read. --session FILE keeps the ledger (what was read, what \
            the user trusted) between runs; fence and scan add to it with their own --session. The file is \
            text, one record per line, appended to as the session goes (format in the README).\n\n\
            Exit codes: 0 allow; 1 confirm or block; 2 could not run (bad JSON, bad policy, corrupt session).",
        after_help = "Examples:\n  inertbox gate --call '{\"tool\":\"send_email\",\"args\":{\"to\":\"x@evil.test\"}}' message.eml\n  inertbox gate --session s.session --trust \"mail the report to me@corp.example\" --call @call.json\n  inertbox gate --session s.session --reset"
    )]
    Gate(GateArgs),
    /// Serve the tools to an agent over MCP (stdio)
    #[command(
        long_about = "Run a Model Context Protocol server over stdio (JSON-RPC 2.0, one JSON message per line; \
            protocol versions 2025-06-18, 2025-03-26 and 2024-11-05). Tools: fence_content, check_action, \
            scan_content, reset_session. The session ledger lives in memory for the life of the process.",
        after_help = "Claude Code: claude mcp add inertbox -- inertbox mcp"
    )]
    Mcp(McpArgs),
    /// Answer agent hook events (Claude Code: UserPromptSubmit, PostToolUse, PreToolUse)
    #[command(subcommand)]
    Hook(HookCmd),
    /// Print the first JSON object or array in a model's reply
    #[command(
        long_about = "Read a model's reply and print the first balanced JSON object or array in it, through \
            markdown code fences and prose; braces inside strings and later objects do not confuse it.\n\n\
            Exit codes: 0 found (printed on stdout); 1 no JSON value in the reply; 2 could not read.",
        after_help = "Example:\n  llm \"list three colours as JSON\" | inertbox unwrap | jq ."
    )]
    Unwrap(UnwrapArgs),
    /// Serve scan, fence, gate, check and unwrap to another program, one JSON request per line
    #[command(
        long_about = "Serve requests from another program over stdin/stdout: one JSON request per line, one \
            JSON response per line, the session ledger kept for the life of the process (a Python or Node \
            program pays the start-up once).\n\n\
            Requests: {\"op\": \"scan\", \"content\", \"type\"?}, {\"op\": \"fence\", \"content\", \
            \"source\"?, \"mode\"?, \"format\"?, \"keep_hidden\"?}, {\"op\": \"gate\", \"call\"}, {\"op\": \
            \"check\", \"content\"}, {\"op\": \"unwrap\", \"content\"}, {\"op\": \"trust\", \"text\"}, \
            {\"op\": \"forget\", \"id\"}, {\"op\": \"reset\"}; an \"id\" is echoed back. Responses: \
            {\"id\", \"ok\": true, \"result\"} or {\"id\", \"ok\": false, \"error\"}.",
        after_help = "Example: examples/python/inertbox_client.py"
    )]
    Serve(ServeArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish)
    #[command(
        after_help = "Examples:\n  inertbox completions bash > ~/.local/share/bash-completion/completions/inertbox\n  inertbox completions zsh > ~/.zfunc/_inertbox\n  inertbox completions fish > ~/.config/fish/completions/inertbox.fish"
    )]
    Completions {
        /// The shell to write completions for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff)
    #[command(after_help = "Example:\n  inertbox man > ~/.local/share/man/man1/inertbox.1 && man inertbox")]
    Man,
}

#[derive(Args)]
struct ServeArgs {
    /// Newline-delimited JSON on stdin and stdout (the only protocol, and required so scripts say what they expect)
    #[arg(long, required = true)]
    ndjson: bool,
    /// Policy file for gate requests (JSON; see README)
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Refuse content larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::detect::DEFAULT_MAX_BYTES)]
    max_bytes: u64,
}

#[derive(Args)]
struct McpArgs {
    /// Policy file for check_action (JSON; see README)
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
}

#[derive(Subcommand)]
enum HookCmd {
    /// Claude Code hooks: read one event on stdin, answer on stdout
    #[command(
        long_about = "Read one Claude Code hook event (JSON on stdin) and answer as Claude Code expects: exit 0 \
            with JSON on stdout, or nothing when there is nothing to say.\n\n\
            UserPromptSubmit: verifies INERTBOX wrappers pasted into the prompt and says what verified; notes \
            invisible characters and escapes, blocks a prompt whose hidden characters spell a payload.\n\
            PostToolUse: scans the tool's output, records it in the session ledger, and on review or block adds \
            context that fences the verdict.\n\
            PreToolUse: gates the call against the ledger: deny on block, ask on confirm, nothing on allow.\n\n\
            The ledger is a file per session_id under $XDG_STATE_HOME/inertbox/sessions (default \
            ~/.local/state/inertbox/sessions), or --session FILE. Malformed input: PreToolUse denies once \
            untrusted content was read and asks when it cannot tell; other events pass with a note.\n\n\
            When `inertbox hook serve` runs (see its help), UserPromptSubmit and PostToolUse are answered \
            there, faster and the same; --no-server answers in this process, as does an event named \
            PreToolUse on the command line (it only reads the ledger).",
        after_help = "Install: see README (settings.json snippet, or the plugin in this repository)."
    )]
    Claude(HookArgs),
    /// Answer `hook claude` from one long-running process (faster hooks)
    #[command(
        long_about = "Answer the calls of `hook claude` from one long-running process, so a hook call pays for \
            a process start and a socket round trip instead of building the scanner's automata again: a \
            PostToolUse answer for a 60 KB file full of the words the rules look for takes about 3.5 ms \
            instead of 7.5.\n\n\
            The socket is $XDG_STATE_HOME/inertbox/hookd/sock (default ~/.local/state/inertbox/hookd/sock), in \
            a directory only this user may open (mode 0700; the server refuses to start otherwise). `hook \
            claude` uses the server when it answers and answers itself when it does not (no server, no \
            answer in 5 s, another build of the binary): the answers are the same either way, and PreToolUse \
            still fails closed without it. The server keeps no ledger of its own; it reads and writes the \
            same session files. It exits after --idle minutes without a call, or once its binary was \
            replaced (an upgrade) and a client of the new build calls. In the foreground it prints one line \
            per call on stderr (--quiet: none).\n\n\
            `hook claude` starts a server again when it finds the socket of one that is gone (stopped \
            when idle); remove the hookd directory to stop that. --stop stops the one that runs.\n\n\
            Exit status: 0 when it stops (idle, --stop, an upgrade) or another server answers already; with \
            --detach, once the server takes calls; with --stop, once it stopped; 1 when --stop finds none; 2 \
            when it cannot start.",
        after_help = "Start it with the session: the plugin's hooks.json runs `inertbox hook serve --detach` on \
            SessionStart. By hand: `inertbox hook serve --detach`, or `inertbox hook serve` in the foreground."
    )]
    Serve(HookServeArgs),
}

#[derive(Args)]
struct HookServeArgs {
    /// Start the server in the background and return once it takes calls
    #[arg(long)]
    detach: bool,
    /// Stop the server that answers for this user and this build (exit 1 when none does)
    #[arg(long, conflicts_with = "detach")]
    stop: bool,
    /// No line per call on stderr
    #[arg(long)]
    quiet: bool,
    /// Exit after this many minutes without a call
    #[arg(long, value_name = "MINUTES", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=10080))]
    idle: u64,
}

#[derive(Args)]
struct HookArgs {
    /// The event this command is installed for (used only when the input cannot be read)
    #[arg(value_name = "EVENT")]
    event: Option<String>,
    /// Session file instead of one per session_id under the state directory
    #[arg(long, value_name = "FILE")]
    session: Option<PathBuf>,
    /// Policy file for PreToolUse decisions (JSON; see README)
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Answer in this process even when `hook serve` runs
    #[arg(long)]
    no_server: bool,
}

#[derive(Args)]
struct UnwrapArgs {
    /// The reply; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    file: Option<OsString>,
}

#[derive(Args)]
struct WrapArgs {
    /// Text file to wrap; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    file: Option<OsString>,
    /// Source label for the header (default: the file path, or `-` for stdin); one line, no control characters
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    source: Option<OsString>,
    /// Add a `generated:` line with the current UTC time (ISO-8601, milliseconds)
    #[arg(long)]
    timestamp: bool,
    /// Also scan the content and print the findings on stderr (advisory: stdout and the exit code do not change)
    #[arg(long)]
    scan: bool,
}

#[derive(Args)]
struct CheckArgs {
    /// Wrapped documents or directories to verify; `-` or nothing reads stdin
    #[arg(value_name = "PATH")]
    paths: Vec<OsString>,
    /// Print one JSON report on stdout instead of lines on stderr (same as --format json)
    #[arg(long)]
    json: bool,
    /// Output: human lines on stderr, one JSON report, or GitHub Actions `::error` annotations on stdout
    #[arg(long, value_enum)]
    format: Option<CheckFormat>,
    /// Print failures only
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum CheckFormat {
    Human,
    Json,
    Github,
}

#[derive(Args)]
struct ScanArgs {
    /// Files to scan; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    files: Vec<OsString>,
    /// What the input is; auto sniffs mail headers and markup
    #[arg(long = "type", value_enum, default_value_t = KindArg::Auto)]
    kind: KindArg,
    /// Print JSON (same as --format json)
    #[arg(long)]
    json: bool,
    /// Output format: human, json (one object; one line per input for several) or sarif (SARIF 2.1.0)
    #[arg(long, value_enum)]
    format: Option<ScanFormat>,
    /// Exit 1 at this verdict or worse
    #[arg(long, value_enum, default_value_t = FailOn::Review)]
    fail_on: FailOn,
    /// Score at which the verdict is review
    #[arg(long, value_name = "N", default_value_t = inertbox::detect::DEFAULT_REVIEW_AT)]
    review_at: u32,
    /// Score at which the verdict is block (any high finding blocks too)
    #[arg(long, value_name = "N", default_value_t = inertbox::detect::DEFAULT_BLOCK_AT)]
    block_at: u32,
    /// Finding codes to leave out, comma-separated (e.g. invisible_chars,bidi_override)
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    ignore: Vec<String>,
    /// Source label for the report (default: the path, or `-`)
    #[arg(long, value_name = "NAME")]
    source: Option<OsString>,
    /// No colour, even on a terminal (NO_COLOR in the environment does the same)
    #[arg(long = "no-colour", alias = "no-color")]
    no_colour: bool,
    /// Refuse inputs larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::detect::DEFAULT_MAX_BYTES)]
    max_bytes: u64,
    /// Record what was scanned as read in this session file (for `gate`)
    #[arg(long, value_name = "FILE")]
    session: Option<PathBuf>,
    /// Rewrite each FILE with smuggled and invisible content removed (CLAUDE.md, AGENTS.md, SKILL.md…)
    #[arg(long, requires = "files")]
    clean: bool,
    /// With --clean: show what would change, write nothing (exit 1 if anything would)
    #[arg(long, requires = "clean")]
    dry_run: bool,
}

#[derive(Args)]
struct FenceArgs {
    /// Content to fence; `-` or nothing reads stdin
    #[arg(value_name = "FILE", conflicts_with = "inline")]
    file: Option<OsString>,
    /// Source label for the fence (default: the path, or `-`)
    #[arg(long, value_name = "LABEL")]
    source: Option<OsString>,
    /// Isolation inside the fence
    #[arg(long, value_enum, default_value_t = ModeArg::Tags)]
    mode: ModeArg,
    /// Keep hidden text, labelled as hidden, instead of removing it
    #[arg(long)]
    keep_hidden: bool,
    /// Print the system-prompt text for this nonce and mode before the fence
    #[arg(long)]
    instructions: bool,
    /// Print {text, instructions, nonce, scan} as JSON
    #[arg(long)]
    json: bool,
    /// Render target for the fenced content
    #[arg(long, value_enum, default_value_t = RenderArg::Xml)]
    format: RenderArg,
    /// What the input is; auto sniffs mail headers and markup
    #[arg(long = "type", value_enum, default_value_t = KindArg::Auto)]
    kind: KindArg,
    /// Record the content as read in this session file (for `gate`)
    #[arg(long, value_name = "FILE")]
    session: Option<PathBuf>,
    /// Neutralise a short span (a subject line, a file name) instead of fencing a file
    #[arg(long, value_name = "TEXT")]
    inline: Option<OsString>,
    /// Refuse inputs larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::detect::DEFAULT_MAX_BYTES)]
    max_bytes: u64,
}

#[derive(Args)]
struct GateArgs {
    /// The tool call: JSON {"tool": NAME, "args": {...}} (or name/arguments, name/input); `@FILE` reads a file, `-` stdin
    #[arg(long, value_name = "JSON")]
    call: Option<String>,
    /// Untrusted content the agent read (counted as read before the call is judged)
    #[arg(value_name = "CONTENT")]
    content: Vec<OsString>,
    /// Policy file (JSON; see README)
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Session file shared with fence/scan/hooks (locked, replaced atomically)
    #[arg(long, value_name = "FILE")]
    session: Option<PathBuf>,
    /// Text the user typed or vouches for (its addresses and links become trusted); repeatable
    #[arg(long, value_name = "TEXT")]
    trust: Vec<String>,
    /// Print {decision, category, reasons, targets} as JSON
    #[arg(long)]
    json: bool,
    /// Forget one read content (by id) from the session
    #[arg(long, value_name = "ID", requires = "session")]
    forget: Vec<String>,
    /// Empty the session
    #[arg(long, requires = "session")]
    reset: bool,
    /// Refuse content larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::detect::DEFAULT_MAX_BYTES)]
    max_bytes: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ModeArg {
    Tags,
    Datamark,
    Base64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum RenderArg {
    Xml,
    Markdown,
    Json,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum KindArg {
    Auto,
    Email,
    Html,
    Text,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ScanFormat {
    Human,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum FailOn {
    Review,
    Block,
}

/// `hook claude` and `gate` run on every tool call, so their arguments are
/// parsed against that subcommand alone: building the whole command tree
/// (every subcommand, flag and help text) costs about 0.1 ms a process.
/// Anything this does not accept (`--help`, a typo, a missing `--session`)
/// goes through the full parser, so help and error messages are the same.
fn args_fast<A: Args + clap::FromArgMatches>(args: &[OsString], path: &[&'static str]) -> Option<A> {
    let (&name, words) = (path.last()?, args.get(1..=path.len())?);
    if words.iter().zip(path).any(|(a, p)| a != p) {
        return None;
    }
    // The subcommand's own name stands in for the program name.
    let matches = A::augment_args(clap::Command::new(name)).try_get_matches_from(&args[path.len()..]).ok()?;
    A::from_arg_matches(&matches).ok()
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().collect();
    if let Some(a) = args_fast::<HookArgs>(&args, &["hook", "claude"]) {
        return run_hook(a);
    }
    if let Some(a) = args_fast::<GateArgs>(&args, &["gate"]) {
        return run_gate(a);
    }
    let cli = Cli::parse_from(args);
    match cli.cmd {
        Cmd::Wrap(a) => run_wrap(a),
        Cmd::Check(a) => run_check(a),
        Cmd::Scan(a) => run_scan(a),
        Cmd::Fence(a) => run_fence(a),
        Cmd::Gate(a) => run_gate(a),
        Cmd::Mcp(a) => run_mcp(a),
        Cmd::Hook(HookCmd::Claude(a)) => run_hook(a),
        Cmd::Hook(HookCmd::Serve(a)) => run_hook_serve(a),
        Cmd::Unwrap(a) => run_unwrap(a),
        Cmd::Serve(a) => {
            let policy = match load_policy(a.policy.as_deref()) {
                Ok(p) => p,
                Err(e) => return fail(&e),
            };
            let _ = a.ndjson;
            let server = inertbox::serve::Server::new(policy, a.max_bytes);
            match inertbox::serve::serve(server, io::stdin().lock(), io::stdout().lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => fail(&format!("serve: {e}")),
            }
        }
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

fn load_policy(path: Option<&Path>) -> Result<inertbox::gate::Policy, String> {
    match path {
        Some(p) => inertbox::gate::Policy::load(p).map_err(|e| e.to_string()),
        None => Ok(inertbox::gate::Policy::default()),
    }
}

fn run_mcp(a: McpArgs) -> ExitCode {
    let policy = match load_policy(a.policy.as_deref()) {
        Ok(p) => p,
        Err(e) => return fail(&e),
    };
    let stdin = io::stdin();
    match inertbox::mcp::serve(policy, stdin.lock(), io::stdout().lock()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => fail(&format!("mcp: {e}")),
    }
}

fn run_hook(a: HookArgs) -> ExitCode {
    // Hooks must answer; a policy that cannot be loaded makes PreToolUse
    // ask (the other events add a note), never a silent allow.
    let (policy, policy_error) = match load_policy(a.policy.as_deref()) {
        Ok(p) => (p, None),
        Err(e) => {
            eprintln!("inertbox: {e}; using the default policy and asking before every tool call");
            (inertbox::gate::Policy::default(), Some(e))
        }
    };
    let mut input = Vec::new();
    if let Err(e) = io::Read::read_to_end(&mut io::Read::take(io::stdin(), inertbox::hook::MAX_INPUT), &mut input) {
        eprintln!("inertbox: cannot read the hook event: {e}");
    }
    #[cfg(unix)]
    let mut restart = false;
    // PreToolUse only reads the ledger: cheaper here than a round trip to
    // the server (0.75 against 0.9 ms, static build).
    // A policy that failed to load is answered here, where its error is.
    #[cfg(unix)]
    if !a.no_server && a.event.as_deref() != Some("PreToolUse") && policy_error.is_none() {
        use inertbox::hookd::{self, Reply};
        match hookd::connect() {
            // A server ran here and is gone (it stops when idle): answer,
            // then start another for the calls to come.
            Err(reply) => restart = reply == Reply::Gone,
            Ok(conn) => {
                let req = hookd::Request {
                    identity: hookd::identity(),
                    event: a.event.clone(),
                    session: a.session.as_deref().map(|p| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf())),
                    policy: (policy != inertbox::gate::Policy::default())
                        .then(|| serde_json::to_string(&policy).expect("a policy serializes")),
                    input,
                };
                if let Reply::Answer(out) = hookd::call(conn, &req, hookd::CLIENT_TIMEOUT) {
                    return emit(&out, ExitCode::SUCCESS);
                }
                input = req.input;
            }
        }
    }
    let opts = inertbox::hook::Options {
        session: a.session,
        state: inertbox::hook::state_dir(),
        policy,
        policy_error,
        event: a.event,
    };
    let answer = inertbox::hook::handle(&input, &opts);
    let code = emit(&inertbox::hook::stdout_of(&answer), ExitCode::SUCCESS);
    #[cfg(unix)]
    if restart && let Err(e) = inertbox::hookd::spawn(inertbox::hookd::IDLE_MINUTES) {
        eprintln!("inertbox: cannot restart the hook server: {e}");
    }
    code
}

#[cfg(unix)]
fn run_hook_serve(a: HookServeArgs) -> ExitCode {
    use inertbox::hookd;
    let idle = std::time::Duration::from_secs(a.idle * 60);
    if a.stop {
        return if hookd::ask_to_stop() {
            ExitCode::SUCCESS
        } else {
            eprintln!("inertbox: no hook server of this build answers");
            ExitCode::from(1)
        };
    }
    if a.detach {
        // Already answering: nothing to start.
        if hookd::ping() {
            return ExitCode::SUCCESS;
        }
        let mut child = match hookd::spawn(a.idle) {
            Ok(c) => c,
            Err(e) => return fail(&format!("hook serve: cannot start the server: {e}")),
        };
        // Return once it takes calls (it compiles the patterns next), or as
        // soon as it has exited without.
        let until = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while std::time::Instant::now() < until {
            if hookd::ping() {
                return ExitCode::SUCCESS;
            }
            if let Ok(Some(status)) = child.try_wait() {
                return fail(&format!(
                    "hook serve: the server exited at start ({status}; run `inertbox hook serve` to see why)"
                ));
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        return fail("hook serve: the server did not answer within 5 s (run `inertbox hook serve` to see why)");
    }
    match hookd::serve(idle, !a.quiet) {
        Ok(hookd::Ended::AlreadyRunning) => {
            eprintln!("inertbox: a hook server answers already");
            ExitCode::SUCCESS
        }
        Err(e) => fail(&format!("hook serve: {e}")),
    }
}

#[cfg(not(unix))]
fn run_hook_serve(_: HookServeArgs) -> ExitCode {
    fail("hook serve: needs a Unix socket; on this system `hook claude` answers in its own process")
}

fn run_unwrap(a: UnwrapArgs) -> ExitCode {
    let input = Input::from_arg(a.file.as_deref());
    let doc = match Document::read(&input, Some(inertbox::detect::DEFAULT_MAX_BYTES)) {
        Ok(d) => d,
        Err(e) => return fail(&e.to_string()),
    };
    let text = String::from_utf8_lossy(&doc.raw);
    match inertbox::unwrap::first_json(&text) {
        Some(v) => {
            let mut s = v.to_string();
            s.push('\n');
            emit(s.as_bytes(), ExitCode::SUCCESS)
        }
        None => {
            eprintln!("inertbox: no JSON object or array in the reply");
            ExitCode::from(1)
        }
    }
}

fn kind_of(k: KindArg) -> inertbox::document::Kind {
    use inertbox::document::Kind;
    match k {
        KindArg::Auto => Kind::Auto,
        KindArg::Email => Kind::Email,
        KindArg::Html => Kind::Html,
        KindArg::Text => Kind::Text,
    }
}

/// Write data to stdout in one go; a closed pipe is quiet and keeps `code`.
fn emit(out: &[u8], code: ExitCode) -> ExitCode {
    match io::stdout().lock().write_all(out) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&format!("cannot write output: {e}")),
        _ => code,
    }
}

/// Is this input an email by declaration: `--type email`, or a file named
/// `*.eml`? Only then does its From name a sender the gate trusts
/// (`session::declared_sender`); content that only looks like an email
/// does not.
fn declared_email(kind: KindArg, input: &Input) -> bool {
    kind == KindArg::Email
        || matches!(input, Input::Path(p) if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("eml")))
}

/// Record a document as read in a session file.
fn record(
    session: &Path,
    doc: &inertbox::Document,
    verdict: inertbox::detect::Verdict,
    email: bool,
) -> Result<String, String> {
    use inertbox::gate::Recorder as _;
    let mut file = inertbox::session::Appender::open(session).map_err(|e| e.to_string())?;
    let sender = inertbox::session::declared_sender(doc.email.as_ref(), email);
    let id = file.add_read(&doc.source, verdict, doc.entities.to_vec(), sender);
    file.commit().map_err(|e| e.to_string())?;
    Ok(id)
}

fn run_fence(a: FenceArgs) -> ExitCode {
    use inertbox::fence;
    if let Some(text) = &a.inline {
        let mut out = fence::inline(&lossy(text));
        out.push('\n');
        return emit(out.as_bytes(), ExitCode::SUCCESS);
    }
    let input = Input::from_arg(a.file.as_deref());
    let source = a.source.as_ref().map(lossy);
    let doc = match Document::read_and_load(&input, kind_of(a.kind), Some(a.max_bytes), source) {
        Ok(d) => d,
        Err(e) => return fail(&e.to_string()),
    };
    let report = inertbox::detect::scan(&doc, &inertbox::detect::Options::default());
    let mode = match a.mode {
        ModeArg::Tags => fence::Mode::Tags,
        ModeArg::Datamark => fence::Mode::Datamark,
        ModeArg::Base64 => fence::Mode::Base64,
    };
    let render = match a.format {
        RenderArg::Xml => fence::Render::Xml,
        RenderArg::Markdown => fence::Render::Markdown,
        RenderArg::Json => fence::Render::Json,
    };
    let verdict = report.verdict;
    let opts = fence::Options { source: doc.source.clone(), mode, keep_hidden: a.keep_hidden, render };
    let fenced = match fence::fence(&doc, report, &opts) {
        Ok(f) => f,
        Err(e) => return fail(&e.to_string()),
    };
    if let Some(session) = &a.session
        && let Err(e) = record(session, &doc, verdict, declared_email(a.kind, &input))
    {
        return fail(&e);
    }
    let out = if a.json {
        let mut s = serde_json::to_string_pretty(&fenced).expect("fence serializes");
        s.push('\n');
        s
    } else if a.instructions {
        format!("{}\n{}", fenced.instructions, fenced.text)
    } else {
        fenced.text
    };
    emit(out.as_bytes(), ExitCode::SUCCESS)
}

/// `--call` text: inline JSON, `@FILE`, or `-` for stdin.
fn call_text(arg: &str) -> Result<String, String> {
    if arg == "-" {
        let mut s = String::new();
        io::Read::read_to_string(&mut io::stdin(), &mut s)
            .map_err(|e| format!("cannot read the call from stdin: {e}"))?;
        Ok(s)
    } else if let Some(path) = arg.strip_prefix('@') {
        std::fs::read_to_string(path).map_err(|e| format!("cannot read the call from {path:?}: {e}"))
    } else {
        Ok(arg.to_string())
    }
}

fn run_gate(a: GateArgs) -> ExitCode {
    use inertbox::gate::{self, Journal, Ledger, Policy};
    use inertbox::session::SessionFile;
    let policy = match &a.policy {
        Some(p) => match Policy::load(p) {
            Ok(p) => p,
            Err(e) => return fail(&e.to_string()),
        },
        None => Policy::default(),
    };
    if a.call.is_none() && a.forget.is_empty() && !a.reset {
        return fail("gate needs --call JSON (or --forget ID / --reset with --session); see --help");
    }
    let call = match a.call.as_deref().map(call_text) {
        Some(Ok(t)) => match gate::parse_call(&t) {
            Ok(c) => Some(c),
            Err(e) => return fail(&e.to_string()),
        },
        Some(Err(e)) => return fail(&e),
        None => None,
    };
    // Content given here counts as read.
    let mut docs = Vec::new();
    for c in &a.content {
        let input = Input::from_arg(Some(c));
        match Document::read_and_load(&input, inertbox::document::Kind::Auto, Some(a.max_bytes), None) {
            Ok(d) => {
                let v = inertbox::detect::scan(&d, &inertbox::detect::Options::default()).verdict;
                let email = declared_email(KindArg::Auto, &input);
                docs.push((d, v, email));
            }
            Err(e) => return fail(&e.to_string()),
        }
    }
    // A decision that records nothing only reads the session: it is read
    // as the decision goes, not kept.
    let records = a.reset || !a.forget.is_empty() || !docs.is_empty() || !a.trust.is_empty();
    if !records && let (Some(call), Some(p)) = (&call, &a.session) {
        return match inertbox::session::decide_in(p, call, &policy) {
            Ok(outcome) => gate_answer(&outcome, a.json),
            Err(e) => fail(&e.to_string()),
        };
    }
    let mut session = match &a.session {
        // A reset does not read the old session (it may be the corrupt file
        // being reset).
        Some(p) => match if a.reset { SessionFile::open_reset(p) } else { SessionFile::open(p) } {
            Ok(f) => Some(f),
            Err(e) => return fail(&e.to_string()),
        },
        None => None,
    };
    let mut memory = Ledger::default();
    let ledger: &mut dyn Journal = match &mut session {
        Some(f) => f,
        None => &mut memory,
    };
    if a.reset {
        ledger.reset();
    }
    for id in &a.forget {
        if !ledger.forget(id) {
            return fail(&format!("--forget: no read content with id {id:?} in the session"));
        }
    }
    for (d, v, email) in &docs {
        let sender = inertbox::session::declared_sender(d.email.as_ref(), *email);
        ledger.add_read(&d.source, *v, d.entities.to_vec(), sender);
    }
    // Only what a person sees of the text is trusted.
    for t in &a.trust {
        ledger.trust_text(t);
    }
    // Only a change is written: a plain decision leaves the session as it was.
    if let Some(f) = &mut session
        && let Err(e) = f.commit()
    {
        return fail(&e.to_string());
    }
    let Some(call) = call else { return ExitCode::SUCCESS };
    let history: &dyn gate::History = match &session {
        Some(f) => f,
        None => &memory,
    };
    let outcome = gate::decide(&call, history, &policy);
    drop(session);
    gate_answer(&outcome, a.json)
}

/// Print a gate decision (a summary, or JSON); exit 0 for allow, 1 otherwise.
fn gate_answer(outcome: &inertbox::gate::Outcome, json: bool) -> ExitCode {
    use inertbox::gate::Decision;
    let code = if outcome.decision == Decision::Allow { ExitCode::SUCCESS } else { ExitCode::from(1) };
    let out = if json {
        let mut s = serde_json::to_string_pretty(outcome).expect("outcome serializes");
        s.push('\n');
        s
    } else {
        inertbox::gate::summary(outcome)
    };
    emit(out.as_bytes(), code)
}

/// `scan --clean`: rewrite files without their invisible content.
fn run_clean(files: &[OsString], dry_run: bool) -> ExitCode {
    let mut plans = Vec::new();
    for f in files {
        let input = Input::from_arg(Some(f));
        let Input::Path(path) = &input else { return fail("--clean rewrites files; it cannot read stdin") };
        let raw = match Document::read(&input, None) {
            Ok(d) => d.raw,
            Err(e) => return fail(&e.to_string()),
        };
        let Ok(text) = String::from_utf8(raw) else {
            return fail(&format!("{input}: not valid UTF-8; --clean rewrites text files only"));
        };
        if let Some(cleaned) = inertbox::invisible::clean(&text) {
            plans.push((path.clone(), input.label(), text, cleaned));
        }
    }
    if dry_run {
        let mut out = String::new();
        for (_, label, before, after) in &plans {
            for (line, old, new) in inertbox::invisible::changed_lines(before, after) {
                out.push_str(&format!("{label}:{line}:\n- {old}\n+ {new}\n"));
            }
        }
        let code = if plans.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) };
        return emit(out.as_bytes(), code);
    }
    for (path, label, before, after) in &plans {
        if let Err(e) = inertbox::document::replace_file(path, after.as_bytes()) {
            return fail(&format!("cannot rewrite {label:?}: {e} (the file is unchanged)"));
        }
        eprintln!("inertbox: cleaned {label}: removed {} bytes of invisible content", before.len() - after.len());
    }
    ExitCode::SUCCESS
}

fn run_scan(a: ScanArgs) -> ExitCode {
    use inertbox::detect::{self, Code, Verdict};
    use inertbox::document::Kind;
    if a.clean {
        return run_clean(&a.files, a.dry_run);
    }
    if a.no_colour {
        anstream::ColorChoice::Never.write_global();
    }
    let mut ignore = Vec::new();
    for name in &a.ignore {
        match Code::parse(name.trim()) {
            Some(c) => ignore.push(c),
            None => {
                let known: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
                return fail(&format!("--ignore: unknown finding code {name:?} (known: {})", known.join(", ")));
            }
        }
    }
    if a.review_at > a.block_at {
        return fail("--review-at must not be above --block-at");
    }
    let kind = match a.kind {
        KindArg::Auto => Kind::Auto,
        KindArg::Email => Kind::Email,
        KindArg::Html => Kind::Html,
        KindArg::Text => Kind::Text,
    };
    let opts = detect::Options { review_at: a.review_at, block_at: a.block_at, ignore };
    let inputs: Vec<Input> = if a.files.is_empty() {
        vec![Input::Stdin]
    } else {
        a.files.iter().map(|f| Input::from_arg(Some(f))).collect()
    };
    if inputs.iter().filter(|i| i.is_stdin()).count() > 1 {
        return fail("stdin (`-`) can be read only once");
    }
    let source = a.source.as_ref().map(lossy);
    let reports = match detect::scan_inputs(&inputs, kind, a.max_bytes, source.as_deref(), &opts) {
        Ok(r) => r,
        Err(e) => return fail(&e.to_string()),
    };
    if let Some(session) = &a.session {
        use inertbox::gate::Recorder as _;
        let recorded = inertbox::session::Appender::open(session).and_then(|mut file| {
            for ((_, r), input) in reports.iter().zip(&inputs) {
                let sender = inertbox::session::declared_sender(r.email.as_ref(), declared_email(a.kind, input));
                file.add_read(&r.source, r.verdict, r.entities.to_vec(), sender);
            }
            file.commit()
        });
        if let Err(e) = recorded {
            return fail(&e.to_string());
        }
    }
    let format = if a.json { ScanFormat::Json } else { a.format.unwrap_or(ScanFormat::Human) };
    let out = match format {
        ScanFormat::Human => reports.iter().map(|(_, r)| inertbox::report::human(r)).collect::<Vec<_>>().join("\n"),
        ScanFormat::Json if reports.len() == 1 => inertbox::report::json(&reports[0].1),
        ScanFormat::Json => reports.iter().map(|(_, r)| inertbox::report::json_line(r)).collect(),
        ScanFormat::Sarif => inertbox::report::sarif(&reports),
    };
    let worst = reports.iter().map(|(_, r)| r.verdict).max().unwrap_or(Verdict::Allow);
    let flagged = match a.fail_on {
        FailOn::Review => worst >= Verdict::Review,
        FailOn::Block => worst >= Verdict::Block,
    };
    let code = if flagged { ExitCode::from(1) } else { ExitCode::SUCCESS };
    let written = if format == ScanFormat::Human {
        anstream::stdout().lock().write_all(out.as_bytes())
    } else {
        io::stdout().lock().write_all(out.as_bytes())
    };
    match written {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => fail(&format!("cannot write output: {e}")),
        _ => code,
    }
}

fn run_wrap(a: WrapArgs) -> ExitCode {
    let input = Input::from_arg(a.file.as_deref());
    let opts = WrapOptions {
        source: a.source.as_ref().map(lossy).unwrap_or_else(|| input.label()),
        timestamp: a.timestamp.then(format::timestamp_now),
    };
    // With --scan, stdin is read once and used for both.
    let stdin_bytes = if a.scan && input.is_stdin() {
        match Document::read(&input, None) {
            Ok(d) => Some(d.raw),
            Err(e) => return fail(&e.to_string()),
        }
    } else {
        None
    };
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let wrapped = match &stdin_bytes {
        Some(bytes) => format::wrap_bytes(bytes, &opts).and_then(|w| {
            out.write_all(&w.doc).and_then(|()| out.flush()).map_err(WrapError::Write)?;
            Ok(w.stamp)
        }),
        None => format::wrap_input(&input, &opts, &mut out),
    };
    drop(out);
    let code = match wrapped {
        Ok(stamp) => {
            if stamp.collision {
                eprintln!("inertbox: warning: {COLLISION_WARNING}");
            }
            ExitCode::SUCCESS
        }
        // The reader went away: end quietly with wrap's own verdict.
        Err(WrapError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => return fail(&e.to_string()),
    };
    if a.scan {
        advisory_scan(&input, stdin_bytes, &opts.source);
    }
    code
}

/// `wrap --scan`: findings on stderr, never touching stdout or the exit code.
fn advisory_scan(input: &Input, bytes: Option<Vec<u8>>, source: &str) {
    let raw = match bytes {
        Some(b) => b,
        None => match Document::read(input, Some(inertbox::detect::DEFAULT_MAX_BYTES)) {
            Ok(d) => d.raw,
            Err(e) => {
                eprintln!("inertbox scan: skipped ({e})");
                return;
            }
        },
    };
    let doc = Document::load(raw, inertbox::document::Kind::Auto, source);
    let r = inertbox::detect::scan(&doc, &inertbox::detect::Options::default());
    let mut err = io::stderr().lock();
    let _ = writeln!(
        err,
        "inertbox scan: {} (score {}), {} finding(s); advisory only: the wrapped output and exit code do not change",
        r.verdict.as_str(),
        r.score,
        r.findings.len() + r.findings_omitted
    );
    for f in &r.findings {
        let _ = writeln!(
            err,
            "  - {} {} [{}] line {}: \"{}\"",
            f.severity.as_str(),
            f.code.as_str(),
            f.rule,
            f.line,
            format::terminal_safe(&f.text)
        );
    }
}

fn run_check(a: CheckArgs) -> ExitCode {
    let (targets, problems) = checkrun::collect_targets(&a.paths);
    let checked = checkrun::check_targets(targets);
    let code = checkrun::exit_code(&checked, &problems);
    let format = if a.json { CheckFormat::Json } else { a.format.unwrap_or(CheckFormat::Human) };
    // On exit 2 stdout stays empty, whatever the format: the reasons go to stderr.
    match format {
        CheckFormat::Json if code != EXIT_CANNOT => {
            emit(checkrun::json_report(&checked, &problems).as_bytes(), ExitCode::from(code))
        }
        CheckFormat::Github if code != EXIT_CANNOT => {
            emit(checkrun::github_annotations(&checked, &problems).as_bytes(), ExitCode::from(code))
        }
        _ => {
            let mut err = io::stderr().lock();
            for line in checkrun::human_lines(&checked, &problems, a.quiet) {
                let _ = writeln!(err, "{line}");
            }
            ExitCode::from(code)
        }
    }
}

/// Report a could-not-run error on stderr and exit 2.
fn fail(msg: &str) -> ExitCode {
    eprintln!("inertbox: {msg}");
    ExitCode::from(EXIT_CANNOT)
}
