//! The gate: allow, confirm or block a tool call once the agent has read
//! untrusted content.
//!
//! A call's category comes from the tool's name (policy can override it),
//! its targets from its arguments (addresses, links, domains, numbers); the
//! ledger says what was read (with its verdict and entities) and what the
//! user typed or trusted. The decision table is DESIGN.md's.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::detect::Verdict;
use crate::document::{Entity, EntityKind};

mod category;
mod secrets;
mod shell;
mod targets;
mod wanted;
pub use category::{category, name_words};
pub use targets::{Origin, Target, TargetKind, fold_confusables, targets_of, words};
use targets::{emails_in, strings, url_carries_data};
pub(crate) use wanted::Wanted;

/// Depth to which call arguments are walked for targets.
const MAX_ARG_DEPTH: usize = 32;
/// Strings examined per call (a huge argument list stays bounded).
const MAX_ARG_STRINGS: usize = 10_000;
/// The version a format 1 session file (one JSON object, the serialized
/// [`Ledger`]) carries; format 2 is text (`crate::session`).
pub(crate) const LEDGER_VERSION: u32 = 1;
/// Query values at least this long, base64- or hex-shaped, count as data.
const DATA_VALUE_MIN: usize = 16;
/// Targets named in one reason; the rest are counted (the full list is in
/// `targets`).
const MAX_LISTED: usize = 20;

/// What a tool does, as far as the gate cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Category {
    Read,
    Organize,
    Write,
    Draft,
    Browse,
    Send,
    Destructive,
    Financial,
    Access,
    Execute,
    Unknown,
}

impl Category {
    pub const ALL: [Category; 11] = [
        Category::Read,
        Category::Organize,
        Category::Write,
        Category::Draft,
        Category::Browse,
        Category::Send,
        Category::Destructive,
        Category::Financial,
        Category::Access,
        Category::Execute,
        Category::Unknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Category::Read => "read",
            Category::Organize => "organize",
            Category::Write => "write",
            Category::Draft => "draft",
            Category::Browse => "browse",
            Category::Send => "send",
            Category::Destructive => "destructive",
            Category::Financial => "financial",
            Category::Access => "access",
            Category::Execute => "execute",
            Category::Unknown => "unknown",
        }
    }

    pub fn parse(s: &str) -> Option<Category> {
        Category::ALL.into_iter().find(|c| c.as_str() == s)
    }

    /// Categories whose effect leaves the agent: a send, a payment, a
    /// deletion, a command. Unknown tools count as these.
    pub fn is_consequential(self) -> bool {
        matches!(
            self,
            Category::Send
                | Category::Destructive
                | Category::Financial
                | Category::Access
                | Category::Execute
                | Category::Unknown
        )
    }
}

/// The gate's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Allow,
    Confirm,
    Block,
}

impl Decision {
    pub fn as_str(self) -> &'static str {
        match self {
            Decision::Allow => "allow",
            Decision::Confirm => "confirm",
            Decision::Block => "block",
        }
    }
}

/// Why the gate could not decide.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    #[error("the tool call is not valid JSON: {0}")]
    CallJson(String),
    #[error(
        "the tool call has no tool name (expected {{\"tool\": NAME, \"args\": {{…}}}}, or name/arguments, or name/input)"
    )]
    CallNoName,
    #[error("policy {path}: {why}")]
    Policy { path: String, why: String },
    #[error("session file {path}: {why}")]
    Ledger { path: String, why: String },
}

// ---------------------------------------------------------------------------
// Calls.

/// A tool call: the tool's name and its arguments.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub tool: String,
    pub args: Value,
}

/// Parse a call: `{"tool", "args"}`, `{"name", "arguments"}` (arguments may
/// be a JSON string, as OpenAI sends them), `{"name", "input"}` or Claude
/// Code's `{"tool_name", "tool_input"}`.
pub fn parse_call(json: &str) -> Result<Call, GateError> {
    let v: Value = serde_json::from_str(json).map_err(|e| GateError::CallJson(e.to_string()))?;
    call_from_value(&v)
}

pub fn call_from_value(v: &Value) -> Result<Call, GateError> {
    let obj = v.as_object().ok_or(GateError::CallNoName)?;
    let tool = ["tool", "name", "tool_name"]
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str))
        .ok_or(GateError::CallNoName)?
        .to_string();
    let mut args = ["args", "arguments", "input", "tool_input", "parameters"]
        .iter()
        .find_map(|k| obj.get(*k).cloned())
        .unwrap_or(Value::Null);
    if let Value::String(s) = &args
        && let Ok(parsed) = serde_json::from_str::<Value>(s)
    {
        args = parsed;
    }
    Ok(Call { tool, args })
}

// ---------------------------------------------------------------------------
// Policy.

/// The policy object (DESIGN.md): trusted domains and addresses, tool
/// categories the heuristic gets wrong, and decision overrides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Policy {
    #[serde(default)]
    pub trusted: Trusted,
    /// Tool name → category.
    #[serde(default)]
    pub tools: BTreeMap<String, Category>,
    /// Decision for a category once untrusted content was read, replacing
    /// the table's (clean and injected alike).
    #[serde(default, rename = "afterUntrusted")]
    pub after_untrusted: BTreeMap<Category, Decision>,
    /// Decision for a category always, even before anything was read (the
    /// stricter of this and the table wins).
    #[serde(default)]
    pub always: BTreeMap<Category, Decision>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Trusted {
    #[serde(default)]
    pub domains: Vec<String>,
    #[serde(default)]
    pub addresses: Vec<String>,
}

