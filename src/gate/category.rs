//! What a tool does, from its name: the riskiest verb anywhere in it wins.
//!
//! Names are split on every convention (snake, kebab, camel, dots,
//! `mcp__server__tool`); the server's name never decides. A verb decides
//! wherever it stands (`messages_send` is a send, `files_delete` a
//! deletion); a word that is also a noun (`post`, `comment`, `order`) counts
//! as a verb only when no verb comes before it (`post_message` and
//! `slack_post_message` send, `get_post` reads). A resource noun decides nothing by itself (`messages`, `files`,
//! `events`, `issues`): with a verb that creates or changes, it says what
//! the change does (`create_event` invites people, `refunds_create` moves
//! money, `update_repository_visibility` changes who may see). A name with
//! no verb is unknown, which the gate treats like a send; a few nouns name
//! an operation outright (`directory_tree`, `browser_*`, `kubectl_*`).
//! Claude Code's own tools have a table.

use super::{Category, Hints, Policy};

/// Riskier categories win: a name that reads and deletes is a deletion.
fn rank(c: Category) -> u8 {
    use Category::*;
    match c {
        Read => 0,
        Organize => 1,
        Draft => 2,
        Write => 3,
        Browse => 4,
        Send => 5,
        Execute => 6,
        Access => 7,
        Financial => 8,
        Destructive => 9,
        Unknown => 10,
    }
}

/// `a` is riskier than `b` in the order a name's words are weighed.
pub(crate) fn riskier_than(a: Category, b: Category) -> bool {
    rank(a) > rank(b)
}

fn riskier(a: Option<Category>, b: Category) -> Option<Category> {
    match a {
        Some(a) if rank(a) >= rank(b) => Some(a),
        _ => Some(b),
    }
}

/// Verbs that are only verbs in tool names.
fn verb(w: &str) -> Option<Category> {
    use Category::*;
    Some(match w {
        "get" | "read" | "search" | "find" | "view" | "show" | "lookup" | "query" | "retrieve" | "describe"
        | "count" | "inspect" | "stat" | "cat" | "grep" | "glob" | "ls" | "summarize" | "summarise" | "analyze"
        | "analyse" | "whoami" | "preview" | "lint" | "validate" | "verify" | "resolve" | "translate"
        | "transcribe" | "recall" | "compare" | "fetchmail" | "peek" | "poll" | "wait" | "list" | "check"
        | "calculate" | "explain" | "forecast" | "predict" | "geocode" => Read,
        "archive" | "move" | "rename" | "sort" | "unstar" | "unpin" | "categorize" | "categorise" | "organize"
        | "organise" | "snooze" | "mute" | "unmute" | "react" | "assign" | "unassign" | "close" | "reopen"
        | "bookmark" | "unwatch" | "unlock" | "transition" | "triage" | "label_email" => Organize,
        "write" | "edit" | "save" | "append" | "insert" | "patch" | "modify" | "mkdir" | "touch" | "replace"
        | "commit" | "store" | "upsert" | "apply" | "duplicate" | "create" | "add" | "new" | "make" | "set"
        | "reschedule" | "postpone" | "update" | "generate" | "remember" | "place" | "change" | "put" | "attach" => {
            Write
        }
        "compose" => Draft,
        "browse" | "navigate" | "visit" | "goto" | "fetch" | "click" | "scrape" | "crawl" | "screenshot" | "scroll"
        | "hover" | "press" | "download" | "curl" | "wget" | "webfetch" | "drag" | "fill" => Browse,
        "send" | "reply" | "forward" | "publish" | "invite" | "notify" | "tweet" | "respond" | "broadcast"
        | "announce" | "push" | "upload" | "submit" | "rsvp" | "export" | "merge" | "schedule" | "dm" | "sms"
        | "retweet" | "repost" | "mention" | "ping" | "approve" | "accept" | "sign" | "esign" | "countersign"
        | "endorse" | "vote" => Send,
        "delete" | "remove" | "rm" | "drop" | "destroy" | "purge" | "erase" | "wipe" | "truncate" | "kill"
        | "terminate" | "reset" | "clear" | "uninstall" | "trash" | "discard" | "rollback" | "revert" | "prune"
        | "shred" | "unlink" | "rmdir" | "cancel" | "deactivate" | "disable" | "unsubscribe" | "overwrite"
        | "empty" | "expunge" | "void" | "suspend" | "ban" | "evict" => Destructive,
        "pay" | "transfer" | "book" | "reserve" | "rent" | "refund" | "charge" | "purchase" | "buy" | "sell"
        | "withdraw" | "deposit" | "wire" | "trade" | "swap" | "stake" | "tip" | "donate" | "remit" | "reimburse"
        | "capture" => Financial,
        "grant" | "revoke" | "authorize" | "authorise" | "login" | "logout" | "sudo" | "impersonate" | "elevate"
        | "escalate" | "promote" | "demote" | "unshare" | "invite_user" | "rotate" => Access,
        "run" | "exec" | "execute" | "eval" | "spawn" | "deploy" | "install" | "build" | "compile" | "launch"
        | "invoke" | "trigger" | "dispatch" | "start" | "restart" | "provision" | "evaluate" => Execute,
        _ => return None,
    })
}

