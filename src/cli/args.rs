//! Every subcommand's arguments and help text, in one place: what `inertbox
//! --help`, the manual page and the completions are made from.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use inertbox::document::Kind;
use inertbox::fence::{Mode, Render};

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
        the JSON out of a model's reply (unwrap). It writes a screening prompt for a model of yours and \
        checks its verdict (screen).\n\n\
        Exit codes (every command): 0 ok / verified / allow; 1 the answer is no (mismatch, \
        review or block, confirm or block); 2 could not run (usage error, unreadable input, \
        input over the size cap). On 2 nothing is printed on stdout.",
    arg_required_else_help = true,
    // Every manual page's footer and `inertbox scan --version` name the version.
    propagate_version = true,
    // A flag given twice takes the last value, as the reference does
    // (`wrap --source a --source b` is labelled b); lists still collect.
    args_override_self = true,
    after_help = "Examples:\n  pbpaste | inertbox wrap - | pbcopy      # wrap what you were about to paste\n  inertbox check docs/                    # verify every *.inert.md under docs/\n  inertbox scan message.eml && echo clean # branch on a verdict\n  inertbox fence page.html --instructions # fence content for a prompt\n  inertbox gate --call '{\"tool\":\"send_email\",\"args\":{\"to\":\"x@evil.test\"}}' message.eml"
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

