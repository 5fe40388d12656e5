//! A session file read whole: opened under its lock, checked and indexed
//! in one pass, a torn last record recovered, changes appended or the file
//! replaced on commit.

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};

use super::record::{Records, Span, entity, escape, parse, push_entity, push_read, render, unescape};
use super::{HEADER, RESET_HINT, TORN_SOURCE};
use crate::detect::Verdict;
use crate::document::{Entity, EntityKind};
use crate::gate::{self, EntityRef, GateError, History, Journal, LEDGER_VERSION, Ledger, ReadEntry, Recorder};

/// A session file, locked for as long as this value lives: its text is read
/// once at [`SessionFile::open`]; changes are appended to it in memory and
/// written by [`SessionFile::commit`].
pub struct SessionFile {
    path: PathBuf,
    /// Held until drop; none for a session made from text.
    lock: Option<File>,
    /// The session as version 2 text, changes included.
    pub(super) text: String,
    /// How much of `text` the file holds as it is; the rest is appended.
    on_disk: usize,
    /// The file must be written whole (it was version 1, or was reset).
    pub(super) whole: bool,
    /// Something changed since the last commit.
    dirty: bool,
    pub(super) index: Index,
}

/// What `absorb` learned from the text: where each record's parts are, so
/// a decision walks the items without parsing lines again.
#[derive(Debug, Default)]
pub(super) struct Index {
    /// The largest number in a read id `rN`.
    pub(super) last_id: u64,
    reads: Vec<ReadAt>,
    /// Ordinals (into `reads`) of forgotten reads.
    forgotten: Vec<u32>,
    /// The values of every item (a read's or a trust record's), in file
    /// order; the kind letter is two bytes before each value.
    items: Vec<Span>,
    /// The items of each trust record (a range of `items`).
    trusted: Vec<Range<u32>>,
    /// Sender items (`s:`) in reads, forgotten ones included.
    senders: usize,
    /// Some field holds an escape (otherwise values are taken as they are).
    escapes: bool,
    /// The record being parsed.
    open: Option<Open>,
}

/// A record [`parse`] has begun: a read, or a trust record and its first item.
#[derive(Debug)]
enum Open {
    Read(ReadAt),
    Trust(u32),
}

#[derive(Debug)]
struct ReadAt {
    id: Span,
    source: Span,
    /// Its items (a range of `Index::items`).
    items: Range<u32>,
    verdict: Verdict,
}

impl SessionFile {
    /// Open (or start) a session and lock it. A corrupt file is an error,
    /// never a silent reset.
    pub fn open(path: &Path) -> Result<SessionFile, GateError> {
        let err = |why: String| GateError::Ledger { path: path.display().to_string(), why };
        let lock = lock(path)?;
        let text = match File::open(path) {
            Ok(mut f) => read_text(&mut f).map_err(err)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(err(format!("cannot read: {e}"))),
        };
        with_lock(SessionFile::from_text(text), path, lock)
    }

    /// Lock a session and start it over without reading it (what
    /// `gate --reset` does, so a corrupt file can be reset): the first
    /// commit replaces the file with an empty session and whatever was
    /// added since.
    pub fn open_reset(path: &Path) -> Result<SessionFile, GateError> {
        let lock = lock(path)?;
        let mut file = with_lock(SessionFile::from_text(String::new()), path, lock)?;
        file.reset();
        Ok(file)
    }

    /// A session from a file's text, not tied to a file (no lock; nothing
    /// to commit to). Errors say what is wrong and where.
    pub fn from_text(text: String) -> Result<SessionFile, String> {
        let mut file = SessionFile {
            path: PathBuf::new(),
            lock: None,
            text: String::new(),
            on_disk: 0,
            whole: false,
            dirty: false,
            index: Index::default(),
        };
        if text.trim().is_empty() {
            // A new session: the file is written whole on the first change.
            file.text.push_str(HEADER);
            file.whole = true;
        } else if text.trim_start().starts_with('{') {
            let v1: Ledger = serde_json::from_str(&text).map_err(|e| format!("not a valid inertbox session ({e})"))?;
            if v1.version != LEDGER_VERSION {
                return Err(format!("session format v{} is not v1 or v2", v1.version));
            }
            file.text = render(&v1);
            file.whole = true;
            file.absorb(HEADER.len())?;
            file.index.last_id = file.index.last_id.max(v1.next_id);
        } else if text.starts_with(HEADER) {
            // A last record without its line end was cut off by a crash:
            // dropped here, and counted below as an unreadable read.
            let torn = !text.ends_with('\n');
            file.text = text;
            if torn {
                let whole_lines = file.text.rfind('\n').map_or(0, |i| i + 1);
                file.text.truncate(whole_lines);
            }
            file.on_disk = file.text.len();
            file.absorb(HEADER.len())?;
            if torn {
                file.add_read(TORN_SOURCE, Verdict::Review, Vec::new(), Vec::new());
                // Rewritten whole on the next commit, without the torn bytes.
                file.whole = true;
            }
        } else {
            let first: String = text.lines().next().unwrap_or_default().chars().take(40).collect();
            return Err(format!("not an inertbox session file (it starts {first:?})"));
        }
        Ok(file)
    }