/// A verb written in the third person (`SLACK_REVOKES_A_TOKEN`,
/// `SUPABASE_DISABLES_PREVIEW_BRANCHING`): what the verb does, only when
/// that is consequential (a plural noun such as `news` or `bookmarks` never
/// lowers an unknown name to a write).
fn inflected(w: &str) -> Option<Category> {
    let stems = [
        w.strip_suffix("ies").map(|s| format!("{s}y")),
        w.strip_suffix("es").map(str::to_string),
        w.strip_suffix('s').map(str::to_string),
    ];
    use Category::*;
    stems
        .into_iter()
        .flatten()
        .filter(|s| s.len() >= 3)
        .find_map(|s| verb(&s).filter(|c| matches!(c, Send | Execute | Access | Financial | Destructive)))
}

/// Words that are verbs before any other verb and nouns after one
/// (`post_message` sends; `get_post` reads a post).
fn leading_verb(w: &str) -> Option<Category> {
    use Category::*;
    Some(match w {
        "test" | "head" | "tail" | "diff" | "log" | "status" | "history" | "tree" => Read,
        "label" | "tag" | "mark" | "star" | "pin" | "flag" | "lock" | "watch" | "folder" => Organize,
        "note" | "record" | "copy" | "format" | "clone" | "fork" | "branch" | "checkout" | "document" => Write,
        "draft" => Draft,
        "open" | "request" | "type" | "select" | "browse_page" => Browse,
        "post" | "comment" | "text" | "call" | "share" | "review" | "release" | "chat" | "issue" | "email" | "mail"
        | "message" => Send,
        "order" | "bill" | "invoice" | "bank" => Financial,
        _ => return None,
    })
}

/// Verbs that create or change something: with a noun, the noun says what
/// the change does.
fn changes(w: &str) -> bool {
    matches!(
        w,
        "create"
            | "add"
            | "insert"
            | "new"
            | "make"
            | "set"
            | "update"
            | "edit"
            | "modify"
            | "patch"
            | "put"
            | "upsert"
            | "change"
            | "schedule"
            | "book"
            | "place"
            | "post"
            | "send"
            | "invite"
            | "share"
            | "submit"
            | "attach"
            | "generate"
            | "issue"
            | "move"
            | "open"
            | "approve"
            | "accept"
    )
}

/// Verbs that make a message (and not only change one's labels).
fn makes(w: &str) -> bool {
    matches!(
        w,
        "create" | "add" | "insert" | "new" | "make" | "post" | "put" | "submit" | "generate" | "schedule" | "open"
    )
}

/// What changing a thing of this kind does.
fn changed_noun(w: &str, making: bool) -> Option<Category> {
    use Category::*;
    Some(match w {
        // Others see it, or are notified, when it is made or changed.
        "event" | "events" | "meeting" | "meetings" | "invite" | "invites" | "invitation" | "invitations" | "issue"
        | "issues" | "comment" | "comments" | "pr" | "pull" | "pulls" | "release" | "releases" | "post" | "posts"
        | "tweet" | "tweets" | "review" | "reviews" | "announcement" | "webhook" | "webhooks" | "participants"
        | "attendees" | "status_update" | "discussion" | "discussions" | "envelope" | "envelopes" | "story"
        | "stories" => Send,
        // A message made is a message sent (a draft has its own word).
        "message" | "messages" | "email" | "emails" | "mail" | "mails" | "dm" | "dms" | "sms" | "chat" | "reply"
        | "replies" => {
            if making {
                Send
            } else {
                Write
            }
        }
        "refund" | "refunds" | "payment" | "payments" | "charge" | "charges" | "invoice" | "invoices" | "transfer"
        | "transfers" | "payout" | "payouts" | "order" | "orders" | "subscription" | "subscriptions" | "bill"
        | "bills" | "transaction" | "transactions" | "money" | "funds" | "price" | "prices" | "intent" | "checkout"
        | "return" | "returns" | "wire" => Financial,
        "permission" | "permissions" | "role" | "roles" | "member" | "members" | "collaborator" | "collaborators"
        | "key" | "keys" | "token" | "tokens" | "secret" | "secrets" | "credential" | "credentials" | "password"
        | "passwords" | "user" | "users" | "visibility" | "acl" | "acls" | "access" | "sharing" | "policy"
        | "protection" | "protections" | "ruleset" | "rulesets" | "policies" | "owner" | "owners" | "admin"
        | "admins" | "sso" | "mfa" | "2fa" | "ssh" | "firewall" | "group" | "groups" | "account" | "accounts"
        | "profile" | "profiles" | "recovery" | "login" | "logins" => Access,
        "script" | "scripts" | "job" | "jobs" | "workflow" | "workflows" | "function" | "functions" | "lambda"
        | "container" | "containers" | "deployment" | "deployments" | "pipeline" | "pipelines" | "cron" | "action"
        | "actions" | "hook" | "hooks" => Execute,
        "label" | "labels" | "tag" | "tags" | "folder" | "folders" | "milestone" | "milestones" | "reaction"
        | "reactions" | "star" | "stars" | "bookmark" | "bookmarks" => Organize,
        "draft" | "drafts" => Draft,
        _ => return None,
    })
}