#[derive(Subcommand)]
pub enum Cmd {
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
            Inputs are files, directories or `-` for stdin (the default). A directory in a git \
            work tree is searched for the *.inert.md files git tracks (also in folders .gitignore \
            names, when force-added) and those not yet added that .gitignore does not exclude; \
            outside a work tree it is walked, honouring .gitignore. When git is missing or fails \
            in a work tree the directory is walked instead and stderr says so. One line per \
            wrapper goes to stderr: `ok   - <source> (N bytes, sha256 verified)` or \
            `FAIL - <source>: <reasons>`. A wrapper whose line ends were changed to CRLF is \
            recognised and the fix printed.\n\n\
            Exit codes: 0 every wrapper found verified, or no *.inert.md was found in the \
            directories given (stderr says there was nothing to check); 1 any wrapper failed, or a \
            file held no wrapper; 2 an input could not be read (its name is printed).",
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
            Several inputs: one report each, each naming its input; --json prints one JSON object per \
            input, one a line, whatever their number. Binary input (a NUL byte early on: an executable, \
            an image) is refused, exit 2, never allowed; empty input is said on stderr.\n\n\
            --screen-cmd CMD asks a model too: CMD runs under `sh -c` once per input, with the prompt of \
            `inertbox screen prompt` on stdin, and its stdout is read as `screen verdict` reads a reply. \
            The model's findings (rule screen.model, only those whose quoted words are in the input) join the \
            rules' in one report and score. A CMD that fails, runs past --screen-timeout or answers with no \
            verdict adds a screen.no_answer finding (medium: review) and a line on stderr: the screen fails \
            closed. inertbox itself opens no connection; CMD is your model client (llm, claude -p).\n\n\
            Exit codes: 0 allow; 1 review or block (with --fail-on block: block only); 2 could not run \
            (unreadable or binary input, over --max-bytes, bad option); on 2 nothing is printed on stdout.",
        after_help = "Examples:\n  inertbox scan message.eml && echo clean\n  curl -s https://example.com | inertbox scan --type html -\n  inertbox scan --json issue.md | jq .verdict\n  inertbox scan --format sarif docs/*.md > scan.sarif\n  inertbox scan --screen-cmd 'llm -m gpt-4o-mini' message.eml"
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
            an address or link only the content mentioned confirms (blocks after an injection), unless the \
            user's latest request asks for that kind of action ('pay the bill in bill.txt') and clean \
            content gave the account, an address whose mailbox starts with a name the user typed, a \
            name reads of two sources give, or an object a tool's JSON answer listed (for a forward, a \
            share or an access call whose recipients the user typed, or for a booking), with no \
            look-alike of it read \
            (docs/gate.md); a write into a folder only the content named, a write that puts a link or \
            address only content from afar mentioned (not the agent's reads of the user's files) into a \
            file that did not hold it, a payment of a sum the request \
            did not write, and a deletion of what the request did not name confirm; a link nobody gave \
            the model with data in its query confirms.\n\n\
            Content files given here count as read. --session FILE keeps the ledger (what was read, what \
            the user trusted) between runs; fence and scan add to it with their own --session. The file is \
            text, one record per line, appended to as the session goes (format in docs/session.md).\n\n\
            Exit codes: 0 allow; 1 confirm or block; 2 could not run (bad JSON, bad policy, corrupt session).",
        after_help = "Examples:\n  inertbox gate --call '{\"tool\":\"send_email\",\"args\":{\"to\":\"x@evil.test\"}}' message.eml\n  inertbox gate --session s.session --trust \"mail the report to me@corp.example\" --call @call.json\n  inertbox gate --session s.session --reset"
    )]
    Gate(GateArgs),
    /// Serve the tools to an agent over MCP (stdio), or stand in front of another MCP server (mcp proxy)
    #[command(
        long_about = "Run a Model Context Protocol server over stdio (JSON-RPC 2.0, one JSON message per line; \
            protocol versions 2025-06-18, 2025-03-26 and 2024-11-05). Tools: fence_content, check_action, \
            scan_content, reset_session, and screen_prompt / screen_verdict (a prompt for the agent to send \
            to a model of its own, and that model's reply checked; see `inertbox screen --help`). The session ledger lives in memory for the life of the process.\n\n\
            `inertbox mcp proxy -- SERVER…` stands in front of another MCP server instead: every tool call \
            gated, every tool result scanned and fenced, poisoned or changed tool descriptions withheld \
            (see its own help). `inertbox mcp pins` shows and accepts changed tool definitions.",
        after_help = "Claude Code: claude mcp add inertbox -- inertbox mcp\n\
            In front of a server: claude mcp add mail -- inertbox mcp proxy -- npx -y @acme/mail-mcp",
        args_conflicts_with_subcommands = true
    )]
    Mcp(McpArgs),
    /// Answer agent hook events (Claude Code: UserPromptSubmit, PostToolUse, PreToolUse, SessionStart, InstructionsLoaded)
    #[command(subcommand)]
    Hook(HookCmd),
    /// Ask a model for a second opinion: print a screening prompt, read the model's verdict
    #[command(
        subcommand,
        long_about = "Ask a model of yours for a second opinion on whether a text tries to give instructions \
            to an AI that processes it. The rules of `scan` catch the wordings they were written for; a model \
            reads paraphrase. inertbox has no model client: `screen prompt` prints the prompt, you send it to \
            the model you use (llm, claude -p, an API), and `screen verdict` checks the reply and reports it as \
            `scan` does. `scan --screen-cmd CMD` does the whole loop and merges the model's findings with the \
            rules'.\n\n\
            The model must quote the exact words it calls an injection; a quote that is not in the content \
            earns nothing, and a claim with no quote scores 0. Still, the screen is a second opinion, not a \
            guarantee: the model reads the very text it judges and can miss or be talked round. Fence the \
            content and gate what follows either way (docs/screen.md).",
        after_help = "The loop:\n  inertbox screen prompt --json mail.eml > p.json\n  \
            jq -r .prompt p.json | llm -m gpt-4o-mini > reply.txt\n  \
            inertbox screen verdict --content mail.eml --nonce \"$(jq -r .nonce p.json)\" reply.txt\n\n\
            In one step:\n  inertbox scan --screen-cmd 'claude -p' mail.eml"
    )]
    Screen(ScreenCmd),
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
        after_help = "Examples:\n  mkdir -p ~/.local/share/bash-completion/completions\n  inertbox completions bash > ~/.local/share/bash-completion/completions/inertbox\n  mkdir -p ~/.zfunc && inertbox completions zsh > ~/.zfunc/_inertbox\n  mkdir -p ~/.config/fish/completions && inertbox completions fish > ~/.config/fish/completions/inertbox.fish"
    )]
    Completions {
        /// The shell to write completions for
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff), or write every page into a directory
    #[command(
        long_about = "Print the manual page of inertbox, or of one of its commands (inertbox-scan(1) for \
            `inertbox man scan`, inertbox-hook-claude(1) for `inertbox man hook claude`), in roff on \
            stdout. With --dir, write every page (inertbox.1, inertbox-wrap.1, inertbox-check.1, …) into \
            that directory, creating it, and print their paths on stderr.",
        after_help = "Examples:\n  inertbox man --dir ~/.local/share/man/man1 && man inertbox-scan\n  inertbox man check | man -l -"
    )]
    Man(ManArgs),
}