    /// Write what changed: appended in one write when the file only grew,
    /// otherwise replaced whole (a temporary file in the same directory,
    /// renamed over the old one). Nothing is written when nothing changed.
    pub fn commit(&mut self) -> Result<(), GateError> {
        if !self.dirty {
            return Ok(());
        }
        let err = |why: String| GateError::Ledger { path: self.path.display().to_string(), why };
        if self.lock.is_none() {
            return Err(err("a session made from text has no file to write".into()));
        }
        // No fsync: hooks run on every tool call and a sync costs more than
        // the rest of the answer. A crash can lose the latest records; a
        // record cut off mid-line is read as unreadable content (see
        // `TORN_SOURCE`), not quietly dropped.
        if self.whole {
            let dir = self.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let name = self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
            let write = || -> std::io::Result<()> {
                // A temporary file left by a process of the same id that
                // died is replaced, so the mode below is the one it gets.
                let _ = std::fs::remove_file(&tmp);
                let mut f = private(OpenOptions::new().write(true).create_new(true)).open(&tmp)?;
                f.write_all(self.text.as_bytes())?;
                std::fs::rename(&tmp, &self.path)
            };
            write().map_err(|e| {
                let _ = std::fs::remove_file(&tmp);
                err(format!("cannot write: {e}"))
            })?;
        } else {
            let mut f = OpenOptions::new()
                .append(true)
                .open(&self.path)
                .map_err(|e| err(format!("cannot open for appending: {e}")))?;
            f.write_all(&self.text.as_bytes()[self.on_disk..]).map_err(|e| err(format!("cannot append: {e}")))?;
        }
        self.on_disk = self.text.len();
        self.whole = false;
        self.dirty = false;
        Ok(())
    }

    /// The session as version 2 text, changes included.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The session as an owned [`Ledger`] (forgotten reads left out).
    pub fn ledger(&self) -> Ledger {
        let ix = &self.index;
        let mut l = Ledger { version: LEDGER_VERSION, next_id: ix.last_id, ..Ledger::default() };
        for (n, r) in ix.reads.iter().enumerate() {
            if !self.live(n as u32) {
                continue;
            }
            let mut entry = ReadEntry {
                id: self.value(r.id).into_owned(),
                source: self.value(r.source).into_owned(),
                verdict: r.verdict,
                entities: Vec::new(),
                sender: Vec::new(),
            };
            self.any_item(r.items.clone(), &mut |letter, value| {
                match EntityKind::from_letter(letter) {
                    Some(kind) => entry.entities.push(Entity {
                        kind,
                        value: value.into_owned(),
                        hidden: letter.is_ascii_uppercase(),
                    }),
                    None => entry.sender.push(value.into_owned()),
                }
                false
            });
            l.reads.push(entry);
        }
        self.any_trusted(&mut |e| {
            let e = Entity { kind: e.kind, value: e.value.to_string(), hidden: e.hidden };
            // A request item replaces the one before (the latest counts).
            if e.kind == EntityKind::Request {
                l.trusted.retain(|t| t.kind != EntityKind::Request);
            }
            if !l.trusted.contains(&e) {
                l.trusted.push(e);
            }
            false
        });
        l
    }

