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

pub use document::{Document, Input, ReadError};
pub use format::{CheckReport, Stamp, WrapError, WrapOptions, WrapperReport, check_bytes, check_reader, wrap_bytes};
pub use gate::{Decision, Guard, Policy};