#[derive(Args)]
pub struct ManArgs {
    /// The command whose page to print (e.g. scan, or hook claude); none: the main page
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
    /// Write every page into this directory (created if missing) instead of printing one
    #[arg(long, value_name = "DIR", conflicts_with = "command")]
    pub dir: Option<PathBuf>,
}

#[derive(Args)]
pub struct ServeArgs {
    /// Newline-delimited JSON on stdin and stdout (the only protocol, and required so scripts say what they expect)
    #[arg(long, required = true)]
    pub ndjson: bool,
    /// Policy file for gate requests (JSON; see docs/gate.md)
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Refuse content larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub cmd: Option<McpCmd>,
    /// Policy file for check_action (JSON; see docs/gate.md)
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Refuse content larger than this many bytes (a tool error)
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Subcommand)]
pub enum McpCmd {
    /// Stand between an MCP client and an MCP server: gate its calls, fence its results, pin its tools
    #[command(
        long_about = "Start an MCP server (the command after `--`) as a child over stdio and stand between it \
            and the client that started this command, newline-delimited JSON-RPC 2.0 both ways. Every message \
            passes through unchanged (ids, notifications, the server's own requests such as sampling, \
            elicitation and roots, and their answers), the server's stderr goes to ours, and when either side \
            closes the other is closed and the proxy exits with the server's exit status. Except:\n\n\
            Tool descriptions: on tools/list each tool's name, description and input schema are scanned (and \
            the server's instructions in its initialize answer); a tool whose definition speaks to the model \
            (an override, a hidden directive, a request to read files or send data, secrecy toward the user) \
            is withheld from the list and named on stderr with the finding.\n\n\
            Pins: the first time a server's tools pass, a digest of each definition is written to the pins \
            file (--pins, default $XDG_STATE_HOME/inertbox/mcp-pins.json, keyed by the server's command). A \
            definition that changed since, a new tool or a renamed one is withheld until you accept it: \
            `inertbox mcp pins accept -- SERVER…` shows the diff and takes it.\n\n\
            Calls: each tools/call is judged by the gate against the session (categories from the tool's \
            name and the server's readOnlyHint, destructiveHint and openWorldHint, which can only make a call \
            riskier). A blocked call never reaches the server: the client gets a tool result with isError \
            and a text starting with `inertbox` that says why. A call to confirm is put to the user through \
            MCP elicitation when the client declared it, and otherwise answered like a block, with how to \
            allow such calls in the policy.\n\n\
            Results: each tool result's text is scanned and recorded in the session as read; on a review or \
            block verdict its text content is replaced by a fence (a nonce, hidden text removed, the \
            findings named), so the model reads it as data. Images and resources pass unchanged.\n\n\
            A message from the client that is not JSON-RPC gets a JSON-RPC error; one from the server is \
            dropped with a note on stderr; a message longer than 24 MiB is refused unread. The session is \
            in memory, or --session FILE, the same file `gate`, `scan --session` and the hooks use.\n\n\
            Exit codes: the server's exit status (128 + N when signal N ended it); 2 when the proxy could \
            not start (no server command, a server that cannot be started, a bad policy or pins file).",
        after_help = "Examples:\n  \
            claude mcp add mail -- inertbox mcp proxy -- npx -y @acme/mail-mcp\n  \
            claude mcp add fs -- inertbox mcp proxy --session ~/.local/state/inertbox/fs.session -- npx -y @modelcontextprotocol/server-filesystem ~/work\n  \
            inertbox mcp pins show                            # what is pinned, what waits for you\n  \
            inertbox mcp pins accept -- npx -y @acme/mail-mcp # see the change, take it\n\n\
            Claude Desktop and Cursor: put inertbox first in the server's entry, \
            {\"command\": \"inertbox\", \"args\": [\"mcp\", \"proxy\", \"--\", \"npx\", \"-y\", \"@acme/mail-mcp\"]} \
            (README: MCP proxy)."
    )]
    Proxy(McpProxyArgs),
    /// Show and accept the tool definitions `mcp proxy` has pinned
    #[command(subcommand)]
    Pins(PinsCmd),
}