    /// A field's value, unescaped.
    fn value(&self, span: Span) -> Cow<'_, str> {
        let v = &self.text[span.start as usize..span.end as usize];
        if self.index.escapes { unescape(v) } else { Cow::Borrowed(v) }
    }

    fn live(&self, read: u32) -> bool {
        self.index.forgotten.is_empty() || !self.index.forgotten.contains(&read)
    }

    /// Call `f` with (kind letter, value) of each item in a range of items
    /// until it returns true; true when it did.
    fn any_item(&self, items: Range<u32>, f: &mut impl FnMut(u8, Cow<'_, str>) -> bool) -> bool {
        let b = self.text.as_bytes();
        self.index.items[items.start as usize..items.end as usize]
            .iter()
            .any(|&v| f(b[v.start as usize - 2], self.value(v)))
    }

    /// `any_item` over the items of every live read.
    fn any_read_item(&self, mut f: impl FnMut(u8, Cow<'_, str>) -> bool) -> bool {
        let ix = &self.index;
        ix.reads.iter().enumerate().any(|(n, r)| self.live(n as u32) && self.any_item(r.items.clone(), &mut f))
    }

    /// Check the records in `text[from..]` and add them to the index: one
    /// pass over the fields.
    fn absorb(&mut self, from: usize) -> Result<(), String> {
        let text = &self.text;
        let ix = &mut self.index;
        if text.len() > u32::MAX as usize {
            return Err("the session file is larger than 4 GiB".into());
        }
        ix.escapes |= text[from..].contains('\\');
        // Items are at least four bytes with their tab (`e:x` and the tab);
        // most are 20–40. Pages reserved and never touched cost nothing.
        ix.items.reserve((text.len() - from) / 16);
        (ix.last_id, _) = parse(text, from, 0, ix.last_id, ix)?;
        Ok(())
    }

    /// Append one record (its line without the newline) and index it.
    fn push_line(&mut self, line: &str) {
        let from = self.text.len();
        self.text.push_str(line);
        self.text.push('\n');
        self.dirty = true;
        self.absorb(from).expect("a record this module wrote parses");
    }
}

impl Drop for SessionFile {
    fn drop(&mut self) {
        if let Some(l) = &self.lock {
            let _ = l.unlock();
        }
    }
}

impl Records for Index {
    fn read(&mut self, id: Span, _: u64, source: Span, verdict: Verdict) {
        let items = self.items.len() as u32..self.items.len() as u32;
        self.open = Some(Open::Read(ReadAt { id, source, items, verdict }));
    }

    fn trust(&mut self) {
        self.open = Some(Open::Trust(self.items.len() as u32));
    }

    fn item(&mut self, _: &str, letter: u8, value: Span, _: bool) {
        self.senders += usize::from(letter == b's');
        self.items.push(value);
    }

    fn end(&mut self) {
        let end = self.items.len() as u32;
        match self.open.take() {
            Some(Open::Read(mut r)) => {
                r.items.end = end;
                self.reads.push(r);
            }
            Some(Open::Trust(first)) => self.trusted.push(first..end),
            None => {}
        }
    }

    fn forget(&mut self, text: &str, id: &str) -> bool {
        let value = |s: Span| &text[s.start as usize..s.end as usize];
        match self.reads.iter().position(|r| value(r.id) == id).map(|n| n as u32) {
            Some(n) => {
                if !self.forgotten.contains(&n) {
                    self.forgotten.push(n);
                }
                true
            }
            None => false,
        }
    }
}

impl History for SessionFile {
    fn any_read(&self) -> bool {
        self.index.reads.len() > self.index.forgotten.len()
    }

    fn injected(&self) -> bool {
        self.index.reads.iter().enumerate().any(|(n, r)| r.verdict != Verdict::Allow && self.live(n as u32))
    }

    fn any_sender(&self, f: &mut dyn FnMut(&str) -> bool) -> bool {
        self.index.senders > 0 && self.any_read_item(|l, v| l == b's' && f(&v))
    }

    fn any_trusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool {
        let mut each = |letter: u8, value: Cow<'_, str>| entity(letter, value).is_some_and(|e| f(&e));
        self.index.trusted.iter().any(|r| self.any_item(r.clone(), &mut each))
    }

    fn any_untrusted(&self, f: &mut dyn FnMut(&str, &EntityRef) -> bool) -> bool {
        let ix = &self.index;
        ix.reads.iter().enumerate().any(|(n, r)| {
            let source = self.value(r.source);
            self.live(n as u32)
                && self.any_item(r.items.clone(), &mut |letter, value| {
                    entity(letter, value).is_some_and(|e| f(&source, &e))
                })
        })
    }
}

impl Recorder for SessionFile {
    fn add_read(&mut self, source: &str, verdict: Verdict, entities: Vec<Entity>, sender: Vec<String>) -> String {
        let id = format!("r{}", self.index.last_id + 1);
        let mut line = String::new();
        push_read(&mut line, &id, verdict, source, &sender, &entities);
        self.push_line(&line);
        id
    }

    fn trust_text(&mut self, text: &str) {
        // What is trusted already, once (not a walk of it per entity).
        let mut known = std::collections::HashSet::new();
        self.any_trusted(&mut |t| {
            known.insert((t.kind, t.value.to_string(), t.hidden));
            false
        });
        let mut line = String::from("t");
        for e in gate::typed_entities(text) {
            // A request item is written each time: the latest one counts.
            if e.kind == EntityKind::Request || known.insert((e.kind, e.value.clone(), e.hidden)) {
                push_entity(&e, &mut line);
            }
        }
        if line.len() > 1 {
            self.push_line(&line);
        }
    }
}

impl Journal for SessionFile {
    fn forget(&mut self, id: &str) -> bool {
        let live = (0..self.index.reads.len() as u32)
            .any(|n| self.live(n) && self.value(self.index.reads[n as usize].id) == id);
        if live {
            let mut line = String::from("f\t");
            escape(id, &mut line);
            self.push_line(&line);
        }
        live
    }

    fn reset(&mut self) {
        self.text.clear();
        self.text.push_str(HEADER);
        self.whole = true;
        self.dirty = true;
        self.index = Index::default();
    }
}

/// A session file's text. Bytes that are not UTF-8 are an error, except in
/// a last record cut off by a crash (which is dropped anyway): they become
/// U+FFFD, and the record stays cut off.
pub(super) fn read_text(f: &mut File) -> Result<String, String> {
    let mut bytes = Vec::new();
    f.read_to_end(&mut bytes).map_err(|e| format!("cannot read: {e}"))?;
    String::from_utf8(bytes).or_else(|e| {
        let bytes = e.as_bytes();
        let whole_lines = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        match std::str::from_utf8(&bytes[..whole_lines]) {
            Ok(head) if whole_lines < bytes.len() && head.starts_with(HEADER) => {
                Ok(format!("{head}{}", String::from_utf8_lossy(&bytes[whole_lines..])))
            }
            _ => Err(format!("cannot read: {}", e.utf8_error())),
        }
    })
}

pub(super) fn lock(path: &Path) -> Result<File, GateError> {
    lock_beside(path).map_err(|why| GateError::Ledger { path: path.display().to_string(), why })
}

/// Lock the file at `path` for this process: an exclusive lock on
/// `PATH.lock` (made private, and kept), held until the returned file is
/// dropped. Session files and the MCP proxy's pins are locked this way.
pub(crate) fn lock_beside(path: &Path) -> Result<File, String> {
    let lock_path = lock_path(path);
    let lock = private(OpenOptions::new().create(true).truncate(false).read(true).write(true))
        .open(&lock_path)
        .map_err(|e| format!("cannot open lock file {}: {e}", lock_path.display()))?;
    lock.lock().map_err(|e| format!("cannot lock: {e}"))?;
    Ok(lock)
}

/// Files this module creates (a session, its lock, a temporary copy) are
/// the user's alone: a session lists what an agent read and whom it may
/// write to. The mode is given at creation, so no other user ever sees
/// the file open; a file that exists keeps its mode.
fn private(o: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(o, 0o600);
    o
}

/// Create a directory for session files (and any parent missing) closed to
/// everyone else: mode 0700 from the start on Unix. A directory that exists
/// keeps its mode.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut b = std::fs::DirBuilder::new();
    b.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    b.create(dir)
}

