//! Session files: the gate's ledger, shared by separate processes.
//!
//! A hook runs on every tool call of a long agent session, so a session file
//! is built to be appended to and read without building anything per entry:
//! a new read is one line added at the end, and a decision walks the lines
//! in place (a 1,000-read session is ~150 KB and one pass over it takes tens
//! of microseconds).
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
//!   is a read's own sender (an email's From).
//!
//! In every field a backslash, tab, line feed and carriage return are
//! written `\\`, `\t`, `\n`, `\r`. Anything else (an unknown record, a bad
//! verdict or escape, a last line cut off before its newline) makes the
//! file corrupt: an error that says where, never a silent reset.
//!
//! Version 1 files (one JSON object) are still read; the first change
//! rewrites them as version 2.

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::detect::Verdict;
use crate::document::{Entity, EntityKind};
use crate::gate::{EntityRef, GateError, History, Journal, LEDGER_VERSION, Ledger, ReadEntry, Recorder};

/// The first line of a version 2 session file.
pub const HEADER: &str = "inertbox-session 2\n";

/// What every error about a session's content ends with.
const RESET_HINT: &str = "move it away or run `inertbox gate --reset --session FILE`";

/// A session file, locked for as long as this value lives: its text is read
/// once at [`SessionFile::open`]; changes are appended to it in memory and
/// written by [`SessionFile::commit`].
pub struct SessionFile {
    path: PathBuf,
    /// Held until drop; none for a session made from text.
    lock: Option<File>,
    /// The session as version 2 text, changes included.
    text: String,
    /// How much of `text` the file holds as it is; the rest is appended.
    on_disk: usize,
    /// The file must be written whole (it was version 1, or was reset).
    whole: bool,
    /// Something changed since the last commit.
    dirty: bool,
    index: Index,
}

/// A byte range of the text.
#[derive(Debug, Clone, Copy)]
struct Span {
    start: u32,
    end: u32,
}