#[derive(Args)]
pub struct McpProxyArgs {
    /// Policy file for the gate (JSON; see docs/gate.md)
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Session file shared with gate, scan, fence and the hooks (default: a ledger in memory)
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// Pins file (default: mcp-pins.json in $XDG_STATE_HOME/inertbox)
    #[arg(long, value_name = "FILE")]
    pub pins: Option<PathBuf>,
    /// Scan at most this many bytes of a tool result (the rest counts as unread untrusted content)
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
    /// The MCP server to start: its command and arguments, after `--`
    #[arg(last = true, required = true, value_name = "SERVER")]
    pub server: Vec<OsString>,
}

#[derive(Subcommand)]
pub enum PinsCmd {
    /// Show the pinned servers and, for one server, the changes waiting to be accepted
    #[command(long_about = "Without a server: one line per server in the pins file, with how many tools are pinned \
            and which changes wait. With a server (its command after `--`, as `mcp proxy` runs it): the \
            diff of each change waiting to be accepted.\n\n\
            Exit codes: 0 nothing waits; 1 a change waits to be accepted; 2 the pins file cannot be read.")]
    Show(PinsArgs),
    /// Accept a server's changed or new tool definitions (shows the diff of each)
    #[command(
        long_about = "Take the tool definitions `mcp proxy` withheld because they changed since they were \
            pinned (or are new): print the diff of each, then pin it, so the proxy passes it from its next \
            listing. The server is named by its command after `--`, as the proxy runs it. --tool accepts only \
            the tools named; a tool with no change waiting is an error.\n\n\
            Exit codes: 0 accepted (or nothing waited); 2 no such server or change, or the pins file cannot \
            be read or written.",
        after_help = "Example:\n  inertbox mcp pins accept --tool send_email -- npx -y @acme/mail-mcp"
    )]
    Accept(PinsArgs),
}

#[derive(Args)]
pub struct PinsArgs {
    /// Pins file (default: mcp-pins.json in $XDG_STATE_HOME/inertbox)
    #[arg(long, value_name = "FILE")]
    pub pins: Option<PathBuf>,
    /// Only this tool (repeatable; accept only)
    #[arg(long, value_name = "NAME")]
    pub tool: Vec<String>,
    /// The MCP server, its command and arguments as `mcp proxy` runs it, after `--`
    #[arg(last = true, value_name = "SERVER")]
    pub server: Vec<OsString>,
}

#[derive(Subcommand)]
pub enum HookCmd {
    /// Claude Code hooks: read one event on stdin, answer on stdout
    #[command(
        long_about = "Read one Claude Code hook event (JSON on stdin) and answer as Claude Code expects: exit 0 \
            with JSON on stdout, or nothing when there is nothing to say.\n\n\
            UserPromptSubmit: verifies INERTBOX wrappers pasted into the prompt and says what verified; notes \
            invisible characters and escapes, blocks a prompt whose hidden characters spell a payload.\n\n\
            PostToolUse: scans the tool's output, records it in the session ledger, and on review or block adds \
            context that fences the verdict. The output comes back cleaned in its own shape (updatedMCPToolOutput \
            for an MCP tool, updatedToolOutput for a built-in one, Claude Code 2.1.121 or later): invisible \
            characters and escapes removed, hidden HTML text replaced by a placeholder, credentials redacted; \
            `hook reveal ID` prints what was removed.\n\n\
            PreToolUse: gates the call against the ledger: deny on block, ask on confirm, nothing on allow. \
            Text the model writes (a command line, a file, an edit, a message) loses invisible characters and \
            escapes, look-alike letters in command and host names are read as Latin, and an Edit or Write \
            composed on a cleaned view of a file lands on its real bytes: such a call is asked about with the \
            changed input (updatedInput); one that cannot be mapped is denied with the reason.\n\n\
            SessionStart, InstructionsLoaded: scans the instruction files being loaded (CLAUDE.md, AGENTS.md, \
            SKILL.md, .cursorrules...) and reports text they hide, with `inertbox scan --clean FILE` as the fix.\n\n\
            The ledger is a file per session_id under $XDG_STATE_HOME/inertbox/sessions (default \
            ~/.local/state/inertbox/sessions), or --session FILE. Malformed input: PreToolUse denies once \
            untrusted content was read and asks when it cannot tell; other events pass with a note.\n\n\
            When `inertbox hook serve` runs (see its help), UserPromptSubmit and PostToolUse are answered \
            there, faster and the same; --no-server answers in this process, as does an event named \
            PreToolUse on the command line (it only reads the ledger).",
        after_help = "Install: see docs/hooks.md (settings.json snippet, or the plugin in this repository)."
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
    /// Print what a PostToolUse hook removed from a tool's output (the id is in its note)
    #[command(long_about = "Print what `hook claude` removed from a tool's output before the model read it \
            (invisible characters and escapes, hidden HTML text, credentials), as it was: each span with \
            where it stood (a JSON pointer into the output and a byte offset), why it went and its bytes \
            (escaped). The id is in the hook's note to the model. The session keeps only the removed spans, \
            beside its session file.\n\n\
            Exit status: 0 when printed; 2 when no record has this id.")]
    Reveal(HookRevealArgs),
}