impl Policy {
    /// Parse a policy from JSON; unknown keys and unknown categories are
    /// errors that name them.
    pub fn from_json(text: &str, path: &str) -> Result<Policy, GateError> {
        let err = |why: String| GateError::Policy { path: path.to_string(), why };
        let v: Value = serde_json::from_str(text).map_err(|e| err(e.to_string()))?;
        // serde would read a struct from an array too (`{"trusted":
        // [["evil.test"]]}` trusting evil.test): only the documented shape.
        policy_shape(&v).map_err(err)?;
        serde_json::from_value(v).map_err(|e| err(e.to_string()))
    }

    pub fn load(path: &Path) -> Result<Policy, GateError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| GateError::Policy { path: path.display().to_string(), why: e.to_string() })?;
        Policy::from_json(&text, &path.display().to_string())
    }

    fn trusts_domain(&self, d: &str) -> bool {
        let d = d.to_lowercase();
        self.trusted.domains.iter().any(|t| {
            let t = t.to_lowercase();
            d == t || d.ends_with(&format!(".{t}"))
        })
    }

    fn trusts_address(&self, a: &str) -> bool {
        let a = a.to_lowercase();
        self.trusted.addresses.iter().any(|t| t.to_lowercase() == a)
            || a.rsplit_once('@').is_some_and(|(_, d)| self.trusts_domain(d))
    }
}

// ---------------------------------------------------------------------------
// The ledger.

/// Something the agent read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReadEntry {
    pub id: String,
    pub source: String,
    pub verdict: Verdict,
    #[serde(with = "compact_entities")]
    pub entities: Vec<Entity>,
    /// The content's own sender (an email's From), when known.
    #[serde(default)]
    pub sender: Vec<String>,
}

/// What was read, and what the user typed or trusted.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Ledger {
    #[serde(default)]
    pub version: u32,
    #[serde(default)]
    pub reads: Vec<ReadEntry>,
    /// Entities from text the user typed or trusted.
    #[serde(default, with = "compact_entities")]
    pub trusted: Vec<Entity>,
    #[serde(default)]
    pub next_id: u64,
}

impl Ledger {
    /// Record content that was read; returns its id.
    pub fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String {
        self.next_id += 1;
        let id = format!("r{}", self.next_id);
        self.reads.push(ReadEntry { id: id.clone(), source: source.to_string(), verdict, entities, sender });
        id
    }

    /// Record text the user typed or vouched for.
    pub fn trust_text(&mut self, text: &str) {
        let mut have: std::collections::HashSet<Entity> = self.trusted.iter().cloned().collect();
        for e in typed_entities(text) {
            if have.insert(e.clone()) {
                self.trusted.push(e);
            }
        }
    }

    /// Forget one read; false when there is no such id.
    pub fn forget(&mut self, id: &str) -> bool {
        let before = self.reads.len();
        self.reads.retain(|r| r.id != id);
        self.reads.len() != before
    }

    pub fn reset(&mut self) {
        *self = Ledger { version: LEDGER_VERSION, ..Ledger::default() };
    }
}

/// An entity as a decision sees it, borrowed where it can be.
#[derive(Debug, Clone, PartialEq)]
pub struct EntityRef<'a> {
    pub kind: EntityKind,
    pub value: std::borrow::Cow<'a, str>,
    /// Every mention was in hidden text.
    pub hidden: bool,
}

/// What a decision needs to know about a session: an in-memory [`Ledger`]
/// or a session file read in place ([`crate::session::SessionFile`]).
///
/// The `any_*` walks call `f` with each item until it returns true, and say
/// whether it did (a walk over a long session is the decision's largest
/// cost, so it is one loop inside the implementation, not an iterator).
pub trait History {
    /// Untrusted content was read (and not forgotten).
    fn any_read(&self) -> bool;
    /// Some of it had a review or block verdict.
    fn injected(&self) -> bool;
    /// The senders of what was read (an email's From).
    fn any_sender(&self, f: &mut dyn FnMut(&str) -> bool) -> bool;
    /// Entities of text the user typed or trusted.
    fn any_trusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool;
    /// Entities of what was read.
    fn any_untrusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool;
}

/// What adds to a session: a [`Ledger`], a session file, or a session
/// file opened only to append ([`crate::session::Appender`]).
pub trait Recorder {
    /// Record content that was read; returns its id.
    fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String;
    /// Record text the user typed or vouched for.
    fn trust_text(&mut self, text: &str);
    /// Record scanned content as read: its source, verdict and entities,
    /// and its sender when it is an email by declaration
    /// ([`declared_sender`]). Every front end records a read this way.
    fn add_report(&mut self, report: &crate::detect::Report, declared_email: bool) -> String {
        let sender = declared_sender(report.email.as_ref(), declared_email);
        self.add_read(&report.source, report.verdict, report.entities.to_vec(), sender)
    }
}

/// What edits a session: forgetting needs to know what is in it.
pub trait Journal: Recorder {
    /// Forget one read; false when there is no such id.
    fn forget(&mut self, id: &str) -> bool;
    /// Forget everything.
    fn reset(&mut self);
}

fn entity_ref(e: &Entity) -> EntityRef<'_> {
    EntityRef { kind: e.kind, value: std::borrow::Cow::Borrowed(&e.value), hidden: e.hidden }
}

impl History for Ledger {
    fn any_read(&self) -> bool {
        !self.reads.is_empty()
    }

