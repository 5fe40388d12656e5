//! A tool call: its shapes in JSON, its label as a read's source, and what
//! its arguments say beyond their targets (a request body, SQL that changes
//! data, a command line that only reads).

use serde_json::Value;

use super::targets::fold_confusables;
use super::{GateError, MAX_ARG_DEPTH, shell};

/// A tool call: the tool's name, its arguments, and what the tool's server
/// says about it.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub tool: String,
    pub args: Value,
    pub hints: Hints,
}

impl Call {
    /// A call of a tool nothing is known about but its name.
    pub fn new(tool: String, args: Value) -> Call {
        Call { tool, args, hints: Hints::default() }
    }
}

/// What an MCP server declares about its tool in `annotations`
/// (`readOnlyHint`, `destructiveHint`, `openWorldHint`), each as given.
/// The server is not trusted for them: they can make a call's category
/// riskier, never safer ([`category`](super::category)'s caller, `plan`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Hints {
    pub read_only: Option<bool>,
    pub destructive: Option<bool>,
    pub open_world: Option<bool>,
}

impl Hints {
    /// The hints in a tool's `annotations` object; a hint that is not a
    /// boolean is no hint.
    pub fn from_annotations(annotations: Option<&Value>) -> Hints {
        let hint = |k: &str| annotations.and_then(|a| a.get(k)).and_then(Value::as_bool);
        Hints {
            read_only: hint("readOnlyHint"),
            destructive: hint("destructiveHint"),
            open_world: hint("openWorldHint"),
        }
    }
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
    Ok(Call::new(tool, args))
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

/// Does a fetch carry a body out: a method other than GET, HEAD or
/// OPTIONS, or a non-empty body, data, form or JSON argument?
pub(super) fn sends_body(args: &Value) -> bool {
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

/// A GraphQL document that holds a mutation (`mutation { deleteUser(id:
/// 1) … }`, `query A {…} mutation B {…}`): the keyword at a line's or the
/// document's start, or after a `}`, then `{`, or a name and `{`, `@` or
/// `($`. English that uses the word is not one: `mutation in BRCA1`,
/// `mutation rate (per base)`.
pub(super) fn graphql_mutation(t: &str) -> bool {
    if !t.contains('{') {
        return false;
    }
    let b = t.as_bytes();
    let mut from = 0;
    while let Some(p) = memchr::memmem::find(&b[from..], b"mutation") {
        let at = from + p;
        from = at + 8;
        let before = t[..at].trim_end_matches([' ', '\t', '\r']);
        let opens = before.is_empty() || before.ends_with(['\n', '}']);
        if !opens {
            continue;
        }
        // `mutation {`, or `mutation Name` then `{`, a directive's `@`, or
        // variables (`($id: ID!)`).
        let rest = t[at + 8..].trim_start();
        let named = rest.len() < t.len() - at - 8;
        let name = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
        let after = if named && name > 0 && rest.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
            rest[name..].trim_start()
        } else {
            rest
        };
        let variables = after.strip_prefix('(').is_some_and(|v| v.trim_start().starts_with('$'));
        if after.starts_with(['{', '@']) || variables {
            return true;
        }
    }
    false
}

/// A Cypher query that changes the graph (`MATCH (n) DETACH DELETE n`,
/// `CREATE (:User {…})`, `MATCH … SET n.role = 'admin'`): one of Cypher's
/// writing clauses as a word of its own, in a text that reads or makes
/// nodes (`MATCH`, `CREATE`, `MERGE`).
pub(super) fn cypher_change(t: &str) -> bool {
    let words: Vec<String> = t.split_whitespace().map(str::to_ascii_uppercase).collect();
    // A clause and its pattern: `MATCH (n)…`, `CREATE(u:User…`.
    let clause = |c: &str| {
        words.iter().enumerate().any(|(i, w)| {
            // A node as Cypher writes one: `(n)`, `(u:User`, `(:Label)`.
            let node = |p: &str| p.starts_with('(') && p.contains([')', ':']);
            w.strip_prefix(c)
                .is_some_and(|rest| node(rest) || rest.is_empty() && words.get(i + 1).is_some_and(|n| node(n)))
        })
    };
    let makes = clause("CREATE") || clause("MERGE");
    let changes = words.iter().any(|w| matches!(w.as_str(), "DELETE" | "DETACH" | "SET" | "REMOVE" | "DROP"));
    makes || clause("MATCH") && changes
}

/// The text under a key that names a query or a command (`query`, `sql`,
/// `cypher`, `statement`, `command`…), at any depth.
pub(super) fn query_texts(args: &serde_json::Value) -> Vec<&str> {
    // Whether a key names a query: read once per key, not once per value
    // under it.
    fn names_query(k: &str) -> bool {
        super::name_words(k).iter().any(|w| {
            matches!(
                w.as_str(),
                "query"
                    | "queries"
                    | "sql"
                    | "cypher"
                    | "gql"
                    | "graphql"
                    | "statement"
                    | "statements"
                    | "stmt"
                    | "command"
                    | "commands"
                    | "cmd"
                    | "mutation"
            )
        })
    }
    fn walk<'a>(v: &'a serde_json::Value, named: bool, depth: usize, out: &mut Vec<&'a str>) {
        // Past the depth the walk stops, as `strings` does (which the
        // targets flag as unread).
        if depth > super::MAX_ARG_DEPTH {
            return;
        }
        match v {
            serde_json::Value::String(s) if named => out.push(s),
            serde_json::Value::Array(a) => a.iter().for_each(|x| walk(x, named, depth + 1, out)),
            serde_json::Value::Object(o) => o.iter().for_each(|(k, x)| walk(x, names_query(k), depth + 1, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(args, false, 0, &mut out);
    out
}

/// SQL in `t` that changes data, schema or access: a statement word with
/// the word SQL puts after it (`DELETE FROM`, `DROP TABLE`, `UPDATE t SET`,
/// `INSERT INTO`, `GRANT … TO`, `SELECT … INTO`, `SET ROLE`, `ATTACH
/// DATABASE`, `PRAGMA`, …) anywhere: after a comment, inside a `WITH`, an
/// `EXPLAIN` or a `DO` block; or a function that writes or runs. English
/// that merely uses the words (`get the update from Bob`) is not SQL.
pub(super) fn sql_change(t: &str) -> Option<String> {
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

/// A local command: the call gives its command line(s) under `command` or
/// `cmd` (and nothing else that could be code), and every line only reads
/// (`shell::is_read_only`: read-only commands, no expansion, substitution
/// or redirection).
pub(super) fn is_local_command(call: &Call) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn graphql_mutations_are_told_from_english() {
        for doc in [
            "mutation { deleteUser(id: 1) { id } }",
            "# remove\nmutation Del($id: ID!) { deleteUser(id: $id) { id } }",
            "mutation ($id: ID!) { d(id: $id) }",
            "query A { a } mutation B @live { b }",
            "  mutation\n  Rename {\n x }",
        ] {
            assert!(graphql_mutation(doc), "{doc:?}");
        }
        for text in [
            "query { user(id: 1) { name } }",
            "mutation in BRCA1 {x}",
            "mutation rate (per base) {x}",
            "the mutation { is rare }",
            "mutations { a }",
        ] {
            assert!(!graphql_mutation(text), "{text:?}");
        }
    }

    #[test]
    fn cypher_changes_are_told_from_english() {
        for q in [
            "MATCH (n) DETACH DELETE n",
            "CREATE (u:User {name: 'x'})",
            "MATCH (a:Account) SET a.admin = true",
            "MERGE(n:Key {k: 1})",
        ] {
            assert!(cypher_change(q), "{q:?}");
        }
        // No limit lets a change through: thousands of words before it, or
        // the query under the hundredth key that names one.
        assert!(cypher_change(&format!("MATCH (n) WHERE {} DETACH DELETE n", "n.x = 1 AND ".repeat(5000))));
        let mut many: serde_json::Map<String, serde_json::Value> =
            (0..100).map(|i| (format!("query_{i:03}"), "MATCH (n) RETURN n".into())).collect();
        many.insert("query_999".into(), "MATCH (n) DETACH DELETE n".into());
        let args = serde_json::Value::Object(many);
        assert!(query_texts(&args).iter().any(|t| cypher_change(t)));
        for q in [
            "MATCH (n) WHERE n.set = 1 RETURN n",
            "how to create a match set in tennis",
            "match (the game) and set it up",
            "MATCH (n:Person) RETURN n.name",
        ] {
            assert!(!cypher_change(q), "{q:?}");
        }
    }

    #[test]
    fn call_shapes() {
        assert_eq!(parse_call(r#"{"name":"x","arguments":"{\"a\":1}"}"#).unwrap().args, serde_json::json!({"a":1}));
        assert_eq!(parse_call(r#"{"tool_name":"Bash","tool_input":{"command":"ls"}}"#).unwrap().tool, "Bash");
        assert!(matches!(parse_call("{}"), Err(GateError::CallNoName)));
        assert!(matches!(parse_call("nope"), Err(GateError::CallJson(_))));
    }
}