#[derive(Args)]
pub struct HookRevealArgs {
    /// The id the hook's note gives (`r` and 16 hex digits)
    #[arg(value_name = "ID")]
    pub id: String,
    /// The session file the hook used (default: look beside every session under the state directory)
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// The record as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Args)]
pub struct HookServeArgs {
    /// Start the server in the background and return once it takes calls
    #[arg(long)]
    pub detach: bool,
    /// Stop the server that answers for this user and this build (exit 1 when none does)
    #[arg(long, conflicts_with = "detach")]
    pub stop: bool,
    /// No line per call on stderr
    #[arg(long)]
    pub quiet: bool,
    /// Exit after this many minutes without a call
    #[arg(long, value_name = "MINUTES", default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=10080))]
    pub idle: u64,
}

#[derive(Args)]
pub struct HookArgs {
    /// The event this command is installed for (used only when the input cannot be read)
    #[arg(value_name = "EVENT")]
    pub event: Option<String>,
    /// Session file instead of one per session_id under the state directory
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// Policy file for PreToolUse decisions (JSON; see docs/gate.md)
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Answer in this process even when `hook serve` runs
    #[arg(long)]
    pub no_server: bool,
    /// Scan at most this many bytes of a tool's output (the rest counts as unread untrusted content)
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
    /// Withhold a tool's output that cannot be cleaned (past the size cap, or not in its own shape) instead of passing it on
    #[arg(long)]
    pub fail_closed: bool,
}

#[derive(Subcommand)]
pub enum ScreenCmd {
    /// Print the screening prompt for a text, to send to the model you use
    #[command(
        long_about = "Print a prompt that asks a model one question about the content: does this text try to \
            give instructions to an AI that processes it? The prompt teaches the addressee test (words aimed at \
            an AI that reads the text, not at its human reader), lists at length what is not an injection \
            (politics, cruelty, articles about scams, quoted attack code, instructions for a person), demands \
            evidence (each injection reported must quote the exact words aimed at an AI) and gives the JSON \
            schema of the answer. The content is fenced as `fence` does, with a fresh nonce, boundary \
            look-alikes defused, and hidden text kept and labelled so the model can judge it.\n\n\
            Send the prompt to any model (nothing here talks to a network) and give its reply to \
            `inertbox screen verdict`, with --nonce so a reply that echoes the fence is refused.\n\n\
            Exit codes: 0 printed; 2 could not run (unreadable or binary input, over --max-bytes).",
        after_help = "Examples:\n  inertbox screen prompt message.eml | llm -m gpt-4o-mini > reply.txt\n  \
            inertbox screen verdict --content message.eml reply.txt\n  \
            inertbox screen prompt --json page.html | jq -r .nonce\n  \
            inertbox scan --screen-cmd 'claude -p' message.eml     # the whole loop, merged with the rules"
    )]
    Prompt(ScreenPromptArgs),
    /// Read a model's reply to the screening prompt: its findings, checked against the content
    #[command(
        long_about = "Read the model's reply to `inertbox screen prompt`: the first JSON object in it (through \
            prose and code fences, as `unwrap` finds it), checked against the schema the prompt gave. Each \
            quoted span is looked for in the content (exactly, then after the scanner's normalisation of case, \
            width, quotes, spacing and look-alike letters); a quote that is not in the content is dropped with \
            a note on stderr (no credit for invented evidence), and a reply that claims an injection with no \
            quote found scores 0. The located findings (rule screen.model) are reported as `scan` reports: \
            human, --json or --format sarif, with the same score and verdict.\n\n\
            Refused, exit 2 with the reason on stderr and nothing on stdout: an empty reply, one that echoes \
            the --nonce, one with no JSON object, one not in the schema, one over 1 MiB.\n\n\
            Exit codes: 0 allow; 1 review or block (with --fail-on block: block only); 2 could not run \
            or the reply is not a verdict.",
        after_help = "Examples:\n  inertbox screen prompt --json mail.eml > p.json\n  \
            jq -r .prompt p.json | claude -p > reply.txt\n  \
            inertbox screen verdict --content mail.eml --nonce \"$(jq -r .nonce p.json)\" reply.txt"
    )]
    Verdict(ScreenVerdictArgs),
}