    fn injected(&self) -> bool {
        self.reads.iter().any(|r| r.verdict != Verdict::Allow)
    }

    fn any_sender(&self, f: &mut dyn FnMut(&str) -> bool) -> bool {
        self.reads.iter().flat_map(|r| &r.sender).any(|s| f(s))
    }

    fn any_trusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool {
        self.trusted.iter().any(|e| f(&entity_ref(e)))
    }

    fn any_untrusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool {
        self.reads.iter().flat_map(|r| &r.entities).any(|e| f(&entity_ref(e)))
    }
}

impl Recorder for Ledger {
    fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String {
        Ledger::add_read(self, source, verdict, entities, sender)
    }

    fn trust_text(&mut self, text: &str) {
        Ledger::trust_text(self, text)
    }
}

impl Journal for Ledger {
    fn forget(&mut self, id: &str) -> bool {
        Ledger::forget(self, id)
    }

    fn reset(&mut self) {
        Ledger::reset(self)
    }
}

/// Entities in a format 1 session file (JSON) as short strings, `e:addr@x`,
/// `u:https://…`, `d:example.com`, `p:+1415…`, with format 2's kind letters
/// (upper case when every mention was hidden). Format 1 is still read, and
/// is how a [`Ledger`] serializes.
mod compact_entities {
    use serde::de::{SeqAccess, Visitor};
    use serde::{Deserializer, Serializer};

    use crate::document::{Entity, EntityKind};

    pub fn serialize<S: Serializer>(v: &[Entity], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(v.iter().map(|e| format!("{}:{}", e.kind.letter(e.hidden), e.value)))
    }

    fn parse<E: serde::de::Error>(s: &str) -> Result<Entity, E> {
        let (k, value) = s.split_once(':').ok_or_else(|| E::custom(format!("entity {s:?} has no kind")))?;
        let letter = match k.as_bytes() {
            &[l] => l,
            _ => 0,
        };
        let kind =
            EntityKind::from_letter(letter).ok_or_else(|| E::custom(format!("entity {s:?} has an unknown kind")))?;
        Ok(Entity { kind, value: value.to_string(), hidden: letter.is_ascii_uppercase() })
    }

    /// A string borrowed from the input when it has no escapes.
    struct Text<'de>(std::borrow::Cow<'de, str>);

    impl<'de> serde::Deserialize<'de> for Text<'de> {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = Text<'de>;
                fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                    f.write_str("a string")
                }
                fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Text<'de>, E> {
                    Ok(Text(std::borrow::Cow::Borrowed(v)))
                }
                fn visit_str<E>(self, v: &str) -> Result<Text<'de>, E> {
                    Ok(Text(std::borrow::Cow::Owned(v.to_string())))
                }
            }
            d.deserialize_str(V)
        }
    }

    struct List;

    impl<'de> Visitor<'de> for List {
        type Value = Vec<Entity>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a list of \"k:value\" entity strings")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Entity>, A::Error> {
            let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
            while let Some(Text(s)) = seq.next_element::<Text<'de>>()? {
                out.push(parse(&s)?);
            }
            Ok(out)
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Entity>, D::Error> {
        d.deserialize_seq(List)
    }
}

// ---------------------------------------------------------------------------
// Deciding.

/// The gate's answer with what it rests on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    pub decision: Decision,
    pub tool: String,
    pub category: Category,
    pub reasons: Vec<String>,
    pub targets: Vec<Target>,
}

/// Does a fetch carry a body out: a method other than GET, HEAD or
/// OPTIONS, or a non-empty body, data, form or JSON argument?
fn sends_body(args: &Value) -> bool {
    // At any depth (`{"options": {"method": "POST", "body": …}}`, `init`),
    // under any spelling (`http_method`, `requestBody`, `post-data`).
    fn walk(v: &Value, depth: usize) -> bool {
        let Some(o) = v.as_object() else { return false };
        if depth > MAX_ARG_DEPTH {
            return true;
        }
        o.iter().any(|(k, v)| {
            let k: String = k.chars().filter(|c| c.is_ascii_alphanumeric()).collect::<String>().to_ascii_lowercase();
            let filled = match v {
                Value::Null | Value::Bool(false) => false,
                Value::String(s) => !s.is_empty(),
                Value::Array(a) => !a.is_empty(),
                Value::Object(m) => !m.is_empty(),
                _ => true,
            };
            let method = k == "method" || k.ends_with("method") || k == "verb";
            if method {
                return v
                    .as_str()
                    .is_some_and(|m| !matches!(m.to_ascii_uppercase().as_str(), "GET" | "HEAD" | "OPTIONS"));
            }
            let body = matches!(
                k.as_str(),
                "body"
                    | "data"
                    | "json"
                    | "form"
                    | "payload"
                    | "postdata"
                    | "formdata"
                    | "requestbody"
                    | "files"
                    | "upload"
                    | "multipart"
                    | "submit"
                    | "fields"
            ) || k.ends_with("body");
            (body && filled) || walk(v, depth + 1)
        })
    }
    walk(args, 0)
}

