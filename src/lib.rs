//! inertbox: stands between untrusted text and an AI agent.
//!
//! The modules in the order data flows through them; none imports one
//! further down this list.
//!
//! 1. [`input`]: where bytes come from, the size cap, replacing files.
//! 2. [`document`]: the one [`Document`] (types only).
//! 3. [`load`]: bytes to a Document, the one caller of `email`, `html`,
//!    `invisible` and `entities` (and `escape`, a leaf every module uses).
//! 4. [`detect`]: findings and a verdict (`report` prints them).
//! 5. [`fence`]: content for a prompt, in a boundary it cannot forge.
//! 6. [`gate`]: allow, confirm or block for a tool call; [`session`] keeps
//!    its ledger in a file.
//! 7. [`guard`]: the façade every front end uses (read, fence, check,
//!    trust, forget, reset, over any ledger).
//! 8. Front ends: `serve`, `mcp`, `hook` (Claude Code) and `hookd` (its
//!    server); the command line is `src/main.rs` and `src/cli/`.
//!
//! Beside the flow: [`format`](mod@format), the INERTBOX v1 wrapped-document format
//! (`wrap`, `check`; `checkrun` walks the inputs), [`unwrap`], the
//! JSON in a model's reply, and [`screen`], a model's second opinion
//! (the screening prompt, and its reply made findings).
//!
//! The library's API is what a program embedding inertbox needs: reading
//! ([`input`], [`document`], [`load`]), [`detect`], [`fence`], [`gate`],
//! [`guard`], [`session`], [`format`](mod@format), [`unwrap`]. The loaders'
//! parts (`email`, `html`, `invisible`, `entities`, `escape`) are private;
//! the fuzz targets and benchmarks reach the three parsers through
//! `testing`, which is not API. The front ends (`serve`, `mcp`, `hook`,
//! `hookd`, `report`, `checkrun`) are public for the binary in `src/cli/`
//! and left out of the docs.
#![deny(unsafe_code)]

/// A closed set of names for a library enum (`--type`, `--mode`,
/// `--format`, and the same fields in `serve` and `mcp`): parsed here once,
/// by `FromStr` and by clap, from the enum's own `as_str`. `$what` names
/// the field in the error; the variants are listed in the order help shows.
macro_rules! choices {
    ($ty:ident, $what:literal, [$($v:ident),+]) => {
        impl $ty {
            pub const ALL: &'static [$ty] = &[$($ty::$v),+];
        }
        impl std::str::FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<$ty, String> {
                $ty::ALL.iter().copied().find(|v| v.as_str() == s).ok_or_else(|| {
                    let names: Vec<&str> = $ty::ALL.iter().map(|v| v.as_str()).collect();
                    let (last, rest) = names.split_last().expect("a choice has names");
                    format!("{} must be {} or {last}, not {s:?}", $what, rest.join(", "))
                })
            }
        }
        impl clap::ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [$ty] {
                $ty::ALL
            }
            fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
                Some(clap::builder::PossibleValue::new(self.as_str()))
            }
        }
    };
}

#[doc(hidden)]
pub mod checkrun;
pub mod detect;
pub mod document;
mod email;
mod entities;
mod escape;
pub mod fence;
pub mod format;
pub mod gate;
pub mod guard;
#[doc(hidden)]
pub mod hook;
#[cfg(unix)]
#[doc(hidden)]
pub mod hookd;
mod html;
pub mod input;
mod invisible;
mod json_text;
pub mod load;
#[doc(hidden)]
pub mod mcp;
/// The fixed patterns the build script compiles with the rules.
pub(crate) use inertbox_rules::patterns;
pub(crate) mod prebuilt;
#[doc(hidden)]
pub mod report;
pub mod screen;
#[doc(hidden)]
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

pub use document::Document;
pub use format::{CheckReport, Stamp, WrapError, WrapOptions, WrapperReport, check_bytes, check_reader, wrap_bytes};
pub use gate::{Decision, Policy};
pub use guard::Guard;
pub use input::{Input, ReadError};