/// What a person keeps for themselves: changing one of these is a write.
fn local_noun(w: &str) -> bool {
    matches!(
        w,
        "file"
            | "files"
            | "document"
            | "documents"
            | "doc"
            | "docs"
            | "note"
            | "notes"
            | "todo"
            | "todos"
            | "task"
            | "tasks"
            | "reminder"
            | "reminders"
            | "memory"
            | "memories"
            | "entity"
            | "entities"
            | "relation"
            | "relations"
            | "observation"
            | "observations"
            | "cell"
            | "cells"
            | "notebook"
            | "notebooks"
            | "directory"
            | "directories"
            | "dir"
            | "text"
            | "content"
            | "line"
            | "lines"
            | "sheet"
            | "sheets"
            | "spreadsheet"
            | "spreadsheets"
            | "row"
            | "rows"
            | "canvas"
            | "snippet"
            | "snippets"
            | "page"
            | "pages"
            | "branch"
            | "branches"
    )
}

/// What is fetched from the web.
fn web_noun(w: &str) -> bool {
    matches!(
        w,
        "webpage"
            | "webpages"
            | "url"
            | "urls"
            | "uri"
            | "link"
            | "links"
            | "website"
            | "websites"
            | "site"
            | "html"
            | "http"
            | "https"
    )
}

/// Nouns that name an operation outright, for a name with no verb.
fn operation_noun(w: &str) -> Option<Category> {
    use Category::*;
    Some(match w {
        "tree" | "diff" | "status" | "log" | "logs" | "info" | "stats" | "history" | "blame" | "metadata"
        | "contents" | "balance" | "busy" | "weather" | "time" => Read,
        "browser" | "web" | "url" | "http" | "https" | "page" | "tab" => Browse,
        "shell" | "bash" | "sh" | "zsh" | "powershell" | "cmd" | "command" | "terminal" | "python" | "node"
        | "kubectl" | "docker" | "sql" | "repl" | "notebook" | "interpreter" | "code" | "migration" | "migrations" => {
            Execute
        }
        _ => return None,
    })
}

/// Claude Code's own tools, whose names alone would mislead (`NotebookRead`
/// reads, `AskUserQuestion` asks the user, not for access).
pub(super) fn claude_code_tool(tool: &str) -> Option<Category> {
    use Category::*;
    Some(match tool {
        "Bash" | "SlashCommand" | "Skill" => Execute,
        "BashOutput"
        | "Read"
        | "Glob"
        | "Grep"
        | "LS"
        | "NotebookRead"
        | "TodoRead"
        | "WebSearch"
        | "AskUserQuestion"
        | "ExitPlanMode"
        | "Task"
        | "Agent"
        | "ListMcpResourcesTool"
        | "ReadMcpResourceTool" => Read,
        "KillShell" | "KillBash" => Organize,
        "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "TodoWrite" => Write,
        "WebFetch" => Browse,
        _ => return None,
    })
}

/// The words of a tool name: `mcp__gmail__send_message` gives gmail, send,
/// message; `createDraft` gives create, draft; `git-push` gives git, push;
/// `calendar.events.insert` gives calendar, events, insert. The MCP
/// server's words come last, marked with `@`.
pub fn name_words(tool: &str) -> Vec<String> {
    let mut name = tool;
    // MCP names are mcp__server__tool: the server says what it is about,
    // the tool what it does.
    let mut server = None;
    if let Some(rest) = tool.strip_prefix("mcp__")
        && let Some((s, t)) = rest.split_once("__")
    {
        server = Some(s);
        name = t;
    }
    let mut words = Vec::new();
    for piece in name.split(|c: char| !c.is_alphanumeric()) {
        let mut cur = String::new();
        let chars: Vec<char> = piece.chars().collect();
        for (i, &c) in chars.iter().enumerate() {
            let boundary = c.is_uppercase()
                && i > 0
                && (chars[i - 1].is_lowercase()
                    || chars[i - 1].is_ascii_digit()
                    || chars.get(i + 1).is_some_and(|n| n.is_lowercase()) && chars[i - 1].is_uppercase());
            if boundary && !cur.is_empty() {
                words.push(std::mem::take(&mut cur));
            }
            cur.extend(c.to_lowercase());
        }
        if !cur.is_empty() {
            words.push(cur);
        }
    }
    if let Some(s) = server {
        for w in s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
            words.push(format!("@{}", w.to_lowercase()));
        }
    }
    words
}