/// SQL in `t` that changes data, schema or access: a statement word with
/// the word SQL puts after it (`DELETE FROM`, `DROP TABLE`, `UPDATE t SET`,
/// `INSERT INTO`, `GRANT … TO`, `SELECT … INTO`, `SET ROLE`, `ATTACH
/// DATABASE`, `PRAGMA`, …) anywhere: after a comment, inside a `WITH`, an
/// `EXPLAIN` or a `DO` block; or a function that writes or runs. English
/// that merely uses the words (`get the update from Bob`) is not SQL.
fn sql_change(t: &str) -> Option<String> {
    const OBJECTS: [&str; 19] = [
        "TABLE",
        "DATABASE",
        "SCHEMA",
        "INDEX",
        "VIEW",
        "USER",
        "ROLE",
        "FUNCTION",
        "TRIGGER",
        "PROCEDURE",
        "EXTENSION",
        "SEQUENCE",
        "POLICY",
        "TEMP",
        "TEMPORARY",
        "OR",
        "IF",
        "UNIQUE",
        "MATERIALIZED",
    ];
    const FUNCTIONS: [&str; 5] = ["PG_TERMINATE_BACKEND", "LO_EXPORT", "LO_IMPORT", "DBLINK_EXEC", "PG_WRITE_FILE"];
    let cleaned = t.replace("/*", " ").replace("*/", " ").replace("--", " ");
    let words: Vec<String> = cleaned
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && w.len() <= 32)
        .map(str::to_ascii_uppercase)
        .collect();
    let at = |i: usize| words.get(i).map_or("", String::as_str);
    let mut selecting = false;
    let mut inserting = false;
    for i in 0..words.len() {
        let (w, next) = (at(i), at(i + 1));
        let hit = match w {
            "DELETE" => next == "FROM",
            "DROP" | "CREATE" | "ALTER" | "TRUNCATE" | "RENAME" => OBJECTS.contains(&next),
            "UPDATE" => at(i + 2) == "SET",
            "INSERT" | "UPSERT" | "REPLACE" => {
                inserting = true;
                next == "INTO"
            }
            "GRANT" | "REVOKE" => (i + 1..i + 6).any(|j| matches!(at(j), "ON" | "TO")),
            "INTO" => selecting && !inserting,
            "SET" => matches!(next, "ROLE" | "SESSION"),
            "ATTACH" => next == "DATABASE",
            "VACUUM" => next == "INTO",
            "LOAD" => next == "DATA",
            "PRAGMA" => !next.is_empty(),
            "MERGE" => next == "INTO",
            f => FUNCTIONS.contains(&f),
        };
        if hit {
            return Some(if next.is_empty() { w.to_string() } else { format!("{w} {next}") });
        }
        selecting |= w == "SELECT";
    }
    None
}

/// A call as a read's source: the tool and its argument values, as
/// `read_file(bill-march.txt)` (at most 200 characters of values).
pub fn call_label(call: &Call) -> String {
    fn leaves(v: &Value, out: &mut Vec<String>, budget: &mut usize) {
        if *budget == 0 {
            return;
        }
        match v {
            Value::String(s) => out.push(s.chars().take(*budget).collect()),
            Value::Number(n) => out.push(n.to_string()),
            Value::Array(a) => a.iter().for_each(|x| leaves(x, out, budget)),
            Value::Object(o) => o.values().for_each(|x| leaves(x, out, budget)),
            _ => return,
        }
        if let Some(last) = out.last() {
            *budget = budget.saturating_sub(last.chars().count() + 2);
        }
    }
    let mut values = Vec::new();
    leaves(&call.args, &mut values, &mut 200);
    let inner: String = values.join(", ").split_whitespace().collect::<Vec<_>>().join(" ");
    if inner.is_empty() { call.tool.clone() } else { format!("{}({inner})", call.tool) }
}

/// What text the user typed or vouched for may trust: the entities a
/// person sees in it (read as its kind is sniffed, so text that reads as
/// HTML hides what a browser hides), outside any INERTBOX wrapper pasted
/// into it (wrapped content was read, not typed; a wrapper runs to its own
/// end anchor, or to the end of the text). Every front end's trust goes
/// through here.
pub(crate) fn typed_entities(text: &str) -> Vec<Entity> {
    let report = crate::format::check_bytes(text.as_bytes());
    let mut typed = if report.wrappers.is_empty() {
        text.to_string()
    } else {
        crate::format::outside_wrappers(text, &report.wrappers)
    };
    // A begin anchor the parser did not take (line ends a clipboard
    // changed, a quoted or indented paste): what follows it was pasted,
    // not typed.
    if let Some(at) = typed.find("INERTBOX v1 begin") {
        typed.truncate(typed[..at].rfind('\n').map_or(0, |n| n + 1));
    }
    let mut doc = crate::document::Document::load(typed.into_bytes(), crate::document::Kind::Auto, "user");
    // A pasted email is the text a person sees: what its encodings hide
    // (a base64 body, an encoded header) was never read by them.
    if doc.kind == crate::document::Kind::Email {
        doc = crate::document::Document::load(doc.raw.to_vec(), crate::document::Kind::Text, "user");
    }
    let mut out: Vec<Entity> = doc.entities.iter().filter(|e| !e.hidden).cloned().collect();
    // Links typed without a scheme (as a call's are read), accounts and
    // words: in the first `MAX_TYPED_WORDS` bytes of what a person sees.
    let visible = doc.visible_text();
    let visible = &visible[..visible.floor_char_boundary(MAX_TYPED_WORDS)];
    let mut have: std::collections::HashSet<String> =
        out.iter().filter(|e| e.kind == EntityKind::Url).map(|e| e.value.clone()).collect();
    for link in targets::schemeless_links_in(visible) {
        if have.insert(link.clone()) {
            out.push(Entity { kind: EntityKind::Url, value: link, hidden: false });
        }
    }
    // The words, then each account typed as one word (`DE89 3704 …` as
    // `de893704…`), within the cap (lower-casing can lengthen text).
    let mut w = words(visible);
    for a in targets::accounts_in(visible) {
        w.push_str(&a.to_lowercase());
        w.push(' ');
    }
    if w.len() > MAX_TYPED_WORDS {
        let end = w[..w.floor_char_boundary(MAX_TYPED_WORDS)].rfind(' ').unwrap_or(0);
        w.truncate(end + 1);
    }
    if w.len() > 1 {
        out.push(Entity { kind: EntityKind::Words, value: w, hidden: false });
    }
    out
}

