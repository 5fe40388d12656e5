//! What inertbox's build script and its library both read: the rule table
//! (`table`, with the shared words and rewrites in `text`), the fixed
//! patterns outside it (`patterns`), the rule keys' search tables (`keys`)
//! and the layout of the blob of build-time automata (`blob`).
//!
//! The build script (`build/main.rs` in the root crate) compiles every
//! pattern here to Thompson NFAs and writes them, and the key tables, into
//! its `OUT_DIR`; the library looks patterns up in what it wrote. Both sides
//! take the patterns from this crate, so they cannot disagree about them,
//! and a test in the library checks what the build script wrote against
//! what this crate works out.
//!
//! Standard library and regex-automata's NFA types only: the library links
//! this crate, and must not grow a parser or Unicode tables by it.

#![forbid(unsafe_code)]

pub mod blob;
pub mod defuse;
pub mod keys;
pub mod lexicon;
pub mod lexicon_folded;
pub mod patterns;
mod table;
pub mod text;

pub use table::table;

/// The stable finding codes scripts branch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "snake_case"))]
pub enum Code {
    Override,
    RoleHijack,
    FakeBoundary,
    AddressedToAi,
    FalseAuthority,
    MemoryPoisoning,
    PromptLeak,
    Secrecy,
    ActionRequest,
    Exfiltration,
    EncodedPayload,
    SmuggledText,
    HiddenText,
    Obfuscated,
    InvisibleChars,
    BidiOverride,
}

impl Code {
    pub const ALL: [Code; 16] = [
        Code::Override,
        Code::RoleHijack,
        Code::FakeBoundary,
        Code::AddressedToAi,
        Code::FalseAuthority,
        Code::MemoryPoisoning,
        Code::PromptLeak,
        Code::Secrecy,
        Code::ActionRequest,
        Code::Exfiltration,
        Code::EncodedPayload,
        Code::SmuggledText,
        Code::HiddenText,
        Code::Obfuscated,
        Code::InvisibleChars,
        Code::BidiOverride,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Code::Override => "override",
            Code::RoleHijack => "role_hijack",
            Code::FakeBoundary => "fake_boundary",
            Code::AddressedToAi => "addressed_to_ai",
            Code::FalseAuthority => "false_authority",
            Code::MemoryPoisoning => "memory_poisoning",
            Code::PromptLeak => "prompt_leak",
            Code::Secrecy => "secrecy",
            Code::ActionRequest => "action_request",
            Code::Exfiltration => "exfiltration",
            Code::EncodedPayload => "encoded_payload",
            Code::SmuggledText => "smuggled_text",
            Code::HiddenText => "hidden_text",
            Code::Obfuscated => "obfuscated",
            Code::InvisibleChars => "invisible_chars",
            Code::BidiOverride => "bidi_override",
        }
    }

    pub fn parse(s: &str) -> Option<Code> {
        Code::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// How much a finding weighs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize), serde(rename_all = "lowercase"))]
pub enum Severity {
    Low,
    Medium,
    High,
}

impl Severity {
    /// One step lower (a quoted example of an attack).
    pub fn lower(self) -> Severity {
        match self {
            Severity::High => Severity::Medium,
            _ => Severity::Low,
        }
    }

    /// One step higher (an instruction hidden from the reader).
    pub fn higher(self) -> Severity {
        match self {
            Severity::Low => Severity::Medium,
            _ => Severity::High,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
        }
    }
}

/// One rule.
pub struct Rule {
    pub id: &'static str,
    pub code: Code,
    pub severity: Severity,
    /// Lowercase literals; every match of `pattern` contains one.
    pub keys: &'static [&'static str],
    /// A regex over the normalised (lowercase) text, as written (the
    /// library compiles `text::final_pattern` of it).
    pub pattern: &'static str,
    pub why: &'static str,
}

/// A row of the rule table (`table.rs`).
macro_rules! rule {
    ($id:literal, $code:ident, $sev:ident, [$($k:literal),+ $(,)?], $pat:expr, $why:literal) => {
        $crate::Rule {
            id: $id,
            code: $crate::Code::$code,
            severity: $crate::Severity::$sev,
            keys: &[$($k),+],
            pattern: $pat,
            why: $why,
        }
    };
}
use rule;
