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