/// How many bytes of words typed text keeps (the rest names nothing).
const MAX_TYPED_WORDS: usize = 64 * 1024;

/// A link target's host, as the URL parser reads it.
fn link_host(link: &str) -> Option<String> {
    url::Url::parse(link).ok()?.host_str().map(|h| h.trim_end_matches('.').to_ascii_lowercase())
}

/// The policy's documented shape: an object whose `trusted` is an object of
/// string lists, and whose `tools`, `afterUntrusted` and `always` are
/// objects of strings (their keys and values are checked by serde).
fn policy_shape(v: &Value) -> Result<(), String> {
    let object = |v: &Value, what: &str| match v {
        Value::Object(o) => Ok(o.clone()),
        other => Err(format!("{what} must be an object, not {}", json_type(other))),
    };
    for (k, x) in object(v, "the policy")? {
        match k.as_str() {
            "trusted" => {
                for (k, list) in object(&x, "\"trusted\"")? {
                    let ok = list.as_array().is_some_and(|a| a.iter().all(Value::is_string));
                    if !ok {
                        return Err(format!("\"trusted\".{k:?} must be a list of strings"));
                    }
                }
            }
            "tools" | "afterUntrusted" | "always" => {
                for (name, c) in object(&x, &format!("{k:?}"))? {
                    if !c.is_string() {
                        return Err(format!("{k:?}.{name:?} must be a string, not {}", json_type(&c)));
                    }
                }
            }
            // Unknown keys: serde names them.
            _ => {}
        }
    }
    Ok(())
}

fn json_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A call read for what it aims at, before any session is looked at:
/// deciding is [`plan`], then [`facts`] (one pass over what was read), then
/// [`judge`]. A session file can give its facts while it is read
/// ([`crate::session::decide_in`]), without holding the file.
pub(crate) struct Plan {
    category: Category,
    found: Vec<(TargetKind, String)>,
    notes: Vec<String>,
    /// The kinds of credential the arguments carry.
    secrets: Vec<&'static str>,
    /// `found`, ready to be looked for in entity lists.
    pub(crate) wanted: Wanted,
}

/// What a session says about one call's targets (index by index with
/// [`Plan::wanted`]).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Facts {
    /// Untrusted content was read (and not forgotten).
    pub(crate) any_read: bool,
    /// Some of it had a review or block verdict.
    pub(crate) injected: bool,
    /// What was read mentions the target.
    pub(crate) in_content: Vec<bool>,
    /// Text the user typed or trusted mentions it.
    pub(crate) trusted: Vec<bool>,
    /// It is an address and the sender of something read.
    pub(crate) sender: Vec<bool>,
}

impl Facts {
    /// Nothing read, nothing trusted.
    pub(crate) fn none(targets: usize) -> Facts {
        Facts {
            any_read: false,
            injected: false,
            in_content: vec![false; targets],
            trusted: vec![false; targets],
            sender: vec![false; targets],
        }
    }
}

/// Find a call's category and targets.
pub(crate) fn plan(call: &Call, policy: &Policy) -> Plan {
    let (tool, tool_folded) = fold_confusables(&call.tool);
    let mut category = category(&tool, policy);
    let (mut found, mut notes) = targets_of(call);
    // Names (a channel, a user, a file id), for calls that act on them (a
    // command line's are read as a command's, below; reads, writes and
    // drafts are judged by what they are aimed at in the content).
    if category.is_consequential() && category != Category::Execute {
        let (names, cut) = targets::names_of(&call.args);
        if cut && !found.iter().any(|(k, _)| *k == TargetKind::Unknown) {
            found.push((
                TargetKind::Unknown,
                format!(
                    "names past the limits ({} names, values of {} bytes)",
                    targets::MAX_NAMES,
                    targets::MAX_NAME_SCAN
                ),
            ));
        }
        found.extend(names.into_iter().map(|n| (TargetKind::Name, n)));
        found.sort();
        found.dedup();
    }
    let mut texts = Vec::new();
    strings(&call.args, 0, &mut texts);
    // A command line's hosts are its targets.
    if category == Category::Execute {
        found.extend(texts.iter().flat_map(|t| shell::hosts(&fold_confusables(t).0)).map(|h| (TargetKind::Domain, h)));
        found.sort();
        found.dedup();
    }
    let mut secrets: Vec<&'static str> = Vec::new();
    for k in secrets::texts_to_check(&call.args, &texts).iter().flat_map(|t| secrets::kinds(t)) {
        if !secrets.contains(&k) {
            secrets.push(k);
        }
    }
    if tool_folded {
        notes.insert(0, format!("look-alike letters in the tool name were read as Latin: {:?} → {tool:?}", call.tool));
    }
    // SQL that changes data or access runs it, whatever the tool is called
    // (`mcp__postgres__query {"sql": "DROP TABLE users"}`).
    if matches!(category, Category::Read | Category::Organize)
        && !policy.tools.contains_key(&tool)
        && let Some(stmt) = texts.iter().find_map(|t| sql_change(t))
    {
        category = Category::Execute;
        notes.push(format!("the arguments hold SQL that changes data or access ({stmt} …): judged as a command"));
    }
    // A request that carries a body sends it, whatever fetches it.
    if category == Category::Browse && !policy.tools.contains_key(&tool) && sends_body(&call.args) {
        category = Category::Send;
        notes
            .push("a browse call that sends a body (a method other than GET, or body data) is judged as a send".into());
    }
    let wanted = Wanted::new(&found);
    Plan { category, found, notes, secrets, wanted }
}

