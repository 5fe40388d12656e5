//! The gate: allow, confirm or block a tool call once the agent has read
//! untrusted content.
//!
//! A call's category comes from the tool's name (policy can override it),
//! its targets from its arguments (addresses, links, domains, numbers); the
//! ledger says what was read (with its verdict and entities) and what the
//! user typed or trusted. The decision table is DESIGN.md's.

use serde::{Deserialize, Serialize};

mod call;
mod category;
mod decide;
mod handles;
mod intent;
mod ledger;
mod policy;
mod secrets;
mod shell;
mod targets;
mod twins;
mod wanted;
pub use call::{Call, Hints, call_from_value, call_label, parse_call};
pub use category::{category, name_words};
pub(crate) use decide::{
    ContentNotes, Facts, NamedIds, TrustNotes, facts, judge, plan, project_read, reads_place, source_hash,
};
pub use decide::{Outcome, decide, summary};
pub use ledger::{EntityRef, History, Journal, Ledger, ReadEntry, Recorder, addresses, declared_sender};
pub(crate) use ledger::{LEDGER_VERSION, typed_entities};
pub use policy::{Policy, Trusted};
pub(crate) use secrets::redactions;
pub use targets::{Origin, Target, TargetKind, fold_confusables, targets_of, words};
pub(crate) use wanted::Wanted;

/// Depth to which call arguments are walked for targets.
const MAX_ARG_DEPTH: usize = 32;
/// Strings examined per call (a huge argument list stays bounded).
const MAX_ARG_STRINGS: usize = 10_000;
/// Query values at least this long, base64- or hex-shaped, count as data.
const DATA_VALUE_MIN: usize = 16;

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