/// What `absorb` learned from the text: where each record's parts are, so
/// a decision walks the items without parsing lines again.
#[derive(Debug, Default)]
struct Index {
    /// The largest number in a read id `rN`.
    last_id: u64,
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
        let mut text = String::new();
        match File::open(path) {
            Ok(mut f) => {
                f.read_to_string(&mut text).map_err(|e| err(format!("cannot read: {e}")))?;
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(err(format!("cannot read: {e}"))),
        }
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
            file.text = text;
            file.on_disk = file.text.len();
            file.absorb(HEADER.len())?;
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
        // record cut off mid-line makes the file corrupt (an error), not
        // quietly shorter.
        if self.whole {
            let dir = self.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
            let name = self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
            let write = || -> std::io::Result<()> {
                let mut f = File::create(&tmp)?;
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
                match entity_kind(letter) {
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
        let body = &text[from..];
        if text.len() > u32::MAX as usize {
            return Err("the session file is larger than 4 GiB".into());
        }
        if !body.is_empty() && !body.ends_with('\n') {
            return Err(format!("line {}: the last record is cut off (no line end)", line_no(text, text.len())));
        }
        if body.contains('\\') {
            ix.escapes = true;
            if let Some(at) = bad_escape(body) {
                return Err(format!(
                    "line {}: a backslash that is not \\\\, \\t, \\n or \\r",
                    line_no(text, from + at)
                ));
            }
        }
        let b = text.as_bytes();
        let span = |start: usize, end: usize| Span { start: start as u32, end: end as u32 };
        // Items are at least four bytes with their tab (`e:x` and the tab);
        // most are 20–40. Pages reserved and never touched cost nothing.
        ix.items.reserve(body.len() / 16);
        let mut i = from;
        while i < b.len() {
            let line = i;
            let fail = |why: String| format!("line {}: {why}", line_no(text, line));
            // The next field from `i`: (start, end, whether its line ends).
            let next = |i: usize| {
                let e = field_end(b, i);
                (i, e, b.get(e) != Some(&b'\t'))
            };
            let (_, e, mut done) = next(i);
            let tag = &b[i..e];
            i = e + 1;
            match tag {
                b"r" => {
                    let mut fields = [(0, 0); 3];
                    for f in &mut fields {
                        if done {
                            return Err(fail("a read needs an id, a verdict and a source".into()));
                        }
                        let (s, e, d) = next(i);
                        (*f, done, i) = ((s, e), d, e + 1);
                    }
                    let [(id_s, id_e), (v_s, v_e), (src_s, src_e)] = fields;
                    let verdict = match &b[v_s..v_e] {
                        b"allow" => Verdict::Allow,
                        b"review" => Verdict::Review,
                        b"block" => Verdict::Block,
                        _ => return Err(fail(format!("unknown verdict {:?}", short(&text[v_s..v_e])))),
                    };
                    // Ids count up (`r1`, `r2`, …): a writer that reads only
                    // the last one knows the next.
                    let id = &text[id_s..id_e];
                    let n = match id.strip_prefix('r').filter(|k| k.bytes().all(|b| b.is_ascii_digit())) {
                        Some(k) => k.parse::<u64>().ok().filter(|&n| n > ix.last_id),
                        None => return Err(fail(format!("read id {:?} is not r and a number", short(id)))),
                    };
                    let Some(n) = n else {
                        return Err(fail(format!("read id {:?} does not come after r{}", short(id), ix.last_id)));
                    };
                    let first = ix.items.len() as u32;
                    while !done {
                        let (s, e, d) = next(i);
                        check_item(&text[s..e]).map_err(fail)?;
                        ix.senders += usize::from(b[s] == b's');
                        ix.items.push(span(s + 2, e));
                        (done, i) = (d, e + 1);
                    }
                    let items = first..ix.items.len() as u32;
                    ix.reads.push(ReadAt { id: span(id_s, id_e), source: span(src_s, src_e), items, verdict });
                    ix.last_id = n;
                }
                b"t" => {
                    if done {
                        return Err(fail("a trust record needs items".into()));
                    }
                    let first = ix.items.len() as u32;
                    while !done {
                        let (s, e, d) = next(i);
                        check_item(&text[s..e]).map_err(fail)?;
                        ix.items.push(span(s + 2, e));
                        (done, i) = (d, e + 1);
                    }
                    ix.trusted.push(first..ix.items.len() as u32);
                }
                b"f" => {
                    if done {
                        return Err(fail("a forget record needs one id".into()));
                    }
                    let (s, e, d) = next(i);
                    i = e + 1;
                    if !d {
                        return Err(fail("a forget record needs one id".into()));
                    }
                    let id = unescape(&text[s..e]);
                    let value = |s: Span| unescape(&text[s.start as usize..s.end as usize]);
                    match ix.reads.iter().position(|r| value(r.id) == id).map(|n| n as u32) {
                        Some(n) if !ix.forgotten.contains(&n) => ix.forgotten.push(n),
                        Some(_) => {}
                        None => return Err(fail(format!("forgets {:?}, which no earlier record read", short(&id)))),
                    }
                }
                _ => return Err(fail(format!("unknown record {:?}", short(&String::from_utf8_lossy(tag))))),
            }
        }
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

    fn any_untrusted(&self, f: &mut dyn FnMut(&EntityRef) -> bool) -> bool {
        self.any_read_item(|letter, value| entity(letter, value).is_some_and(|e| f(&e)))
    }
}

fn entity(letter: u8, value: Cow<'_, str>) -> Option<EntityRef<'_>> {
    Some(EntityRef { kind: entity_kind(letter)?, value, hidden: letter.is_ascii_uppercase() })
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
        let doc = crate::document::Document::load(text.as_bytes().to_vec(), crate::document::Kind::Text, "user");
        let mut line = String::from("t");
        for e in &doc.entities {
            let known =
                self.any_trusted(&mut |t| t.kind == e.kind && t.value == e.value.as_str() && t.hidden == e.hidden);
            if !known {
                push_entity(e, &mut line);
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
    /// else is an error); a last record cut off mid-line is an error.
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
        if head != HEADER.as_bytes() {
            // Version 1, blank, or not a session: the whole-file path says which.
            let mut text = String::new();
            f.seek(SeekFrom::Start(0))
                .and_then(|_| f.read_to_string(&mut text))
                .map_err(|e| err(format!("cannot read: {e}")))?;
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
        if from == len && !tail.is_empty() && !tail.ends_with(b"\n") {
            return Err("the last record is cut off (no line end)".into());
        }
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

fn lock(path: &Path) -> Result<File, GateError> {
    let err = |why: String| GateError::Ledger { path: path.display().to_string(), why };
    let lock_path = lock_path(path);
    let lock = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(&lock_path)
        .map_err(|e| err(format!("cannot open lock file {}: {e}", lock_path.display())))?;
    lock.lock().map_err(|e| err(format!("cannot lock: {e}")))?;
    Ok(lock)
}

fn with_lock(file: Result<SessionFile, String>, path: &Path, lock: File) -> Result<SessionFile, GateError> {
    let mut file = file
        .map_err(|why| GateError::Ledger { path: path.display().to_string(), why: format!("{why}; {RESET_HINT}") })?;
    file.path = path.to_path_buf();
    file.lock = Some(lock);
    Ok(file)
}

/// A ledger as version 2 text.
fn render(l: &Ledger) -> String {
    let mut out = String::from(HEADER);
    for r in &l.reads {
        push_read(&mut out, &r.id, r.verdict, &r.source, &r.sender, &r.entities);
        out.push('\n');
    }
    if !l.trusted.is_empty() {
        out.push('t');
        for e in &l.trusted {
            push_entity(e, &mut out);
        }
        out.push('\n');
    }
    out
}

/// The first tab or line feed at or after `i`, or the end. Eight bytes at a
/// time: a byte below 0x0b sets its high bit in `x - 0x0b…` where `x`'s own
/// high bit is clear (a borrow can flag a byte above one, so each flagged
/// byte is checked). A field is ~20 bytes and a session holds thousands.
fn field_end(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let sep = |c: u8| c == b'\t' || c == b'\n';
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let mut flagged = x.wrapping_sub(ONES * 0x0b) & !x & HIGH;
        while flagged != 0 {
            let k = (flagged.trailing_zeros() / 8) as usize;
            if sep(chunk[k]) {
                return i + k;
            }
            flagged &= flagged - 1;
        }
        i += 8;
    }
    while i < b.len() && !sep(b[i]) {
        i += 1;
    }
    i
}

/// An item is a kind letter, `:` and a value.
fn check_item(item: &str) -> Result<(), String> {
    let b = item.as_bytes();
    if b.len() < 2 || b[1] != b':' || !(entity_kind(b[0]).is_some() || b[0] == b's') {
        return Err(format!("bad item {:?} (expected a kind letter, ':' and a value)", short(item)));
    }
    Ok(())
}

/// Every backslash starts `\\`, `\t`, `\n` or `\r`; the byte offset of the
/// first that does not.
fn bad_escape(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = s[from..].find('\\').map(|i| from + i) {
        if !matches!(b.get(i + 1), Some(b'\\' | b't' | b'n' | b'r')) {
            return Some(i);
        }
        from = i + 2;
    }
    None
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

/// 1-based line number of byte `at`.
fn line_no(text: &str, at: usize) -> usize {
    text.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The kind a letter names, in either case (`s`, a sender, is none).
pub(crate) fn entity_kind(letter: u8) -> Option<EntityKind> {
    match letter.to_ascii_lowercase() {
        b'e' => Some(EntityKind::Email),
        b'u' => Some(EntityKind::Url),
        b'd' => Some(EntityKind::Domain),
        b'p' => Some(EntityKind::Phone),
        _ => None,
    }
}

/// A read's record, without its line end.
fn push_read(out: &mut String, id: &str, verdict: Verdict, source: &str, sender: &[String], entities: &[Entity]) {
    out.push_str("r\t");
    escape(id, out);
    out.push('\t');
    out.push_str(verdict.as_str());
    out.push('\t');
    escape(source, out);
    for s in sender {
        out.push_str("\ts:");
        escape(s, out);
    }
    for e in entities {
        push_entity(e, out);
    }
}

fn push_entity(e: &Entity, out: &mut String) {
    out.push('\t');
    out.push(entity_letter(e.kind, e.hidden));
    out.push(':');
    escape(&e.value, out);
}

/// An entity's kind letter (format 1's entity strings use the same):
/// upper case when every mention was hidden.
pub(crate) fn entity_letter(kind: EntityKind, hidden: bool) -> char {
    let l = match kind {
        EntityKind::Email => 'e',
        EntityKind::Url => 'u',
        EntityKind::Domain => 'd',
        EntityKind::Phone => 'p',
    };
    if hidden { l.to_ascii_uppercase() } else { l }
}

fn escape(s: &str, out: &mut String) {
    if !s.contains(['\\', '\t', '\n', '\r']) {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('\\') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars();
    while let Some(c) = it.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match it.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(c) => out.push(c),
            None => {}
        }
    }
    Cow::Owned(out)
}

fn lock_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::{Call, Journal, Policy, Recorder, decide};
    use crate::testing::Lcg;

    fn ent(kind: EntityKind, value: &str, hidden: bool) -> Entity {
        Entity { kind, value: value.into(), hidden }
    }

    fn fresh() -> SessionFile {
        SessionFile::from_text(String::new()).unwrap()
    }

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
            ("inertbox-session 2\nr\tr1\tallow\tsrc", "line 2: the last record is cut off"),
            ("inertbox-session 2\nx\tr1\n", "line 2: unknown record \"x\""),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\n\n", "line 3: unknown record \"\""),
            ("inertbox-session 2\nr\tr1\tmaybe\tsrc\n", "unknown verdict \"maybe\""),
            ("inertbox-session 2\nr\tr1\tallow\n", "a read needs an id, a verdict and a source"),
            ("inertbox-session 2\nr\t\tallow\tsrc\n", "read id \"\" is not r and a number"),
            ("inertbox-session 2\nr\tx7\tallow\tsrc\n", "read id \"x7\" is not r and a number"),
            ("inertbox-session 2\nr\tr+7\tallow\tsrc\n", "read id \"r+7\" is not r and a number"),
            ("inertbox-session 2\nr\tr9\tallow\ts\nr\tr2\tallow\ts\n", "line 3: read id \"r2\" does not come after r9"),
            ("inertbox-session 2\nr\tr2\tallow\ts\nr\tr2\tallow\ts\n", "does not come after r2"),
            ("inertbox-session 2\nr\tr1\tallow\tsrc\tq:x\n", "bad item \"q:x\""),
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

    /// Text mangled anywhere is read or refused, never a panic, and what is
    /// read is a fixed point (writing it again gives the same ledger).
    #[test]
    fn mangled_text_never_panics() {
        let mut base = fresh();
        base.add_read("p\tq", Verdict::Block, vec![ent(EntityKind::Email, "a@b.test", false)], vec!["s@b.test".into()]);
        base.trust_text("mail me@home.test");
        base.add_read("r", Verdict::Allow, Vec::new(), Vec::new());
        base.forget("r1");
        let text = base.text().to_string();
        let bits = ["\t", "\n", "\\", "r", "t", "f", "e:", "s:", "x", "é", "allow", "r1", ":", ""];
        let mut rng = Lcg::new(3);
        let mut read = 0;
        for _ in 0..20_000 {
            let mut t = text.clone();
            for _ in 0..1 + rng.below(3) {
                let mut at = rng.below(t.len() + 1);
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                let cut = (at + rng.below(3)).min(t.len());
                let cut = (at..=cut).rev().find(|&c| t.is_char_boundary(c)).unwrap_or(at);
                t.replace_range(at..cut, bits[rng.below(bits.len())]);
            }
            if let Ok(s) = SessionFile::from_text(t) {
                read += 1;
                let _ = s.any_read() && s.injected();
                let l = s.ledger();
                let again = SessionFile::from_text(s.text().to_string()).unwrap();
                assert_eq!(again.ledger(), l);
            }
        }
        assert!(read > 1_000, "{read}");
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
            for call in &calls {
                assert_eq!(decide(call, &file, &policy), decide(call, &ledger, &policy), "{call:?}\n{}", file.text());
            }
        }
    }

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
    fn an_appender_refuses_a_cut_off_file_and_reads_version_1() {
        let dir = tempfile::tempdir().unwrap();
        let cut = dir.path().join("cut");
        std::fs::write(&cut, "inertbox-session 2\nr\tr1\tallow\tsrc").unwrap();
        let e = Appender::open(&cut).err().unwrap().to_string();
        assert!(e.contains("cut off"), "{e}");
        let v1 = dir.path().join("v1");
        std::fs::write(&v1, r#"{"version":1,"reads":[],"trusted":[],"next_id":3}"#).unwrap();
        let mut a = Appender::open(&v1).unwrap();
        assert_eq!(a.add_read("x", Verdict::Allow, Vec::new(), Vec::new()), "r4");
        a.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&v1).unwrap(), "inertbox-session 2\nr\tr4\tallow\tx\n");
    }

    #[test]
    fn field_end_equals_the_byte_loop() {
        let bits = ["a", "\t", "\n", "\x0b", "\x00", "\x0a\x0b", "é", "abcdefgh", " "];
        let mut rng = Lcg::new(9);
        for _ in 0..20_000 {
            let t = rng.join(&bits, 12);
            let b = t.as_bytes();
            for i in 0..=b.len() {
                let want = (i..b.len()).find(|&k| b[k] == b'\t' || b[k] == b'\n').unwrap_or(b.len());
                assert_eq!(field_end(b, i), want, "{t:?} from {i}");
            }
        }
    }
}