/// What a session says about these targets (a plan's `wanted`): one walk
/// over each kind of record, each entity looked up in the index.
pub(crate) fn facts(ledger: &dyn History, wanted: &Wanted) -> Facts {
    let mut facts = Facts::none(wanted.len());
    facts.any_read = ledger.any_read();
    facts.injected = ledger.injected();
    if !wanted.is_empty() {
        let mut ranges = Vec::new();
        ledger.any_untrusted(&mut |e| {
            wanted.mentioned_by(e, &mut |r| ranges.push(r));
            false
        });
        facts.in_content = wanted.covered(ranges.drain(..));
        ledger.any_trusted(&mut |e| {
            wanted.trusted_by(e, &mut |r| ranges.push(r));
            false
        });
        facts.trusted = wanted.covered(ranges.drain(..));
        ledger.any_sender(&mut |s| {
            wanted.sender(s, &mut |r| ranges.push(r));
            false
        });
        facts.sender = wanted.covered(ranges.drain(..));
    }
    facts
}

/// Decide a call against the ledger and policy (DESIGN.md's table).
pub fn decide(call: &Call, ledger: &dyn History, policy: &Policy) -> Outcome {
    let plan = plan(call, policy);
    let facts = facts(ledger, &plan.wanted);
    judge(call, plan, &facts, policy)
}