pub(super) fn with_lock(file: Result<SessionFile, String>, path: &Path, lock: File) -> Result<SessionFile, GateError> {
    let mut file = file
        .map_err(|why| GateError::Ledger { path: path.display().to_string(), why: format!("{why}; {RESET_HINT}") })?;
    file.path = path.to_path_buf();
    file.lock = Some(lock);
    Ok(file)
}

fn lock_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::{Call, Journal, Outcome, Policy, Recorder, decide};
    use crate::session::decide_in;
    use crate::session::tests::{ent, fresh};
    use crate::testing::Lcg;

    /// Values with every character the format escapes survive a write and a
    /// fresh read.
    #[test]
    fn escaped_fields_round_trip() {
        let mut s = fresh();
        let odd = "tab\there\nline\\back\rcr é";
        let id = s.add_read(
            odd,
            Verdict::Review,
            vec![ent(EntityKind::Url, &format!("https://x.test/{odd}"), true), ent(EntityKind::Phone, "+1 415", false)],
            vec![format!("a{odd}@b.test")],
        );
        assert_eq!(id, "r1");
        let back = SessionFile::from_text(s.text().to_string()).unwrap();
        assert_eq!(back.ledger(), s.ledger());
        let l = back.ledger();
        assert_eq!(l.reads[0].source, odd);
        assert_eq!(l.reads[0].entities[0].value, format!("https://x.test/{odd}"));
        assert!(l.reads[0].entities[0].hidden && !l.reads[0].entities[1].hidden);
        assert_eq!(l.reads[0].sender, [format!("a{odd}@b.test")]);
        // Every record is one line: the escapes left no raw tab in a value.
        assert_eq!(back.text().lines().count(), 2, "{}", back.text());
    }

    /// A version 1 file is read as it was, and numbering goes on after it.
    #[test]
    fn version_1_is_read_and_converted() {
        let v1 = r#"{"version":1,"reads":[{"id":"r2","source":"mail","verdict":"block","entities":["e:x@evil.test","D:evil.test"],"sender":["boss@corp.test"]}],"trusted":["e:me@home.test"],"next_id":7}"#;
        let mut s = SessionFile::from_text(v1.into()).unwrap();
        let l = s.ledger();
        assert_eq!(l.reads.len(), 1);
        assert_eq!(
            l.reads[0].entities,
            [ent(EntityKind::Email, "x@evil.test", false), ent(EntityKind::Domain, "evil.test", true)]
        );
        assert_eq!(l.trusted, [ent(EntityKind::Email, "me@home.test", false)]);
        assert_eq!(s.add_read("next", Verdict::Allow, Vec::new(), Vec::new()), "r8");
        assert!(s.text().starts_with(HEADER) && s.whole);
    }

    #[test]
    fn corrupt_files_are_errors_that_say_where() {
        let cases = [
            // Damage before the last line stays an error, torn last line or not.
            ("inertbox-session 2\nx\tr1\nr\tr2\tallow\tsr", "line 2: unknown record \"x\""),
            ("inertbox-session 2\nx\tr1\n", "line 2: unknown record \"x\""),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\n\n", "line 3: unknown record \"\""),
            ("inertbox-session 2\nr\tr1\tmaybe\tsrc\n", "unknown verdict \"maybe\""),
            ("inertbox-session 2\nr\tr1\tallow\n", "a read needs an id, a verdict and a source"),
            ("inertbox-session 2\nr\t\tallow\tsrc\n", "read id \"\" is not r and a number"),
            ("inertbox-session 2\nr\tx7\tallow\tsrc\n", "read id \"x7\" is not r and a number"),
            ("inertbox-session 2\nr\tr+7\tallow\tsrc\n", "read id \"r+7\" is not r and a number"),
            ("inertbox-session 2\nr\tr9\tallow\ts\nr\tr2\tallow\ts\n", "line 3: read id \"r2\" does not come after r9"),
            ("inertbox-session 2\nr\tr2\tallow\ts\nr\tr2\tallow\ts\n", "does not come after r2"),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\tz:x\n", "bad item \"z:x\""),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\t\n", "bad item \"\""),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\te\n", "bad item \"e\""),
            ("inertbox-session 2\nt\n", "a trust record needs items"),
            ("inertbox-session 2\nf\tr1\n", "forgets \"r1\", which no earlier record read"),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\nf\tr1\tr2\n", "a forget record needs one id"),
            ("inertbox-session 2\nr\tr1\tallow\ts\\x\n", "line 2: a backslash"),
            ("inertbox-session 3\n", "not an inertbox session file"),
            ("{\"version\": 9}", "is not v1 or v2"),
            ("{ not json", "not a valid inertbox session"),
        ];
        for (text, want) in cases {
            let e = SessionFile::from_text(text.into()).err().unwrap_or_else(|| panic!("{text:?} was accepted"));
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    /// The session file and the in-memory ledger are the same model: any
    /// sequence of changes (with the file read back from its text at random
    /// points) leaves the same ledger and the same decisions.
    #[test]
    fn a_session_file_decides_as_the_ledger_does() {
        let values = [
            (EntityKind::Email, "pay@evil.test"),
            (EntityKind::Email, "Boss@Corp.test"),
            (EntityKind::Url, "https://evil.test/x?d=1"),
            (EntityKind::Url, "https://docs.test/"),
            (EntityKind::Domain, "evil.test"),
            (EntityKind::Domain, "corp.test"),
            (EntityKind::Phone, "+14155550100"),
        ];
        let calls: Vec<Call> = [
            r#"{"tool":"send_email","args":{"to":"pay@evil.test"}}"#,
            r#"{"tool":"send_email","args":{"to":"boss@corp.test"}}"#,
            r#"{"tool":"send_email","args":{"to":"new@else.test"}}"#,
            r#"{"tool":"web_fetch","args":{"url":"https://evil.test/x?d=1&more"}}"#,
            r#"{"tool":"create_draft","args":{"to":"pay@evil.test"}}"#,
            r#"{"tool":"transfer_money","args":{"account":"+1 415 555 0100"}}"#,
            r#"{"tool":"read_file","args":{"path":"a.txt"}}"#,
        ]
        .iter()
        .map(|c| crate::gate::parse_call(c).unwrap())
        .collect();
        let policy = Policy::default();
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("session");
        let mut rng = Lcg::new(7);
        for _ in 0..300 {
            let mut ledger = Ledger { version: 1, ..Ledger::default() };
            let mut file = fresh();
            for _ in 0..rng.below(12) {
                match rng.below(10) {
                    0..=5 => {
                        let entities: Vec<Entity> = (0..rng.below(4))
                            .map(|_| {
                                let (k, v) = values[rng.below(values.len())];
                                ent(k, v, rng.below(2) == 0)
                            })
                            .collect();
                        let sender: Vec<String> =
                            (0..rng.below(2)).map(|_| ["boss@corp.test", "x\t@y.test"][rng.below(2)].into()).collect();
                        let verdict = [Verdict::Allow, Verdict::Review, Verdict::Block][rng.below(3)];
                        let a = ledger.add_read("src", verdict, entities.clone(), sender.clone());
                        let b = file.add_read("src", verdict, entities, sender);
                        assert_eq!(a, b);
                    }
                    6 => {
                        let text =
                            ["write to pay@evil.test", "see https://docs.test/ and corp.test", "nothing"][rng.below(3)];
                        Recorder::trust_text(&mut ledger, text);
                        file.trust_text(text);
                    }
                    7 | 8 => {
                        let id = format!("r{}", 1 + rng.below(6));
                        assert_eq!(Journal::forget(&mut ledger, &id), file.forget(&id), "{id}");
                    }
                    _ => {
                        Journal::reset(&mut ledger);
                        ledger.version = 1;
                        file.reset();
                    }
                }
                if rng.below(3) == 0 {
                    file = SessionFile::from_text(file.text().to_string()).unwrap();
                }
            }
            assert_eq!(file.ledger(), ledger, "{}", file.text());
            assert_eq!((file.any_read(), file.injected()), (ledger.any_read(), ledger.injected()));
            std::fs::write(&path, file.text()).unwrap();
            for call in &calls {
                let want = decide(call, &ledger, &policy);
                assert_eq!(decide(call, &file, &policy), want, "{call:?}\n{}", file.text());
                assert_eq!(decide_in(&path, call, &policy).unwrap(), want, "{call:?}\n{}", file.text());
            }
            // A crash cut the next record short: the ledger with one more
            // read of unreadable content, under review.
            if rng.below(3) == 0 {
                let torn = ["r\tr99\tallow\tsrc\te:boss@corp.test", "t\te:pay@evil.test", "f\tr1", "r"][rng.below(4)];
                let text = format!("{}{torn}", file.text());
                std::fs::write(&path, &text).unwrap();
                ledger.add_read(TORN_SOURCE, Verdict::Review, Vec::new(), Vec::new());
                // Read whole (its lock let go before the streamed reads).
                let whole = SessionFile::open(&path).unwrap();
                assert_eq!(whole.ledger(), ledger, "{text}");
                let wants: Vec<Outcome> = calls.iter().map(|c| decide(c, &ledger, &policy)).collect();
                for (call, want) in calls.iter().zip(&wants) {
                    assert_eq!(&decide(call, &whole, &policy), want, "{call:?}\n{text}");
                }
                drop(whole);
                for (call, want) in calls.iter().zip(&wants) {
                    assert_eq!(&decide_in(&path, call, &policy).unwrap(), want, "{call:?}\n{text}");
                }
            }
        }
    }
}