/// The category of a tool: policy first, then Claude Code's own tools,
/// then the riskiest thing its name says; unknown when it says nothing.
pub fn category(tool: &str, policy: &Policy) -> Category {
    if let Some(c) = policy.tools.get(tool) {
        return *c;
    }
    if let Some(c) = claude_code_tool(tool) {
        return c;
    }
    let words = name_words(tool);
    let own: Vec<&str> = words.iter().map(String::as_str).filter(|w| !w.starts_with('@')).collect();
    // Which words act as verbs: every verb, and a word that is also a noun
    // when no verb came before it (`post_message`, `slack_post_message`;
    // not `get_post`), unless a verb that reads follows it in its clause:
    // then it names the service read (`mail.attachments.get`,
    // `order_status_get`), though `mark_as_read` still marks.
    // `and` and `then` begin another clause, whose first word may be a
    // verb again (`read_and_email`).
    // Whether a reading verb follows each word in its clause: one pass from
    // the end (a name of a million words is read once, not once a word).
    let mut read_later = vec![false; own.len()];
    let mut later = false;
    for (i, w) in own.iter().enumerate().rev() {
        read_later[i] = later;
        later = if matches!(*w, "and" | "then") { false } else { later || verb(w) == Some(Category::Read) };
    }
    // Where the first verb in its plain form stands: a verb in the third
    // person counts only before it (`SLACK_REVOKES_A_TOKEN`, not the
    // plural noun of `STRIPE_LIST_CHARGES`).
    let first_verb = own.iter().position(|w| verb(w).is_some());
    let mut seen = false;
    let acting: Vec<Option<Category>> = own
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if matches!(*w, "and" | "then") {
                seen = false;
                return None;
            }
            // After a preposition a word is a noun (`power_off_by_tag`,
            // `send_to_list`).
            let after_preposition = i > 0
                && matches!(own[i - 1], "by" | "from" | "with" | "for" | "in" | "on" | "to" | "of" | "via" | "into");
            let c = verb(w).or_else(|| inflected(w).filter(|_| first_verb.is_none_or(|p| i < p))).or_else(|| {
                match leading_verb(w) {
                    _ if seen || after_preposition => None,
                    Some(c) if c != Category::Organize && read_later[i] => None,
                    c => c,
                }
            });
            seen |= c.is_some();
            c
        })
        .collect();
    // A name that opens with a reading verb and has no second clause reads
    // what the rest names (`get_merge_request`, `get_default_sign_in_page`,
    // `list_commit_statuses`): on 3,830 real tool names (helper-89's
    // review), none so made acts but through the exceptions below
    // (`read_acts`, links made to share). `resolve` acts too often
    // (`resolve_merge_conflict`) to count as reading here.
    let reads_first = own.first().is_some_and(|w| verb(w) == Some(Category::Read) && *w != "resolve")
        && !own.iter().any(|w| matches!(*w, "and" | "then" | "or"));
    let acting: Vec<Option<Category>> = if reads_first {
        // Money words still act (`get_buy_listing_transaction` buys).
        acting
            .iter()
            .enumerate()
            .map(|(i, c)| if i == 0 || *c == Some(Category::Financial) { *c } else { None })
            .collect()
    } else {
        acting
    };
    let mut best = None;
    // Verbs that only create or change (`create`, `update`) say what they
    // do through the noun they change; the others decide on their own.
    let mut generic = false;
    for (w, c) in own.iter().zip(&acting) {
        match c {
            Some(Category::Write) if changes(w) => generic = true,
            Some(c) => best = riskier(best, *c),
            None => {}
        }
    }
    let acts = |i: usize| acting[i].is_some() && changes(own[i]);
    if (0..own.len()).any(acts) {
        let making = (0..own.len()).any(|i| acts(i) && makes(own[i]));
        let noun = own.iter().filter_map(|w| changed_noun(w, making)).fold(None, riskier);
        match noun {
            Some(c) => best = riskier(best, c),
            // Changing a file, a note or a task writes; changing a thing of
            // a kind not known here (`update_forwarding`, `set_public`,
            // `mcp__stripe__create`) may do anything: unknown.
            None if generic && own.iter().any(|w| local_noun(w)) => best = riskier(best, Category::Write),
            None if generic => best = riskier(best, Category::Unknown),
            None => {}
        }
    }
    // Reading a page, a link or a URL fetches it (`get_webpage`,
    // `read_url`): browsing, whatever the verb.
    if best == Some(Category::Read) && own.iter().any(|w| web_noun(w)) {
        best = Some(Category::Browse);
    }
    // Reading, fetching or copying out of a credential store hands out
    // credentials (`secrets_get`, `fetch_api_key`, `copy_password`):
    // access, whatever the verb.
    if best.is_none_or(|b| riskier_than(Category::Access, b) || b == Category::Unknown) && credential_store(&own) {
        best = Some(Category::Access);
    }
    // Inviting or adding to a place people meet (`invite_to_channel`,
    // `add_to_team`) lets someone in: access.
    if own.iter().any(|w| matches!(*w, "invite" | "add"))
        && own.iter().any(|w| {
            matches!(
                *w,
                "channel"
                    | "channels"
                    | "team"
                    | "teams"
                    | "workspace"
                    | "group"
                    | "groups"
                    | "org"
                    | "organization"
                    | "repo"
                    | "repository"
                    | "project"
                    | "space"
                    | "server"
                    | "guild"
                    | "room"
                    | "conversation"
                    | "conversations"
            )
        })
    {
        best = riskier(best, Category::Access);
    }
    // A checkout pays (`checkout`, `check_out`), unless the name is git's
    // (`git_checkout`, `checkout_branch`); a gift, a voucher or a tip is
    // money too.
    let git = own
        .iter()
        .any(|w| matches!(*w, "git" | "branch" | "branches" | "ref" | "commit" | "repo" | "tag" | "worktree"));
    let checks_out = own.contains(&"checkout") || own.windows(2).any(|p| p == ["check", "out"]);
    if (checks_out && !git) || own.iter().any(|w| matches!(*w, "gift" | "gifts" | "giftcard" | "voucher" | "vouchers"))
    {
        best = riskier(best, Category::Financial);
    }
    // What the verb acts on can make a harmless-sounding verb consequential.
    if let Some(raised) = object_raises(&own, &acting, best) {
        best = riskier(best, raised);
    }
    // Changing the address an account signs in or recovers with
    // (`update_email`, `change_email_address`, `set_primary_email`) hands
    // the account over: access.
    let resets =
        own.iter().any(|w| matches!(*w, "update" | "change" | "set" | "modify" | "edit" | "replace" | "patch"));
    let address = own.iter().any(|w| matches!(*w, "email" | "emails" | "mail"));
    let of_account = own.iter().any(|w| matches!(*w, "primary" | "login" | "recovery" | "address" | "backup"))
        || own.iter().all(|w| matches!(*w, "update" | "change" | "set" | "email" | "my"));
    if resets && address && of_account && matches!(best, Some(Category::Write | Category::Organize | Category::Read)) {
        best = Some(Category::Access);
    }
    // An operation named by a noun: anything for a name with no verb; a
    // change made through a shell, a container tool or SQL is a command.
    for w in &own {
        match operation_noun(w) {
            Some(c) if best.is_none() => best = riskier(best, c),
            Some(Category::Execute) if best == Some(Category::Write) => best = Some(Category::Execute),
            _ => {}
        }
    }
    best.unwrap_or(Category::Unknown)
}