/// Decide a planned call on what the session says about it.
pub(crate) fn judge(call: &Call, plan: Plan, facts: &Facts, policy: &Policy) -> Outcome {
    let Plan { category, found, notes, secrets, .. } = plan;
    let untrusted_read = facts.any_read;
    let injected = facts.injected;
    let mut targets = Vec::new();
    for (i, (kind, value)) in found.into_iter().enumerate() {
        let origin = if facts.trusted[i]
            || (kind == TargetKind::Email && policy.trusts_address(&value))
            || (kind == TargetKind::Domain && policy.trusts_domain(&value))
            || (kind == TargetKind::Url && link_host(&value).is_some_and(|h| policy.trusts_domain(&h)))
        {
            Origin::Trusted
        } else if facts.sender[i] {
            Origin::Sender
        } else if facts.in_content[i] {
            Origin::Untrusted
        } else {
            Origin::New
        };
        targets.push(Target { kind, value, origin });
    }

    let mut reasons = notes;
    let mut decision = Decision::Allow;
    let raise = |d: &mut Decision, to: Decision, why: String, reasons: &mut Vec<String>| {
        if to > *d {
            *d = to;
        }
        reasons.push(why);
    };

    if untrusted_read {
        let state =
            if injected { "content that looked like an injection was read" } else { "untrusted content was read" };
        // Targets that matter for this category: domains are implied by
        // addresses and links, so only the most specific kinds count.
        // (A domain is implied when it is an address's domain or a link's
        // host; one set of those, not a search of every target for each.)
        let implied: std::collections::HashSet<String> = targets
            .iter()
            .filter_map(|o| match o.kind {
                TargetKind::Email => o.value.rsplit_once('@').map(|(_, d)| d.to_lowercase()),
                TargetKind::Url => link_host(&o.value),
                _ => None,
            })
            .collect();
        let specific: Vec<&Target> = targets
            .iter()
            .filter(|t| t.kind != TargetKind::Domain || !implied.contains(&t.value.to_lowercase()))
            .collect();
        // What only the content mentioned, and what the gate could not read
        // (judged as the content's: it may be anything).
        let from_content: Vec<&&Target> =
            specific.iter().filter(|t| t.origin == Origin::Untrusted || t.kind == TargetKind::Unknown).collect();
        let to_sender =
            !specific.is_empty() && specific.iter().all(|t| matches!(t.origin, Origin::Sender | Origin::Trusted));
        // The user's own work: every target is one the user gave (typed,
        // trusted, or found in clean content a call aimed only at what the
        // user gave read).
        let own = !specific.is_empty() && specific.iter().all(|t| t.origin == Origin::Trusted);
        let any_sender = specific.iter().any(|t| t.origin == Origin::Sender);

        if let Some(&d) = policy.after_untrusted.get(&category) {
            raise(
                &mut decision,
                d,
                format!("policy: {} tools are {} after untrusted content", category.as_str(), d.as_str()),
                &mut reasons,
            );
        } else {
            match category {
                Category::Read | Category::Organize => {}
                Category::Write | Category::Draft if !from_content.is_empty() && injected => {
                    raise(
                        &mut decision,
                        Decision::Confirm,
                        format!(
                            "a {} aimed at {} that only the content mentioned, after {state}",
                            category.as_str(),
                            list(&from_content)
                        ),
                        &mut reasons,
                    );
                }
                Category::Browse if injected => {
                    raise(&mut decision, Decision::Confirm, format!("browsing after {state}"), &mut reasons);
                }
                Category::Browse if specific.iter().any(|t| t.kind == TargetKind::Unknown) => {
                    raise(
                        &mut decision,
                        Decision::Confirm,
                        format!("browsing to {} that the gate cannot read, after {state}", list(&from_content)),
                        &mut reasons,
                    );
                }
                Category::Write | Category::Draft | Category::Browse => {}
                c if c.is_consequential() => {
                    if !from_content.is_empty() {
                        let d = if injected { Decision::Block } else { Decision::Confirm };
                        raise(
                            &mut decision,
                            d,
                            format!(
                                "{} {} call aimed at {} that only the content mentioned, after {state}",
                                article(c),
                                c.as_str(),
                                list(&from_content)
                            ),
                            &mut reasons,
                        );
                    } else if to_sender && c == Category::Send {
                        if injected {
                            let d = if any_sender { Decision::Block } else { Decision::Confirm };
                            raise(
                                &mut decision,
                                d,
                                format!("a send to {} after {state}", list(&specific.iter().collect::<Vec<_>>())),
                                &mut reasons,
                            );
                        } else {
                            reasons.push(format!(
                                "a send to the content's sender or a trusted address ({})",
                                list(&specific.iter().collect::<Vec<_>>())
                            ));
                        }
                    } else if own && c != Category::Execute {
                        let given = list(&specific.iter().collect::<Vec<_>>());
                        if injected {
                            raise(
                                &mut decision,
                                Decision::Confirm,
                                format!(
                                    "{} {} call aimed only at what the user gave ({given}), after {state}",
                                    article(c),
                                    c.as_str()
                                ),
                                &mut reasons,
                            );
                        } else {
                            reasons.push(format!(
                                "{} {} call aimed only at what the user gave ({given})",
                                article(c),
                                c.as_str()
                            ));
                        }
                    } else if c == Category::Execute && injected && is_local_command(call) {
                        raise(
                            &mut decision,
                            Decision::Confirm,
                            format!(
                                "a local command (no network, no deletion, nothing the content named) after {state}"
                            ),
                            &mut reasons,
                        );
                    } else {
                        let d = if injected { Decision::Block } else { Decision::Confirm };
                        let new: Vec<&&Target> = specific.iter().filter(|t| t.origin == Origin::New).collect();
                        let aim = if new.is_empty() {
                            String::new()
                        } else {
                            format!(" aimed at {}, which the user did not give,", list(&new))
                        };
                        raise(
                            &mut decision,
                            d,
                            format!("{} {} call{aim} after {state}", article(c), c.as_str()),
                            &mut reasons,
                        );
                    }
                }
                _ => {}
            }
        }
    }
    // A credential leaving to a destination the user did not give (or to
    // one the gate cannot see, from a tool that sends, fetches or runs):
    // block, naming the kind of secret, never its value.
    if untrusted_read && !secrets.is_empty() {
        let not_given: Vec<&Target> = targets.iter().filter(|t| t.origin != Origin::Trusted).collect();
        let unseen = targets.is_empty()
            && matches!(category, Category::Send | Category::Browse | Category::Execute | Category::Unknown);
        if !not_given.is_empty() || unseen {
            let to = if unseen {
                "a destination the gate cannot see".to_string()
            } else {
                list(&not_given.iter().collect::<Vec<_>>())
            };
            raise(
                &mut decision,
                Decision::Block,
                format!(
                    "the call carries {} to {to}, which the user did not give, after untrusted content was read",
                    secrets.join(" and ")
                ),
                &mut reasons,
            );
        }
    }
    // A link nobody gave the model (the content's links count only as they
    // were written), carrying data in any part of it: confirm.
    for t in &targets {
        if t.kind == TargetKind::Url
            && t.origin == Origin::New
            && untrusted_read
            && let Some(part) = url_carries_data(&t.value)
        {
            raise(
                &mut decision,
                Decision::Confirm,
                format!("a link nobody gave the model carries data in its {part}: {}", t.value),
                &mut reasons,
            );
        }
    }
    if let Some(&d) = policy.always.get(&category) {
        raise(
            &mut decision,
            d,
            format!("policy: {} tools are always at least {}", category.as_str(), d.as_str()),
            &mut reasons,
        );
    }
    if reasons.is_empty() {
        reasons.push(if untrusted_read {
            format!("{} tools are allowed after untrusted content", category.as_str())
        } else {
            "no untrusted content has been read".to_string()
        });
    }
    Outcome { decision, tool: call.tool.clone(), category, reasons, targets }
}

/// A local command: the call gives its command line(s) under `command` or
/// `cmd` (and nothing else that could be code), and every line only reads
/// (`shell::is_read_only`: read-only commands, no expansion, substitution
/// or redirection).
fn is_local_command(call: &Call) -> bool {
    let Some(o) = call.args.as_object() else { return false };
    let mut lines = Vec::new();
    for (k, v) in o {
        match (k.as_str(), v) {
            ("command" | "cmd", Value::String(s)) => lines.push(s.as_str()),
            ("command" | "cmd", Value::Array(a)) => {
                for x in a {
                    match x.as_str() {
                        Some(s) => lines.push(s),
                        None => return false,
                    }
                }
            }
            ("description" | "timeout" | "run_in_background" | "cwd", _) => {}
            _ => return false,
        }
    }
    !lines.is_empty() && lines.iter().all(|l| shell::is_read_only(&fold_confusables(l).0))
}

fn article(c: Category) -> &'static str {
    if matches!(c.as_str().as_bytes()[0], b'a' | b'e' | b'i' | b'o' | b'u') { "an" } else { "a" }
}

