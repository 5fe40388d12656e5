//! Adding to a session file without reading it whole: the header and the
//! last read's line are enough to append the next records.

use std::fs::File;
use std::io::{Read as _, Seek as _, SeekFrom};
use std::path::Path;

use super::file::{SessionFile, lock, read_text, with_lock};
use super::{HEADER, RESET_HINT};
use crate::detect::Verdict;
use crate::document::Entity;
use crate::gate::{GateError, Recorder};

/// A session file opened only to add records (what a PostToolUse hook and
/// `scan`/`fence --session` do): it reads the header and the last read's
/// line, not the whole file, so adding costs the same in a session of ten
/// reads or ten thousand. The file is checked whole by every reader (`gate`,
/// PreToolUse), so damage is still an error, at the next decision. A version
/// 1 file, or an empty one, is opened whole (it is rewritten anyway).
pub struct Appender {
    file: SessionFile,
}

impl Appender {
    /// Lock the session at `path` (a missing file is a new session) and
    /// read what adding needs: the header and the last read's id. A file
    /// that is not format 2 is read whole (format 1 is converted, anything
    /// else is an error), and so is one whose last record was cut off
    /// mid-line (it is rewritten without it, see [`TORN_SOURCE`](super::TORN_SOURCE)).
    pub fn open(path: &Path) -> Result<Appender, GateError> {
        let err = |why: String| GateError::Ledger { path: path.display().to_string(), why };
        let lock = lock(path)?;
        let mut f = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Appender { file: with_lock(SessionFile::from_text(String::new()), path, lock)? });
            }
            Err(e) => return Err(err(format!("cannot read: {e}"))),
        };
        let len = f.metadata().map_err(|e| err(format!("cannot read: {e}")))?.len();
        let mut head = vec![0; HEADER.len().min(len as usize)];
        f.read_exact(&mut head).map_err(|e| err(format!("cannot read: {e}")))?;
        let mut last = [b'\n'];
        if len > HEADER.len() as u64 {
            f.seek(SeekFrom::Start(len - 1))
                .and_then(|_| f.read_exact(&mut last))
                .map_err(|e| err(format!("cannot read: {e}")))?;
        }
        if head != HEADER.as_bytes() || last != [b'\n'] {
            // Version 1, blank, not a session, or a last record cut off:
            // the whole-file path says which, and rewrites a torn file.
            f.seek(SeekFrom::Start(0)).map_err(|e| err(format!("cannot read: {e}")))?;
            let text = read_text(&mut f).map_err(err)?;
            return Ok(Appender { file: with_lock(SessionFile::from_text(text), path, lock)? });
        }
        let last_id = last_read_id(&mut f, len).map_err(|why| err(format!("{why}; {RESET_HINT}")))?;
        let mut file = with_lock(SessionFile::from_text(String::new()), path, lock)?;
        // Only new lines are kept; all of them are appended on commit.
        file.text.clear();
        file.whole = false;
        file.index.last_id = last_id;
        Ok(Appender { file })
    }

    /// Append what was added (nothing when nothing was).
    pub fn commit(&mut self) -> Result<(), GateError> {
        self.file.commit()
    }
}

impl Recorder for Appender {
    fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String {
        self.file.add_read(source, verdict, entities, sender)
    }

    /// Trusted entities are added without looking for earlier copies (they
    /// are not read here); a reader takes each once.
    fn trust_text(&mut self, text: &str) {
        self.file.trust_text(text)
    }
}