/// The category a name's object raises it to, where the verb alone would
/// pass it (`unlock_door`, `format_disk`, `mark_as_paid`, `open_issue`):
/// - a way into a place or a vehicle (a door, a garage, an alarm, a valve,
///   a port) changed in any way lets someone in: access;
/// - a disk, a volume or a device formatted, initialised, partitioned,
///   reimaged or flashed is erased: destructive;
/// - a state of money set on anything (`paid`, `refunded`, `settled`)
///   moves money in the books: financial;
/// - `open` fetches only a page, a tab, a link or a file; `request` only a
///   URL (`http_request`). Opening anything else makes it (`open_issue`,
///   `open_account`: the noun says what; a noun not known here, unknown),
///   and any other request asks someone (`request_access`): a send.
///
/// Reading verbs are left alone (`get_door_status`, `list_paid_invoices`).
fn object_raises(own: &[&str], acting: &[Option<Category>], best: Option<Category>) -> Option<Category> {
    use Category::*;
    let best = best?;
    let any = |f: &dyn Fn(&str) -> bool| own.iter().any(|w| f(w));
    // A computer used is driven, whatever else the name says
    // (`computer_use_preview`).
    if own.windows(2).any(|p| p[0] == "computer" && p[1] == "use") {
        return Some(Execute);
    }
    // A link to share or to join is made when asked for, whatever the verb
    // (`get_file_sharing_link`, `get_invite_link`): access.
    if any(&|w| matches!(w, "link" | "links" | "url"))
        && any(&|w| matches!(w, "sharing" | "share" | "shareable" | "invite" | "invitation" | "join"))
    {
        return Some(Access);
    }
    if best == Read {
        return read_acts(own);
    }
    let verb_of = |v: &[&str]| own.iter().zip(acting).any(|(w, c)| c.is_some() && v.contains(w));
    let mut raised: Option<Category> = None;
    if any(&|w| {
        matches!(
            w,
            "door"
                | "doors"
                | "garage"
                | "gate"
                | "gates"
                | "doorlock"
                | "smartlock"
                | "deadbolt"
                | "latch"
                | "alarm"
                | "alarms"
                | "valve"
                | "valves"
                | "port"
                | "ports"
                | "car"
                | "cars"
                | "vehicle"
                | "vehicles"
                | "trunk"
                | "boot"
                | "intercom"
                | "buzzer"
                | "keypad"
        )
    }) {
        raised = riskier(raised, Access);
    }
    let erases = any(&|w| {
        matches!(w, "format" | "reformat" | "init" | "initialize" | "initialise" | "partition" | "reimage" | "flash")
    });
    let storage = any(&|w| {
        matches!(
            w,
            "disk"
                | "disks"
                | "drive"
                | "drives"
                | "volume"
                | "volumes"
                | "partition"
                | "partitions"
                | "filesystem"
                | "filesystems"
                | "fs"
                | "device"
                | "devices"
                | "storage"
                | "sd"
                | "sdcard"
                | "usb"
                | "ssd"
                | "hdd"
                | "firmware"
                | "bios"
        )
    });
    if erases && storage {
        raised = riskier(raised, Destructive);
    }
    if any(&|w| matches!(w, "paid" | "unpaid" | "refunded" | "settled" | "reconciled" | "reimbursed" | "chargeback")) {
        raised = riskier(raised, Financial);
    }
    // Who may do what, given, replaced or lifted (`assign_role`,
    // `set_page_restrictions`, `unprotect_branch`,
    // `replace_device_assurance_policy`).
    let guards = any(&|w| {
        matches!(
            w,
            "role"
                | "roles"
                | "permission"
                | "permissions"
                | "restriction"
                | "restrictions"
                | "protection"
                | "protections"
                | "policy"
                | "policies"
                | "acl"
                | "acls"
                | "guest"
                | "guests"
                | "collaboration"
                | "collaborations"
                | "enrollment"
                | "enrollments"
                | "membership"
                | "memberships"
        )
    });
    if guards && verb_of(&["assign", "replace", "set", "apply", "attach", "unassign", "move", "change"])
        || any(&|w| matches!(w, "protect" | "unprotect"))
    {
        raised = riskier(raised, Access);
    }
    // Closing a position, an account or a vault settles money
    // (`CLOSE_POSITION`, `close_accounts`).
    if verb_of(&["close"])
        && any(&|w| {
            matches!(
                w,
                "position" | "positions" | "account" | "accounts" | "vault" | "vaults" | "loan" | "loans" | "trade"
            )
        })
    {
        raised = riskier(raised, Financial);
    }
    // Handing work to an agent runs it (`assign_copilot_to_issue`); a
    // workflow, a job or a pipeline applied runs it
    // (`sreagent_workflows_apply`); a data store written with a command
    // runs the command (`valkey_write`, `redis_set`).
    if verb_of(&["assign", "delegate"]) && any(&|w| matches!(w, "copilot" | "agent" | "agents" | "bot" | "bots" | "ai"))
        || verb_of(&["apply"]) && any(&|w| changed_noun(w, false) == Some(Execute))
        || verb_of(&["write", "set", "put", "command", "exec"])
            && any(&|w| matches!(w, "redis" | "valkey" | "memcached" | "keydb" | "dragonfly"))
    {
        raised = riskier(raised, Execute);
    }
    // `compose` drafts only a message; `docker_compose`, `compose_up` run.
    if best == Draft
        && verb_of(&["compose"])
        && !any(&|w| {
            matches!(
                w,
                "email" | "emails" | "mail" | "message" | "messages" | "reply" | "draft" | "post" | "tweet" | "text"
            )
        })
    {
        raised = riskier(raised, Unknown);
    }
    if best == Browse {
        let fetched = any(&|w| {
            web_noun(w)
                || matches!(
                    w,
                    "tab"
                        | "tabs"
                        | "browser"
                        | "window"
                        | "file"
                        | "files"
                        | "folder"
                        | "document"
                        | "documents"
                        | "doc"
                        | "docs"
                        | "pdf"
                        | "image"
                        | "path"
                        | "web"
                        | "api"
                )
        });
        if verb_of(&["open"]) && !fetched && own.iter().all(|w| changed_noun(w, true).is_none()) {
            raised = riskier(raised, Unknown);
        }
        if verb_of(&["request"]) && !fetched {
            raised = riskier(raised, Send);
        }
    }
    raised
}

