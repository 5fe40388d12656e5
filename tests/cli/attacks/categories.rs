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
    ] {
        expect(&Case::after(CLEAN, tool, args.clone()), Confirm);
        expect(&Case::after(INJECTED, tool, args), Block);
    }
    // Reading stays reading.
    expect(
        &Case::after(INJECTED, "mcp__postgres__query", json!({"sql": "SELECT name FROM users"})),
        inertbox::gate::Decision::Allow,
    );
}