fn list(ts: &[&&Target]) -> String {
    let mut s = ts.iter().take(MAX_LISTED).map(|t| t.value.as_str()).collect::<Vec<_>>().join(", ");
    if ts.len() > MAX_LISTED {
        s.push_str(&format!(" and {} more", ts.len() - MAX_LISTED));
    }
    s
}

/// A one-line summary for people.
pub fn summary(o: &Outcome) -> String {
    let mut s = format!("{} {} ({})", o.decision.as_str().to_uppercase(), o.tool, o.category.as_str());
    for r in &o.reasons {
        s.push_str("\n  - ");
        s.push_str(&crate::escape::terminal_safe(r));
    }
    s.push('\n');
    s
}

/// The sender a read names: an email's From (its bare addresses), whom
/// the gate lets the agent write to, only for content that is an email by
/// declaration (`--type email`, a `*.eml` file, a mail tool's output, a
/// caller that says `type: email`). Content that merely looks like an
/// email (any text that starts with `From:` and `Subject:` lines) is still
/// read as one, findings and all, but names no sender: anyone can write
/// those lines into a web page or a file.
pub fn declared_sender(email: Option<&crate::document::EmailMeta>, declared_email: bool) -> Vec<String> {
    match email {
        Some(e) if declared_email => addresses(&e.from),
        _ => Vec::new(),
    }
}

/// The bare addresses in display strings like `"Name" <a@x>`.
pub fn addresses(display: &[String]) -> Vec<String> {
    // `"keys@evil.test (via Docs)" <noreply@docs.example>` is from the
    // address in angle brackets: the display name is anyone's to write.
    let address = |d: &str| {
        let d = match (d.rfind('<'), d.rfind('>')) {
            (Some(open), Some(close)) if open < close => &d[open + 1..close],
            _ => d,
        };
        emails_in(d).first().map(|m| d[m.clone()].to_lowercase())
    };
    display.iter().filter_map(|d| address(d)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A format 1 session (JSON) round-trips through the compact entity strings:
    /// kinds, hidden flags, escaped and non-ASCII values, byte for byte; an
    /// entity string without a known kind is an error, not a silent drop.
    #[test]
    fn session_entities_round_trip() {
        let ents = vec![
            Entity { kind: EntityKind::Email, value: "a@b.test".into(), hidden: false },
            Entity { kind: EntityKind::Url, value: "https://x.test/?q=\"1\"\\é".into(), hidden: true },
            Entity { kind: EntityKind::Domain, value: "x.test".into(), hidden: false },
            Entity { kind: EntityKind::Phone, value: "+1 415 555 0100".into(), hidden: true },
        ];
        let mut ledger = Ledger { version: LEDGER_VERSION, ..Ledger::default() };
        ledger.add_read("page", Verdict::Block, ents.clone(), vec!["s@b.test".into()]);
        ledger.add_read("empty", Verdict::Allow, Vec::new(), Vec::new());
        let json = serde_json::to_string(&ledger).unwrap();
        assert!(
            json.contains(r#""entities":["e:a@b.test","U:https://x.test/?q=\"1\"\\é","d:x.test","P:+1 415 555 0100"]"#),
            "{json}"
        );
        let back: Ledger = serde_json::from_str(&json).unwrap();
        assert_eq!(back, ledger);
        assert_eq!(back.reads[0].entities, ents);
        assert!(back.reads[1].entities.is_empty());
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        let bad = json.replace("d:x.test", "x.test");
        assert!(serde_json::from_str::<Ledger>(&bad).unwrap_err().to_string().contains("has no kind"));
        let bad = json.replace("d:x.test", "z:x.test");
        assert!(serde_json::from_str::<Ledger>(&bad).unwrap_err().to_string().contains("unknown kind"));
    }

    #[test]
    fn a_policy_takes_only_its_documented_shape() {
        for bad in [
            r#"{"trusted": [["evil.test"]]}"#,
            r#"[[["evil.test"]]]"#,
            r#"{"trusted": {"domains": "evil.test"}}"#,
            r#"{"trusted": {"domains": [["evil.test"]]}}"#,
            r#"{"tools": [["send", "read"]]}"#,
            r#"{"always": {"send": ["allow"]}}"#,
        ] {
            let e = Policy::from_json(bad, "p").unwrap_err().to_string();
            assert!(e.starts_with("policy p:"), "{bad}: {e}");
        }
        let p = Policy::from_json(r#"{"trusted": {"domains": ["corp.example"]}}"#, "p").unwrap();
        assert_eq!(p.trusted.domains, vec!["corp.example"]);
    }

    #[test]
    fn policy_names_tools_and_rejects_unknown_keys() {
        let p = Policy::from_json(r#"{"tools": {"qb_create_bill": "financial"}}"#, "p").unwrap();
        assert_eq!(category("qb_create_bill", &p), Category::Financial);
        let e = Policy::from_json(r#"{"trustd": {}}"#, "p").unwrap_err().to_string();
        assert!(e.contains("trustd"), "{e}");
        let e = Policy::from_json(r#"{"tools": {"x": "sendish"}}"#, "p").unwrap_err().to_string();
        assert!(e.contains("sendish"), "{e}");
    }

    #[test]
    fn call_shapes() {
        assert_eq!(parse_call(r#"{"name":"x","arguments":"{\"a\":1}"}"#).unwrap().args, serde_json::json!({"a":1}));
        assert_eq!(parse_call(r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#).unwrap().tool, "Bash");
        assert!(matches!(parse_call("{}"), Err(GateError::CallNoName)));
        assert!(matches!(parse_call("nope"), Err(GateError::CallJson(_))));
    }
}