/// Reading verbs that act with some objects or particles: checking in
/// (checking out is a checkout, in `category`), resolving a ticket (closes
/// it) or a dispute (gives up money), recalling a sent message (deletes it
/// from its recipients' mailboxes), listing a thing for sale.
fn read_acts(own: &[&str]) -> Option<Category> {
    use Category::*;
    let any = |f: &dyn Fn(&str) -> bool| own.iter().any(|w| f(w));
    let pair = |a: &str, b: &str| own.windows(2).any(|p| p[0] == a && p[1] == b);
    if pair("for", "sale") {
        return Some(Financial);
    }
    if pair("check", "in") || own.contains(&"checkin") {
        return Some(Unknown);
    }
    if own.contains(&"resolve") {
        if any(&|w| matches!(w, "dispute" | "disputes" | "chargeback" | "chargebacks" | "claim" | "claims")) {
            return Some(Financial);
        }
        if any(&|w| {
            matches!(
                w,
                "ticket"
                    | "tickets"
                    | "issue"
                    | "issues"
                    | "incident"
                    | "incidents"
                    | "conversation"
                    | "conversations"
                    | "thread"
                    | "threads"
                    | "alert"
                    | "alerts"
                    | "case"
                    | "cases"
            )
        }) {
            return Some(Organize);
        }
    }
    if own.contains(&"recall") && any(&|w| matches!(w, "message" | "messages" | "email" | "emails" | "mail" | "mails"))
    {
        return Some(Destructive);
    }
    None
}

