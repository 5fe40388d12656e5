//! Session files: the gate's ledger, shared by separate processes.
//!
//! A hook runs on every tool call of a long agent session, so a session file
//! is built to be appended to and read without building anything per entry:
//! a new read is one line added at the end, and a decision ([`decide_in`])
//! reads the file 16 KB at a time, checking each line and keeping only
//! which reads mention the call's targets (a 1,000-read session is 111 KB;
//! holding it, and an index of it, cost a gate process some 45 fresh pages).
//!
//! Format v2, UTF-8, one record per line, fields separated by tabs (shown
//! as → here), every line ending in `\n`:
//!
//! ```text
//! inertbox-session 2
//! r→r1→block→WebFetch https://x.test/→s:news@x.test→e:pay@evil.test→U:https://evil.test/x
//! t→e:me@home.test→d:home.test
//! f→r1
//! ```
//!
//! - `r ID VERDICT SOURCE ITEM…`: content that was read, its verdict
//!   (`allow`, `review`, `block`), where it came from, and its items; ids
//!   count up (`r1`, `r2`, …, gaps allowed), so a writer that reads only
//!   the file's last read knows the next;
//! - `t ITEM…`: entities of text the user typed or trusted;
//! - `f ID`: the read with this id is forgotten (`gate --forget`);
//! - an item is a kind letter, `:` and a value: `e` address, `u` link, `d`
//!   domain, `p` phone number, upper case when every mention was hidden; `s`
//!   is a read's own sender (an email's From); the gate's own items are `w`
//!   (words), `i` (a request), `h` (a JSON answer's handles) and `n` (the
//!   names a read gives objects and mentions: lines `+ids name`, `-ids
//!   name`, `~name`, and `!` when cut).
//!
//! In every field a backslash, tab, line feed and carriage return are
//! written `\\`, `\t`, `\n`, `\r`. Anything else (an unknown record, a bad
//! verdict or escape) makes the file corrupt: an error that says where,
//! never a silent reset.
//!
//! A last line without its line end is a record a crash cut off: it is
//! dropped and counted as a read of unreadable content with a review
//! verdict ([`TORN_SOURCE`]), so decisions are made as after an injection
//! instead of every later call failing on a corrupt file. The next writer
//! rewrites the file (temporary file, then rename) without the torn bytes
//! and with that read, so a record appended later never joins them.
//!
//! Version 1 files (one JSON object) are still read; the first change
//! rewrites them as version 2.

mod append;
mod file;
mod record;
pub mod reveal;
mod stream;

pub use append::Appender;
pub(crate) use file::lock_beside;
pub use file::{SessionFile, create_private_dir};
pub use stream::{Streamed, decide_in};

/// The first line of a version 2 session file.
pub const HEADER: &str = "inertbox-session 2\n";

/// The source of the read that stands for a last record cut off by a crash.
pub const TORN_SOURCE: &str = "a session record cut off by a crash (unreadable, counted as untrusted)";

/// What every error about a session's content ends with.
const RESET_HINT: &str = "move it away or run `inertbox gate --reset --session FILE`";

/// Record scanned content as read in the session file at `path` (opened
/// to append, committed at once): each report with whether its content is
/// an email by declaration, and with what its sentences ask for when
/// `asked` (the policy's `listedTargets`). `scan`/`fence --session` and
/// the MCP proxy record this way.
pub fn record<'a>(
    path: &std::path::Path,
    reads: impl IntoIterator<Item = (&'a crate::detect::Report, bool)>,
    asked: bool,
) -> Result<(), crate::gate::GateError> {
    use crate::gate::Recorder as _;
    let mut file = Appender::open(path)?;
    for (report, declared) in reads {
        file.add_report(report, declared, asked);
    }
    file.commit()
}

/// What the submodules' tests share.
#[cfg(test)]
mod tests {
    use super::SessionFile;
    use crate::document::{Entity, EntityKind};

    pub(super) fn ent(kind: EntityKind, value: &str, hidden: bool) -> Entity {
        Entity { kind, value: value.into(), hidden }
    }

    pub(super) fn fresh() -> SessionFile {
        SessionFile::from_text(String::new()).unwrap()
    }
}
