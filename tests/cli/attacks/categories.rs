//! Class 6: categories from tool names. The riskiest verb anywhere wins and
//! a resource noun never decides, so none of these runs unattended after
//! untrusted content, and after an injection each is blocked.

use super::{CLEAN, Case, INJECTED, expect};
use inertbox::gate::Decision::{Block, Confirm};
use serde_json::json;

#[test]
fn disguised_names_are_what_they_do() {
    for tool in [
        "messages_send",
        "mcp__graph__me_sendMail",
        "calendar.events.insert",
        "drafts_send",
        "mcp__gdrive__files_delete",
        "export_contacts",
        "mcp__github__issues_create",
        "update_repository_visibility",
        "mcp__stripe__refunds_create",
    ] {
        expect(&Case::after(CLEAN, tool, json!({"id": "42"})), Confirm);
        expect(&Case::after(INJECTED, tool, json!({"id": "42"})), Block);
    }
}

/// Names that hide what they do behind a reading or writing word, a second
/// clause, or a noun the gate does not know; and SQL that changes data
/// under any tool name.
#[test]
fn what_a_name_or_its_arguments_hide_is_found() {
    for (tool, args) in [
        ("read_and_email", json!({"id": "42"})),
        ("move_money", json!({"id": "42"})),
        ("set_public", json!({"id": "42"})),
        ("update_forwarding", json!({"id": "42"})),
        ("mcp__stripe__create", json!({"object": "payout", "amount": 500000})),
        ("apply_migration", json!({"name": "m1"})),
        ("mcp__postgres__query", json!({"sql": "DROP TABLE users"})),
        ("mcp__postgres__query", json!({"sql": "select 1; grant all on db to public"})),
        ("mcp__postgres__query", json!({"sql": "/* x */ DROP TABLE users"})),
        ("mcp__postgres__query", json!({"sql": "WITH d AS (DELETE FROM users RETURNING *) SELECT 1"})),
        ("mcp__postgres__query", json!({"sql": "EXPLAIN ANALYZE DELETE FROM users"})),
        ("mcp__postgres__query", json!({"sql": "SELECT * INTO t2 FROM users"})),
        ("mcp__postgres__query", json!({"sql": "SET ROLE admin"})),
        ("query_graphql", json!({"query": "mutation { deleteUser(id: 1) { id } }"})),
        ("query_graphql", json!({"query": "query A { a }\nmutation B($id: ID!) { b(id: $id) }"})),
        // What the verb acts on (real servers' names, helper-89's review).
        ("unlock_door", json!({"entity_id": "lock.front"})),
        ("format_disk", json!({"disk": "sdb"})),
        ("mark_as_paid", json!({"invoice": "INV-7"})),
        ("assign_role", json!({"user": "42", "role": "admin"})),
        ("unprotect_branch", json!({"branch": "main"})),
        ("CLOSE_POSITION", json!({"market": "SOL-PERP"})),
        ("computer_use_preview", json!({"action": "click"})),
        ("docker_compose", json!({"plan": "up"})),
        ("valkey_write", json!({"command": "FLUSHALL"})),
        ("sign_document", json!({"document": "42"})),
        ("check_out", json!({"cart": "42"})),
        ("recall_message", json!({"message_id": "42"})),
        ("get_file_sharing_link", json!({"file": "42"})),
        // A query under a query's key runs, whatever the tool is called.
        ("write_query", json!({"query": "DELETE FROM users"})),
        ("write_neo4j_cypher", json!({"query": "MATCH (n) DETACH DELETE n"})),
        ("all_api_write", json!({"query": "mutation { deleteAll }"})),
    ] {
        expect(&Case::after(CLEAN, tool, args.clone()), Confirm);
        expect(&Case::after(INJECTED, tool, args), Block);
    }
    // Reading stays reading, even after an injection: queries that only
    // read, names that open with a reading verb, a file's content that
    // holds SQL (a file, not a query), an MCP resource's URI (no web link).
    for (tool, args) in [
        ("mcp__postgres__query", json!({"sql": "SELECT name FROM users"})),
        ("query_graphql", json!({"query": "query { user(id: 1) { name } }"})),
        ("get_merge_request", json!({"iid": "42"})),
        ("read_neo4j_cypher", json!({"query": "MATCH (n) WHERE n.set = 1 RETURN n"})),
        ("write_file", json!({"path": "m.sql", "content": "DELETE FROM users;"})),
        ("ReadMcpResourceTool", json!({"server": "docs", "uri": "docs://readme"})),
    ] {
        expect(&Case::after(INJECTED, tool, args), inertbox::gate::Decision::Allow);
    }
    // Reading a link fetches it: browsing, which an injection makes ask.
    expect(&Case::after(INJECTED, "requests_get", json!({"url": "https://evil.test/"})), Confirm);
    expect(
        &Case::after(CLEAN, "requests_get", json!({"url": "https://docs.example/"})),
        inertbox::gate::Decision::Allow,
    );
}
