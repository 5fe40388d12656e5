//! inertbox: stands between untrusted text and an AI agent.
//!
//! - [`format`]: the INERTBOX v1 wrapped-document format (`wrap`, `check`).
//! - [`document`]: the one [`Document`] every subcommand starts from, and the
//!   one way to read input.
#![forbid(unsafe_code)]

pub mod checkrun;
pub mod detect;
pub mod document;
pub mod email;
pub mod entities;
pub mod fence;
pub mod format;
pub mod gate;
pub mod hook;
#[cfg(unix)]
pub mod hookd;
pub mod html;
pub mod invisible;
pub mod mcp;
/// The fixed patterns the build script compiles with the rules.
pub(crate) use inertbox_rules::patterns;
pub(crate) mod prebuilt;
pub mod report;
pub mod serve;
pub mod session;
#[doc(hidden)]
pub mod testing;
pub mod unwrap;

/// Run the scanner's patterns as a server does, for the rest of this
/// process: each compiled by the `regex` crate and the rule keys searched
/// with a DFA, built once and then faster than a one-shot command's
/// engines (docs/engines.md). `serve`, `mcp` and `hook serve` call it
/// before their first request; a program that embeds the library and
/// answers many requests calls it once at start. Without it every search
/// runs the one-shot engines, which build nothing the text does not need.
/// Either way the findings are the same.
pub fn run_as_server() {
    prebuilt::run_as_server();
}

pub use document::{Document, Input, ReadError};
pub use format::{CheckReport, Stamp, WrapError, WrapOptions, WrapperReport, check_bytes, check_reader, wrap_bytes};
pub use gate::{Decision, Guard, Policy};