/// The number in the last read's id (`r7` → 7), from the end of a version 2
/// file of `len` bytes: tail blocks read backwards until a read's line.
fn last_read_id(f: &mut File, len: u64) -> Result<u64, String> {
    let io = |e: std::io::Error| format!("cannot read: {e}");
    let body = HEADER.len() as u64;
    let mut from = len;
    let mut tail: Vec<u8> = Vec::new();
    loop {
        let start = from.saturating_sub(8192).max(body);
        let mut block = vec![0; (from - start) as usize];
        f.seek(SeekFrom::Start(start)).map_err(io)?;
        f.read_exact(&mut block).map_err(io)?;
        block.extend_from_slice(&tail);
        tail = block;
        // Whole lines only: the first may be cut unless this is the body's start.
        let whole = if start == body { &tail[..] } else { tail.splitn(2, |&b| b == b'\n').nth(1).unwrap_or(&[]) };
        for line in whole.split(|&b| b == b'\n').rev() {
            if let Some(rest) = line.strip_prefix(b"r\t") {
                let id = rest.split(|&b| b == b'\t').next().unwrap_or_default();
                let n = id.strip_prefix(b"r").and_then(|n| std::str::from_utf8(n).ok()?.parse::<u64>().ok());
                return Ok(n.unwrap_or(0));
            }
        }
        if start == body {
            return Ok(0);
        }
        from = start;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::EntityKind;
    use crate::gate::Journal;
    use crate::session::TORN_SOURCE;
    use crate::session::tests::{ent, fresh};
    use crate::testing::Lcg;

    /// Appending through an `Appender` (which reads only the file's tail)
    /// writes what the whole-file path writes, whatever the file's tail
    /// holds: long lines, trust and forget records after the last read, a
    /// read longer than a tail block.
    #[test]
    fn appending_reads_only_the_tail_and_numbers_on() {
        let dir = tempfile::tempdir().unwrap();
        let mut rng = Lcg::new(21);
        for round in 0..60 {
            let path = dir.path().join(format!("s{round}"));
            let mut whole = fresh();
            for _ in 0..rng.below(40) {
                match rng.below(6) {
                    0..=2 => {
                        let long = "x".repeat([1, 100, 9000, 20_000][rng.below(4)]);
                        whole.add_read(
                            &long,
                            Verdict::Allow,
                            vec![ent(EntityKind::Domain, "a.test", false)],
                            Vec::new(),
                        );
                    }
                    3 => whole.trust_text("write to me@home.test"),
                    4 => {
                        let id = format!("r{}", 1 + rng.below(30));
                        whole.forget(&id);
                    }
                    _ => whole.reset(),
                }
            }
            if rng.below(4) > 0 {
                std::fs::write(&path, whole.text()).unwrap();
            }
            let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
            let mut a = Appender::open(&path).unwrap();
            let mut b = SessionFile::from_text(on_disk).unwrap();
            assert_eq!(
                a.add_read("new", Verdict::Block, vec![ent(EntityKind::Email, "p@q.test", true)], Vec::new()),
                b.add_read("new", Verdict::Block, vec![ent(EntityKind::Email, "p@q.test", true)], Vec::new())
            );
            a.trust_text("and you@there.test");
            b.trust_text("and you@there.test");
            a.commit().unwrap();
            drop(a);
            let written = SessionFile::open(&path).unwrap();
            assert_eq!(written.ledger(), b.ledger(), "round {round}");
        }
    }

    #[test]
    fn an_appender_rewrites_a_torn_file_and_reads_version_1() {
        let dir = tempfile::tempdir().unwrap();
        // A crash cut the last record (and a character in it) short: the
        // next writer drops it, records an unreadable read in its place and
        // appends after that, never after the torn bytes.
        let cut = dir.path().join("cut");
        std::fs::write(&cut, b"inertbox-session 2\nr\tr1\tallow\tsrc\nr\tr2\tallow\t\xc3").unwrap();
        let mut a = Appender::open(&cut).unwrap();
        assert_eq!(a.add_read("x", Verdict::Allow, Vec::new(), Vec::new()), "r3");
        a.commit().unwrap();
        drop(a);
        let want = format!("inertbox-session 2\nr\tr1\tallow\tsrc\nr\tr2\treview\t{TORN_SOURCE}\nr\tr3\tallow\tx\n");
        assert_eq!(std::fs::read_to_string(&cut).unwrap(), want);
        let mut a = Appender::open(&cut).unwrap();
        assert_eq!(a.add_read("y", Verdict::Allow, Vec::new(), Vec::new()), "r4");
        a.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&cut).unwrap(), format!("{want}r\tr4\tallow\ty\n"));
        let v1 = dir.path().join("v1");
        std::fs::write(&v1, r#"{"version":1,"reads":[],"trusted":[],"next_id":3}"#).unwrap();
        let mut a = Appender::open(&v1).unwrap();
        assert_eq!(a.add_read("x", Verdict::Allow, Vec::new(), Vec::new()), "r4");
        a.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&v1).unwrap(), "inertbox-session 2\nr\tr4\tallow\tx\n");
    }
}