/// A name that speaks of credentials: secrets, passwords, vaults and
/// keyrings, password managers, SSH and API keys, tokens (not counting
/// tokens).
fn credential_store(words: &[&str]) -> bool {
    let has = |w: &str| words.contains(&w);
    words.iter().any(|w| {
        matches!(
            *w,
            "secret"
                | "secrets"
                | "credential"
                | "credentials"
                | "password"
                | "passwords"
                | "passwd"
                | "vault"
                | "keychain"
                | "keyring"
                | "apikey"
                | "apikeys"
                | "ssh"
                | "kms"
                | "bitwarden"
                | "1password"
                | "onepassword"
                | "lastpass"
                | "cookie"
                | "cookies"
                | "env"
                | "dotenv"
                | "kubeconfig"
        )
    }) && !["strength", "policy", "generate", "generator", "requirements"].iter().any(|k| has(k))
        || (["key", "keys"].iter().any(|k| has(k))
            && ["api", "private", "access", "deploy", "signing", "secret", "gpg", "pgp", "account", "service"]
                .iter()
                .any(|k| has(k)))
        || (["token", "tokens"].iter().any(|k| has(k))
            && [
                "access", "auth", "oauth", "bearer", "refresh", "api", "personal", "session", "id", "jwt", "github",
                "npm",
            ]
            .iter()
            .any(|k| has(k)))
        || (has("connection") && has("string"))
        || (["get", "read", "fetch", "list", "show"].iter().any(|k| has(k)) && words.len() == 2 && has("token"))
}