#[derive(Args)]
pub struct ScreenPromptArgs {
    /// Content to screen; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
    /// Something the model must not report here (repeatable), e.g. "the instructions to the support agent in the ticket template"
    #[arg(long, value_name = "TEXT")]
    pub exclude: Vec<OsString>,
    /// Print {prompt, nonce} as one JSON object
    #[arg(long)]
    pub json: bool,
    /// Source label in the fence (default: the file's name, or `stdin`)
    #[arg(long, value_name = "LABEL")]
    pub source: Option<OsString>,
    /// What the input is; auto sniffs mail headers and markup
    #[arg(long = "type", value_enum, default_value_t = Kind::Auto)]
    pub kind: Kind,
    /// Refuse inputs larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Args)]
pub struct ScreenVerdictArgs {
    /// The model's reply; `-` or nothing reads stdin
    #[arg(value_name = "REPLY")]
    pub reply: Option<OsString>,
    /// The content the prompt was made from (the same file, read the same way)
    #[arg(long, value_name = "FILE", required = true)]
    pub content: OsString,
    /// The prompt's nonce (`screen prompt --json` prints it): a reply that echoes it is refused
    #[arg(long, value_name = "NONCE")]
    pub nonce: Option<String>,
    /// What the content is; auto sniffs mail headers and markup (as given to `screen prompt`)
    #[arg(long = "type", value_enum, default_value_t = Kind::Auto)]
    pub kind: Kind,
    #[command(flatten)]
    pub report: ReportArgs,
    /// No colour, even on a terminal (NO_COLOR in the environment does the same)
    #[arg(long = "no-colour", alias = "no-color")]
    pub no_colour: bool,
    /// Refuse content larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Args)]
pub struct UnwrapArgs {
    /// The reply; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
    /// Refuse a reply larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Args)]
pub struct WrapArgs {
    /// Text file to wrap; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    pub file: Option<OsString>,
    /// Source label for the header (default: the file path, or `-` for stdin); one line, no control characters
    #[arg(long, value_name = "NAME", allow_hyphen_values = true)]
    pub source: Option<OsString>,
    /// Add a `generated:` line with the current UTC time (ISO-8601, milliseconds)
    #[arg(long)]
    pub timestamp: bool,
    /// Also scan the content and print the findings on stderr (advisory: stdout and the exit code do not change)
    #[arg(long)]
    pub scan: bool,
    /// With --scan: skip the scan of content larger than this many bytes (wrapping has no limit)
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Args)]
pub struct CheckArgs {
    /// Wrapped documents or directories to verify; `-` or nothing reads stdin
    #[arg(value_name = "PATH")]
    pub paths: Vec<OsString>,
    /// Print one JSON report on stdout instead of lines on stderr (same as --format json): {ok, status, files, notes}
    #[arg(long)]
    pub json: bool,
    /// Output: human lines on stderr, one JSON report, or GitHub Actions annotations on stdout
    #[arg(long, value_enum)]
    pub format: Option<CheckFormat>,
    /// Print failures only
    #[arg(long, short)]
    pub quiet: bool,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CheckFormat {
    Human,
    Json,
    Github,
}

#[derive(Args)]
pub struct ScanArgs {
    /// Files to scan; `-` or nothing reads stdin
    #[arg(value_name = "FILE")]
    pub files: Vec<OsString>,
    /// What the input is; auto sniffs mail headers and markup
    #[arg(long = "type", value_enum, default_value_t = Kind::Auto)]
    pub kind: Kind,
    #[command(flatten)]
    pub report: ReportArgs,
    /// Score at which the verdict is review
    #[arg(long, value_name = "N", default_value_t = inertbox::detect::DEFAULT_REVIEW_AT)]
    pub review_at: u32,
    /// Score at which the verdict is block (any high finding blocks too)
    #[arg(long, value_name = "N", default_value_t = inertbox::detect::DEFAULT_BLOCK_AT)]
    pub block_at: u32,
    /// Finding codes to leave out, comma-separated (e.g. invisible_chars,bidi_override)
    #[arg(long, value_name = "CODES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Source label for every report (default: the path as given, or `stdin`); reports still name their input
    #[arg(long, value_name = "NAME")]
    pub source: Option<OsString>,
    /// No colour, even on a terminal (NO_COLOR in the environment does the same)
    #[arg(long = "no-colour", alias = "no-color")]
    pub no_colour: bool,
    /// Refuse inputs larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
    /// Record what was scanned as read in this session file (for `gate`)
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// Rewrite each FILE with smuggled and invisible content removed (CLAUDE.md, AGENTS.md, SKILL.md…)
    #[arg(long, requires = "files")]
    pub clean: bool,
    /// With --clean: show what would change, write nothing (exit 1 if anything would)
    #[arg(long, requires = "clean")]
    pub dry_run: bool,
    /// Also ask a model: run CMD (with `sh -c`) with the screening prompt on stdin, read its verdict from stdout
    #[arg(long, value_name = "CMD", conflicts_with = "clean")]
    pub screen_cmd: Option<String>,
    /// With --screen-cmd: seconds to wait for the model before counting it as no answer
    #[arg(long, value_name = "SECS", requires = "screen_cmd", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub screen_timeout: u64,
}

/// How a report is printed and what exit code it gives (`scan`, `screen verdict`).
#[derive(Args)]
pub struct ReportArgs {
    /// Print one JSON object per input, one a line (same as --format json)
    #[arg(long)]
    pub json: bool,
    /// Output format: human, json (one JSON object per input, one a line, `input` naming it) or sarif (SARIF 2.1.0)
    #[arg(long, value_enum)]
    pub format: Option<ScanFormat>,
    /// Exit 1 at this verdict or worse
    #[arg(long, value_enum, default_value_t = FailOn::Review)]
    pub fail_on: FailOn,
}

impl ReportArgs {
    pub fn format(&self) -> ScanFormat {
        if self.json { ScanFormat::Json } else { self.format.unwrap_or(ScanFormat::Human) }
    }
}

#[derive(Args)]
pub struct FenceArgs {
    /// Content to fence; `-` or nothing reads stdin
    #[arg(value_name = "FILE", conflicts_with = "inline")]
    pub file: Option<OsString>,
    /// Source label for the fence (default: the file's name without its folders, or `stdin`)
    #[arg(long, value_name = "LABEL")]
    pub source: Option<OsString>,
    /// Isolation inside the fence
    #[arg(long, value_enum, default_value_t = Mode::Tags)]
    pub mode: Mode,
    /// Keep hidden text, labelled as hidden, instead of removing it
    #[arg(long)]
    pub keep_hidden: bool,
    /// Print the system-prompt text for this nonce and mode before the fence
    #[arg(long)]
    pub instructions: bool,
    /// Print one JSON object for a program, {text, instructions, nonce, mode, scan} (--format picks what `text` holds)
    #[arg(long)]
    pub json: bool,
    /// What the fenced content is written as: xml tags, a markdown code block, or a JSON object (not --json)
    #[arg(long, value_enum, default_value_t = Render::Xml)]
    pub format: Render,
    /// What the input is; auto sniffs mail headers and markup
    #[arg(long = "type", value_enum, default_value_t = Kind::Auto)]
    pub kind: Kind,
    /// Record the content as read in this session file (for `gate`)
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// Neutralise a short span (a subject line, a file name) instead of fencing a file
    #[arg(long, value_name = "TEXT")]
    pub inline: Option<OsString>,
    /// Refuse inputs larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Args)]
pub struct GateArgs {
    /// The tool call: JSON {"tool": NAME, "args": {...}} (or name/arguments, name/input); `@FILE` reads a file, `-` stdin
    #[arg(long, value_name = "JSON")]
    pub call: Option<String>,
    /// Untrusted content the agent read (counted as read before the call is judged)
    #[arg(value_name = "CONTENT")]
    pub content: Vec<OsString>,
    /// Policy file (JSON; see docs/gate.md)
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// Session file shared with fence/scan/hooks (locked; records are appended; format in docs/session.md)
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// Text the user typed or vouches for (its addresses and links become trusted); repeatable
    #[arg(long, value_name = "TEXT")]
    pub trust: Vec<String>,
    /// Print {decision, tool, category, reasons, targets} as JSON
    #[arg(long)]
    pub json: bool,
    /// Forget one read content (by id) from the session
    #[arg(long, value_name = "ID", requires = "session")]
    pub forget: Vec<String>,
    /// Empty the session
    #[arg(long, requires = "session")]
    pub reset: bool,
    /// Refuse content larger than this many bytes
    #[arg(long, value_name = "N", env = "INERTBOX_MAX_BYTES", default_value_t = inertbox::input::DEFAULT_MAX_BYTES)]
    pub max_bytes: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ScanFormat {
    Human,
    Json,
    Sarif,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    Review,
    Block,
}

/// Words people try for a command, and the command that does it: clap
/// suggests only names spelled alike.
const SYNONYMS: &[(&str, &str)] = &[
    ("verify", "check"),
    ("validate", "check"),
    ("detect", "scan"),
    ("lint", "scan"),
    ("analyze", "scan"),
    ("analyse", "scan"),
    ("inspect", "scan"),
    ("sanitize", "scan"),
    ("sanitise", "scan"),
    ("clean", "scan"),
    ("quote", "fence"),
    ("guard", "gate"),
    ("decide", "gate"),
    ("server", "serve"),
    ("extract", "unwrap"),
];

/// Parse the command line; an unknown command that is a known synonym gets
/// clap's own "a similar subcommand exists" tip (`inertbox verify` →
/// check). Usage errors exit 2, help and version 0, as clap does.
pub fn parse(args: Vec<OsString>) -> Cli {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let e = match Cli::try_parse_from(&args) {
        Ok(cli) => return cli,
        Err(e) => e,
    };
    let said = match e.get(ContextKind::InvalidSubcommand) {
        Some(ContextValue::String(s)) if e.kind() == ErrorKind::InvalidSubcommand => s.to_ascii_lowercase(),
        _ => e.exit(),
    };
    let Some(&(_, meant)) = SYNONYMS.iter().find(|(w, _)| *w == said) else { e.exit() };
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut tip = clap::Error::new(ErrorKind::InvalidSubcommand).with_cmd(&cmd);
    tip.insert(ContextKind::InvalidSubcommand, ContextValue::String(said));
    tip.insert(ContextKind::SuggestedSubcommand, ContextValue::Strings(vec![meant.to_string()]));
    tip.insert(ContextKind::Usage, ContextValue::StyledStr(cmd.render_usage()));
    tip.exit()
}

/// `hook claude` and `gate` run on every tool call, so their arguments are
/// parsed against that subcommand alone: building the whole command tree
/// (every subcommand, flag and help text) costs about 0.1 ms a process.
/// Anything this does not accept (`--help`, a typo, a missing `--session`)
/// goes through the full parser, so help and error messages are the same.
pub fn args_fast<A: Args + clap::FromArgMatches>(args: &[OsString], path: &[&'static str]) -> Option<A> {
    let (&name, words) = (path.last()?, args.get(1..=path.len())?);
    if words.iter().zip(path).any(|(a, p)| a != p) {
        return None;
    }
    // The subcommand's own name stands in for the program name.
    let matches = A::augment_args(clap::Command::new(name).args_override_self(true))
        .try_get_matches_from(&args[path.len()..])
        .ok()?;
    A::from_arg_matches(&matches).ok()
}