/// The category a server's hints raise a named one to, with the hints
/// that did: a tool that may destroy and is not read-only is destructive;
/// one that reaches an open world sends when it is not read-only, browses
/// (a query leaves) when it is. Hints never lower a category: a server is
/// not trusted to say its tool only reads, and an unknown tool stays
/// unknown unless they name something as consequential. None when they
/// change nothing.
pub(crate) fn hinted(named: Category, hints: &Hints) -> Option<(Category, &'static str)> {
    let (said, why) = match (hints.read_only, hints.destructive, hints.open_world) {
        (Some(true), _, Some(true)) => (Category::Browse, "readOnlyHint and openWorldHint"),
        (Some(true), _, _) => return None,
        (_, Some(true), _) => (Category::Destructive, "destructiveHint"),
        (_, _, Some(true)) => (Category::Send, "openWorldHint"),
        _ => return None,
    };
    let raised = if named == Category::Unknown {
        said.is_consequential().then_some(said)
    } else {
        (rank(said) > rank(named)).then_some(said)
    };
    raised.map(|c| (c, why))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(tool: &str) -> Category {
        category(tool, &Policy::default())
    }

    #[test]
    fn the_riskiest_verb_anywhere_wins() {
        use Category::*;
        for (tool, want) in [
            ("messages_send", Send),
            ("mcp__graph__me_sendMail", Send),
            ("calendar.events.insert", Send),
            ("drafts_send", Send),
            ("mcp__gdrive__files_delete", Destructive),
            ("export_contacts", Send),
            ("mcp__github__issues_create", Send),
            ("update_repository_visibility", Access),
            ("mcp__stripe__refunds_create", Financial),
            ("get_and_delete_file", Destructive),
            ("get_post", Read),
            ("post_message", Send),
            ("NotebookRead", Read),
            ("AskUserQuestion", Read),
            ("gmail_messages", Unknown),
            ("mcp__send__list_things", Read),
        ] {
            assert_eq!(c(tool), want, "{tool}");
        }
    }

    /// Verbs that pass alone (organize, write, browse) are raised by what
    /// they act on; reading verbs are not.
    #[test]
    fn what_a_verb_acts_on_can_raise_it() {
        use Category::*;
        for (tool, want) in [
            ("unlock_door", Access),
            ("door_unlock", Access),
            ("smartlock_unlock", Access),
            ("lock_door", Access),
            ("close_valve", Access),
            ("unlock_car", Access),
            ("mute_alarm", Access),
            ("snooze_alarm", Access),
            ("open_garage_door", Unknown),
            ("open_port", Unknown),
            ("format_disk", Destructive),
            ("format_volume", Destructive),
            ("reformat_drive", Unknown),
            ("flash_firmware", Unknown),
            ("mark_as_paid", Financial),
            ("mark_invoice_paid", Financial),
            ("mark_refunded", Financial),
            ("open_issue", Send),
            ("open_pull_request", Send),
            ("open_account", Access),
            ("open_ticket", Unknown),
            ("request_access", Send),
            ("request_reviewers", Send),
            ("pulls.requestReviewers", Send),
            ("accept_pull_request", Send),
            ("approve_pull_request", Send),
            ("accept_friend_request", Send),
            ("approve_payment", Financial),
            ("sign_document", Send),
            ("vote_poll", Send),
            ("check_out", Financial),
            ("check_in", Unknown),
            ("resolve_ticket", Organize),
            ("resolve_dispute", Financial),
            ("recall_message", Destructive),
            ("list_item_for_sale", Financial),
            ("git_check_out_branch", Read),
            ("resolve_library_id", Read),
            ("recall_memory", Read),
            // From real servers' names (helper-89's review of 3,830).
            ("assign_role", Access),
            ("set_page_restrictions", Access),
            ("unprotect_branch", Access),
            ("protect_branch", Access),
            ("replace_device_assurance_policy", Access),
            ("CLOSE_POSITION", Financial),
            ("SOLUTIOFI_CLOSE_ACCOUNTS", Financial),
            ("assign_copilot_to_issue", Execute),
            ("sreagent_workflows_apply", Execute),
            ("valkey_write", Execute),
            ("computer_use_preview", Execute),
            ("docker_compose", Unknown),
            ("create_envelope_from_documents", Send),
            ("asana_create_task_story", Send),
            ("get_file_sharing_link", Access),
            ("get_invite_link", Access),
            // A name that opens with a reading verb reads what it names.
            ("get_merge_request", Read),
            ("list_merge_requests", Read),
            ("get_default_sign_in_page", Read),
            ("get_run_details", Read),
            // Money words act even after a reading verb: a read of one asks.
            ("get_refund", Financial),
            ("get_image_set", Read),
            ("wait_for_new_message", Read),
            ("get_or_create_user", Access),
            ("get_buy_listing_transaction", Financial),
            ("SLACK_REVOKES_A_TOKEN", Access),
            ("SUPABASE_DISABLES_PREVIEW_BRANCHING", Destructive),
            ("droplet_power_off_by_tag", Unknown),
            ("REPAIRSHOPR_POST_ESTIMATE", Send),
            ("mailing_lists", Unknown),
            ("STRIPE_LIST_CHARGES", Read),
            ("BingNewsSearchUrl", Browse),
            ("TWITTER_BOOKMARKS_BY_USER", Unknown),
            ("compose_email", Draft),
            ("container_file_write", Write),
            // What stays: reading verbs, fetching pages and files, and the
            // verbs' own harmless objects.
            ("get_door_status", Read),
            ("list_paid_invoices", Read),
            ("open_url", Browse),
            ("open_file", Browse),
            ("open_in_browser", Browse),
            ("http_request", Browse),
            ("pull_request_read", Read),
            ("format_code", Execute),
            ("mark_as_read", Organize),
            ("lock_issue", Organize),
            ("unlock_issue", Organize),
        ] {
            assert_eq!(c(tool), want, "{tool}");
        }
    }

    #[test]
    fn a_resource_noun_alone_decides_nothing() {
        for tool in ["messages", "files", "events", "issues", "mcp__gmail__inbox", "contacts"] {
            assert_eq!(c(tool), Category::Unknown, "{tool}");
        }
    }

    #[test]
    fn hints_only_raise_a_category() {
        use Category::*;
        let h = |read_only, destructive, open_world| Hints { read_only, destructive, open_world };
        let (t, f) = (Some(true), Some(false));
        assert_eq!(hinted(Write, &h(f, t, None)), Some((Destructive, "destructiveHint")));
        assert_eq!(hinted(Read, &h(t, None, t)), Some((Browse, "readOnlyHint and openWorldHint")));
        assert_eq!(hinted(Write, &h(None, None, t)), Some((Send, "openWorldHint")));
        assert_eq!(hinted(Unknown, &h(None, t, None)), Some((Destructive, "destructiveHint")));
        // Never lower: a send that says it only reads, an unknown tool that
        // says it browses, a deletion that says it sends.
        assert_eq!(hinted(Send, &h(t, f, f)), None);
        assert_eq!(hinted(Unknown, &h(t, None, t)), None);
        assert_eq!(hinted(Destructive, &h(f, None, t)), None);
        assert_eq!(hinted(Read, &Hints::default()), None);
        // A destructive hint on a read-only tool means nothing (the spec's own rule).
        assert_eq!(hinted(Read, &h(t, t, f)), None);
    }

    #[test]
    fn names_split_into_words() {
        assert_eq!(name_words("mcp__gmail__send_message"), vec!["send", "message", "@gmail"]);
        assert_eq!(name_words("createDraft"), vec!["create", "draft"]);
        assert_eq!(name_words("git-push"), vec!["git", "push"]);
        assert_eq!(name_words("HTTPRequest"), vec!["http", "request"]);
    }

    #[test]
    fn generic_verbs_take_their_noun() {
        let p = Policy::default();
        assert_eq!(category("send_draft", &p), Category::Send);
        assert_eq!(category("create_draft", &p), Category::Draft);
        assert_eq!(category("create_event", &p), Category::Send);
        assert_eq!(category("mcp__gmail__send_message", &p), Category::Send);
        assert_eq!(category("frobnicate", &p), Category::Unknown);
        // A change to a thing not known here may do anything.
        assert_eq!(category("create_thing", &p), Category::Unknown);
        assert_eq!(category("update_forwarding", &p), Category::Unknown);
        assert_eq!(category("create_note", &p), Category::Write);
        assert_eq!(category("update_file", &p), Category::Write);
        // Reading a page fetches it.
        assert_eq!(category("get_webpage", &p), Category::Browse);
        assert_eq!(category("read_url", &p), Category::Browse);
        assert_eq!(category("get_channels", &p), Category::Read);
        assert_eq!(category("read_and_email", &p), Category::Send);
        assert_eq!(category("get_then_mail", &p), Category::Send);
        assert_eq!(category("move_money", &p), Category::Financial);
        assert_eq!(category("move_file", &p), Category::Organize);
        assert_eq!(category("apply_migration", &p), Category::Execute);
    }
}
