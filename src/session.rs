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
//!   is a read's own sender (an email's From).
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

use std::borrow::Cow;
use std::fs::{File, OpenOptions};
use std::io::{Read as _, Seek as _, SeekFrom, Write as _};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::detect::Verdict;
use crate::document::{Entity, EntityKind};
use crate::gate::{
    self, Call, EntityRef, Facts, GateError, History, Journal, LEDGER_VERSION, Ledger, Outcome, Policy, ReadEntry,
    Recorder, Wanted,
};

/// The first line of a version 2 session file.
pub const HEADER: &str = "inertbox-session 2\n";

/// The source of the read that stands for a last record cut off by a crash.
pub const TORN_SOURCE: &str = "a session record cut off by a crash (unreadable, counted as untrusted)";

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

/// What [`parse`] tells as it goes, record by record. Spans are byte
/// ranges of the text it was given.
trait Records {
    /// A read begins; its items follow.
    fn read(&mut self, id: Span, n: u64, source: Span, verdict: Verdict);
    /// A trust record begins; its items follow.
    fn trust(&mut self);
    /// An item of the record begun last: its kind letter and its value
    /// (which may hold escapes only when `escapes`: the text has a backslash).
    fn item(&mut self, text: &str, letter: u8, value: Span, escapes: bool);
    /// The record begun last ends.
    fn end(&mut self);
    /// A forget record naming `id` (unescaped): false when no earlier read
    /// has that id.
    fn forget(&mut self, text: &str, id: &str) -> bool;
}

/// Check the records in `text[from..]`, whole lines, and tell `out` about
/// them; `lines_before` lines came before `text` (for the line numbers of
/// errors) and `last_id` is the largest read id number so far. Returns the
/// new largest id and how many records (lines) there were.
fn parse(
    text: &str,
    from: usize,
    lines_before: usize,
    mut last_id: u64,
    out: &mut impl Records,
) -> Result<(u64, usize), String> {
    let body = &text[from..];
    let line_of = |at: usize| lines_before + line_no(text, at);
    // Callers hand whole lines (a torn last record is taken off first).
    if !body.is_empty() && !body.ends_with('\n') {
        return Err(format!("line {}: the last record is cut off (no line end)", line_of(text.len())));
    }
    let escapes = body.contains('\\');
    if escapes && let Some(at) = bad_escape(body) {
        return Err(format!("line {}: a backslash that is not \\\\, \\t, \\n or \\r", line_of(from + at)));
    }
    let b = text.as_bytes();
    let span = |start: usize, end: usize| Span { start: start as u32, end: end as u32 };
    let mut records = 0;
    let mut i = from;
    while i < b.len() {
        let line = i;
        records += 1;
        let fail = |why: String| format!("line {}: {why}", line_of(line));
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
                let n = match read_number(id) {
                    Some(k) => k.parse::<u64>().ok().filter(|&n| n > last_id),
                    None => return Err(fail(format!("read id {:?} is not r and a number", short(id)))),
                };
                let Some(n) = n else {
                    return Err(fail(format!("read id {:?} does not come after r{last_id}", short(id))));
                };
                out.read(span(id_s, id_e), n, span(src_s, src_e), verdict);
                last_id = n;
            }
            b"t" => {
                if done {
                    return Err(fail("a trust record needs items".into()));
                }
                out.trust();
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
                if !out.forget(text, &id) {
                    return Err(fail(format!("forgets {:?}, which no earlier record read", short(&id))));
                }
                continue;
            }
            _ => return Err(fail(format!("unknown record {:?}", short(&String::from_utf8_lossy(tag))))),
        }
        // A read's or a trust record's items.
        while !done {
            let (s, e, d) = next(i);
            check_item(&text[s..e]).map_err(fail)?;
            out.item(text, b[s], span(s + 2, e), escapes);
            (done, i) = (d, e + 1);
        }
        out.end();
    }
    Ok((last_id, records))
}

/// The digits of a read id (`r` and a number).
fn read_number(id: &str) -> Option<&str> {
    id.strip_prefix('r').filter(|k| k.bytes().all(|b| b.is_ascii_digit()))
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

/// How much of a session file [`decide_in`] reads at a time.
const CHUNK: usize = 16 * 1024;

/// Decide a call against the session file at `path`: the decision
/// `gate::decide` makes with [`SessionFile::open`]'s session, found while
/// the file is read a chunk at a time under its lock, without holding it
/// (a 1,000-read session is 111 KB, whose fresh pages a gate process
/// paid for). A file that is not version 2, or that has something wrong
/// with it, is read whole by [`SessionFile::open`], whose errors say what
/// and where.
pub fn decide_in(path: &Path, call: &Call, policy: &Policy) -> Result<Outcome, GateError> {
    let plan = gate::plan(call, policy);
    let facts = facts_in(path, &plan.wanted)?;
    Ok(gate::judge(call, plan, &facts, policy))
}

/// [`decide_in`] with the reads of other session files counted too
/// (whether any, whether one looked like an injection): the hook's file of
/// events whose session id could not be read. Only `path`'s own trust,
/// senders and mentions count; another file never makes a call more
/// trusted.
pub fn decide_in_all(path: &Path, others: &[PathBuf], call: &Call, policy: &Policy) -> Result<Outcome, GateError> {
    let plan = gate::plan(call, policy);
    let facts = facts_in_all(path, others, &plan.wanted)?;
    Ok(gate::judge(call, plan, &facts, policy))
}

/// [`facts_in`] of `path`, with whether the `others` read anything and
/// whether it looked like an injection.
pub(crate) fn facts_in_all(path: &Path, others: &[PathBuf], wanted: &Wanted) -> Result<Facts, GateError> {
    let mut facts = facts_in(path, wanted)?;
    for p in others {
        let f = facts_in(p, &Wanted::default())?;
        facts.any_read |= f.any_read;
        facts.injected |= f.injected;
    }
    Ok(facts)
}

/// What the session file at `path` says about these targets (none: only
/// whether anything was read), read as [`decide_in`] reads it.
pub(crate) fn facts_in(path: &Path, wanted: &Wanted) -> Result<Facts, GateError> {
    let streamed = {
        let _lock = match lock(path) {
            Ok(l) => l,
            // No directory for the file yet (the first call of a session
            // in a new state directory): nothing was ever recorded there,
            // since a writer makes the directory before its first record.
            // A missing session means nothing was read.
            Err(_) if path.parent().is_some_and(|d| !d.as_os_str().is_empty() && !d.exists()) => {
                return Ok(Facts::none(wanted.len()));
            }
            Err(e) => return Err(e),
        };
        match File::open(path) {
            Ok(f) => stream(f, wanted, CHUNK),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Facts::none(wanted.len())),
            Err(_) => None,
        }
    };
    match streamed {
        Some(f) => Ok(f),
        None => Ok(gate::facts(&SessionFile::open(path)?, wanted)),
    }
}

/// What a version 2 session read from `f` says about these targets, or
/// none when it is not a version 2 session, cannot be read or is corrupt.
/// Whole lines are parsed as they arrive, `chunk` bytes at a time (more
/// when one line is longer).
fn stream(mut f: impl std::io::Read, wanted: &Wanted, chunk: usize) -> Option<Facts> {
    let mut buf = vec![0; chunk.max(HEADER.len())];
    let (mut have, mut lines, mut total, mut last_id) = (0, 0, 0u64, 0);
    let mut tally = Tally::new(wanted);
    loop {
        if have == buf.len() {
            buf.resize(2 * have, 0);
        }
        let n = match f.read(&mut buf[have..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        have += n;
        total += n as u64;
        if lines == 0 {
            if n > 0 && have < HEADER.len() {
                continue;
            }
            if !buf[..have].starts_with(HEADER.as_bytes()) {
                return None;
            }
        }
        if n == 0 {
            // A last line without its line end was cut off by a crash: an
            // unreadable read, as `SessionFile::from_text` counts it.
            if have > 0 {
                tally.torn(last_id);
            }
            return Some(tally.facts());
        }
        if total > u64::from(u32::MAX) {
            return None;
        }
        let Some(end) = buf[..have].iter().rposition(|&b| b == b'\n').map(|i| i + 1) else { continue };
        let text = std::str::from_utf8(&buf[..end]).ok()?;
        let from = if lines == 0 { HEADER.len() } else { 0 };
        let (id, records) = parse(text, from, lines, last_id, &mut tally).ok()?;
        (last_id, lines) = (id, lines + records + usize::from(lines == 0));
        buf.copy_within(end..have, 0);
        have -= end;
    }
}

/// What [`stream`] keeps of the records it is told: the reads (to forget
/// one) and which ranges of the targets' index each read mentions.
struct Tally<'p> {
    wanted: &'p Wanted,
    /// Each read's id number, the id's length (`r07` is not `r7`) and
    /// whether its verdict was review or block.
    reads: Vec<(u64, u32, bool)>,
    /// Per read (by ordinal into `reads`): forgotten.
    forgotten: Vec<bool>,
    /// (read ordinal, slots of the index, the read's sender rather than an
    /// entity).
    hits: Vec<(u32, Range<u32>, bool)>,
    /// Slots a trust record mentions.
    trusted: Vec<Range<u32>>,
    /// Items now belong to a trust record.
    in_trust: bool,
}

impl<'p> Tally<'p> {
    fn new(wanted: &'p Wanted) -> Tally<'p> {
        Tally {
            wanted,
            reads: Vec::new(),
            forgotten: Vec::new(),
            hits: Vec::new(),
            trusted: Vec::new(),
            in_trust: false,
        }
    }

    /// The read that stands for a last record cut off by a crash (the id
    /// the whole-file reader gives it; nothing after it can forget it).
    fn torn(&mut self, last_id: u64) {
        let id_len = format!("r{}", last_id + 1).len() as u32;
        self.reads.push((last_id + 1, id_len, true));
        self.forgotten.push(false);
    }

    fn facts(self) -> Facts {
        let live = |n: u32| !self.forgotten[n as usize];
        let mut facts = Facts::none(self.wanted.len());
        facts.any_read = self.forgotten.iter().any(|f| !f);
        facts.injected = self.reads.iter().enumerate().any(|(n, r)| r.2 && live(n as u32));
        let live_hits =
            |sender: bool| self.hits.iter().filter(move |h| h.2 == sender && live(h.0)).map(|h| h.1.clone());
        facts.in_content = self.wanted.covered(live_hits(false));
        facts.sender = self.wanted.covered(live_hits(true));
        facts.trusted = self.wanted.covered(self.trusted);
        facts
    }
}

impl Records for Tally<'_> {
    fn read(&mut self, id: Span, n: u64, _: Span, verdict: Verdict) {
        self.reads.push((n, id.end - id.start, verdict != Verdict::Allow));
        self.forgotten.push(false);
        self.in_trust = false;
    }

    fn trust(&mut self) {
        self.in_trust = true;
    }

    fn item(&mut self, text: &str, letter: u8, value: Span, escapes: bool) {
        if self.wanted.is_empty() {
            // A call without targets asks only whether anything was read.
            return;
        }
        let value = &text[value.start as usize..value.end as usize];
        let value = if escapes { unescape(value) } else { Cow::Borrowed(value) };
        // The read these items belong to (none in a trust record).
        let read = self.reads.len().wrapping_sub(1) as u32;
        let (wanted, hits, trusted) = (self.wanted, &mut self.hits, &mut self.trusted);
        if letter == b's' {
            if !self.in_trust {
                wanted.sender(&value, &mut |r| hits.push((read, r, true)));
            }
        } else if let Some(e) = entity(letter, value) {
            if self.in_trust {
                wanted.trusted_by(&e, &mut |r| trusted.push(r));
            } else {
                wanted.mentioned_by(&e, &mut |r| hits.push((read, r, false)));
            }
        }
    }

    fn end(&mut self) {}

    fn forget(&mut self, _: &str, id: &str) -> bool {
        let Some(n) = read_number(id).and_then(|k| k.parse::<u64>().ok()) else { return false };
        let len = id.len() as u32;
        match self.reads.binary_search_by_key(&n, |r| r.0) {
            Ok(at) if self.reads[at].1 == len => {
                self.forgotten[at] = true;
                true
            }
            _ => false,
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
    Some(EntityRef { kind: EntityKind::from_letter(letter)?, value, hidden: letter.is_ascii_uppercase() })
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
            if known.insert((e.kind, e.value.clone(), e.hidden)) {
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
    /// mid-line (it is rewritten without it, see [`TORN_SOURCE`]).
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

/// A session file's text. Bytes that are not UTF-8 are an error, except in
/// a last record cut off by a crash (which is dropped anyway): they become
/// U+FFFD, and the record stays cut off.
fn read_text(f: &mut File) -> Result<String, String> {
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

fn lock(path: &Path) -> Result<File, GateError> {
    let err = |why: String| GateError::Ledger { path: path.display().to_string(), why };
    let lock_path = lock_path(path);
    let lock = private(OpenOptions::new().create(true).truncate(false).read(true).write(true))
        .open(&lock_path)
        .map_err(|e| err(format!("cannot open lock file {}: {e}", lock_path.display())))?;
    lock.lock().map_err(|e| err(format!("cannot lock: {e}")))?;
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
    if b.len() < 2 || b[1] != b':' || !(EntityKind::from_letter(b[0]).is_some() || b[0] == b's') {
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
    out.push(e.kind.letter(e.hidden));
    out.push(':');
    escape(&e.value, out);
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
        let plans = [
            r#"{"tool":"send_email","args":{"to":"s@b.test","cc":"me@home.test","body":"see a@b.test"}}"#,
            r#"{"tool":"web_fetch","args":{"url":"https://b.test/x?q=1","note":"call +1 415 555 0100"}}"#,
        ]
        .map(|c| crate::gate::plan(&crate::gate::parse_call(c).unwrap(), &Policy::default()));
        let mut rng = Lcg::new(3);
        let (mut read, mut streamed_ok, mut mentioned, mut torn_read) = (0, 0, 0, 0);
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
            let streamed =
                stream(Pieces { b: t.as_bytes(), rng: Lcg::new(t.len() as u64) }, &plans[0].wanted, 1 + rng.below(64));
            let streamed_too = stream(t.as_bytes(), &plans[1].wanted, 1 + rng.below(64));
            let v2 = t.starts_with(HEADER);
            let torn = v2 && !t.ends_with('\n');
            match SessionFile::from_text(t) {
                Ok(s) => {
                    read += 1;
                    let _ = s.any_read() && s.injected();
                    let l = s.ledger();
                    let again = SessionFile::from_text(s.text().to_string()).unwrap();
                    assert_eq!(again.ledger(), l);
                    // Read as it streams by, a version 2 session gives what
                    // the whole file gives; anything else is left to it.
                    if v2 {
                        streamed_ok += 1;
                        // A mangled last line end reads as a torn record.
                        torn_read += usize::from(torn);
                        let f = streamed.as_ref().unwrap();
                        mentioned += usize::from(f.in_content.iter().chain(&f.sender).chain(&f.trusted).any(|&b| b));
                        assert_eq!(streamed, Some(crate::gate::facts(&s, &plans[0].wanted)), "{}", s.text());
                        assert_eq!(streamed_too, Some(crate::gate::facts(&s, &plans[1].wanted)), "{}", s.text());
                    } else {
                        assert_eq!((streamed, streamed_too), (None, None));
                    }
                }
                Err(_) => assert_eq!((streamed, streamed_too), (None, None)),
            }
        }
        assert!(read > 1_000, "{read}");
        assert!(streamed_ok > 1_000 && mentioned > 500, "{streamed_ok} {mentioned}");
        assert!(torn_read > 100, "{torn_read}");
        // Bytes that are not UTF-8 are left to the whole-file read (an error).
        let mut bad = text.into_bytes();
        bad.extend_from_slice(b"t\te:\xff@x.test\n");
        assert_eq!(stream(&bad[..], &plans[0].wanted, 16), None);
    }

    /// `decide_in` on every kind of file: none yet, version 1, a line longer
    /// than its chunk, a corrupt one (the whole-file read's error, word for
    /// word).
    #[test]
    fn deciding_in_a_file_reads_every_kind_of_file() {
        let dir = tempfile::tempdir().unwrap();
        let policy = Policy::default();
        let call = crate::gate::parse_call(r#"{"tool":"send_email","args":{"to":"pay@evil.test"}}"#).unwrap();
        let missing = dir.path().join("missing");
        assert_eq!(decide_in(&missing, &call, &policy).unwrap(), decide(&call, &Ledger::default(), &policy));
        assert!(!missing.exists());

        let mut l = Ledger { version: LEDGER_VERSION, ..Ledger::default() };
        l.add_read("x", Verdict::Block, vec![ent(EntityKind::Email, "pay@evil.test", false)], Vec::new());
        let v1 = dir.path().join("v1");
        std::fs::write(&v1, serde_json::to_string(&l).unwrap()).unwrap();
        let o = decide_in(&v1, &call, &policy).unwrap();
        assert_eq!(o, decide(&call, &l, &policy));
        assert_eq!(o.decision, crate::gate::Decision::Block);

        let mut f = fresh();
        f.add_read(
            &"long ".repeat(10_000),
            Verdict::Review,
            vec![ent(EntityKind::Email, "pay@evil.test", true)],
            Vec::new(),
        );
        f.add_read("y", Verdict::Allow, Vec::new(), Vec::new());
        let long = dir.path().join("long");
        std::fs::write(&long, f.text()).unwrap();
        assert!(f.text().lines().nth(1).unwrap().len() > 2 * CHUNK);
        assert_eq!(decide_in(&long, &call, &policy).unwrap(), decide(&call, &f, &policy));

        let corrupt = dir.path().join("corrupt");
        let text = f.text().replace("\tallow\t", "\tmaybe\t");
        std::fs::write(&corrupt, &text).unwrap();
        let err = decide_in(&corrupt, &call, &policy).unwrap_err().to_string();
        assert_eq!(err, SessionFile::open(&corrupt).err().unwrap().to_string());
        assert!(err.contains("line 3: unknown verdict \"maybe\""), "{err}");
    }

    /// A last record cut off by a crash (no line end) is dropped and counted
    /// as a read of unreadable content with a review verdict, by the
    /// whole-file reader and the streaming one alike: later calls are
    /// judged as after an injection, and no call fails on the file.
    #[test]
    fn a_torn_last_record_counts_as_an_unreadable_read() {
        let dir = tempfile::tempdir().unwrap();
        let policy = Policy::default();
        let send = crate::gate::parse_call(r#"{"tool":"send_email","args":{"to":"new@else.test"}}"#).unwrap();
        let whole = "inertbox-session 2\nr\tr1\tallow\tpage\te:a@b.test\n";
        for torn in ["r\tr2\tallow\tsrc", "t\te:me@ho", "f\tr", "r", "\t\t\\"] {
            let text = format!("{whole}{torn}");
            let s = SessionFile::from_text(text.clone()).unwrap();
            let l = s.ledger();
            assert_eq!(l.reads.len(), 2, "{text:?}");
            assert_eq!((l.reads[1].id.as_str(), l.reads[1].verdict), ("r2", Verdict::Review));
            assert_eq!(l.reads[1].source, TORN_SOURCE);
            assert!(l.trusted.is_empty(), "a torn trust record trusts nothing");
            let path = dir.path().join("torn");
            std::fs::write(&path, &text).unwrap();
            let o = decide_in(&path, &send, &policy).unwrap();
            assert_eq!(o, decide(&send, &s, &policy));
            assert_eq!(o.decision, crate::gate::Decision::Block, "{text:?}");
            // The clean file, for comparison: clean content, a confirm.
            std::fs::write(&path, whole).unwrap();
            assert_eq!(decide_in(&path, &send, &policy).unwrap().decision, crate::gate::Decision::Confirm);
        }
        // Bytes that are not UTF-8 in the torn record are that record's.
        let path = dir.path().join("bytes");
        let mut text = whole.as_bytes().to_vec();
        text.extend_from_slice(b"r\tr2\tallow\t\xe2\x82");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(decide_in(&path, &send, &policy).unwrap().decision, crate::gate::Decision::Block);
        let mut s = SessionFile::open(&path).unwrap();
        assert!(s.injected());
        // The next change rewrites the file without the torn bytes.
        s.trust_text("write to me@home.test");
        s.commit().unwrap();
        drop(s);
        let after = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            after,
            format!("{whole}r\tr2\treview\t{TORN_SOURCE}\nt\te:me@home.test\td:home.test\tw: write to me-home-test \n")
        );
        assert_eq!(SessionFile::open(&path).unwrap().ledger().reads.len(), 2);
    }

    /// A file cut off anywhere after its header, as a crash mid-append
    /// leaves it, is read, and read alike whole and streamed.
    #[test]
    fn a_session_cut_anywhere_reads_alike_whole_and_streamed() {
        let mut base = fresh();
        base.add_read("p\tq", Verdict::Allow, vec![ent(EntityKind::Email, "a@b.test", false)], vec!["s@b.test".into()]);
        base.trust_text("mail me@home.test");
        base.add_read("r é", Verdict::Block, vec![ent(EntityKind::Url, "https://x.test/é", true)], Vec::new());
        base.forget("r1");
        let text = base.text().to_string();
        let plan = crate::gate::plan(
            &crate::gate::parse_call(r#"{"tool":"send_email","args":{"to":"s@b.test","cc":"me@home.test"}}"#).unwrap(),
            &Policy::default(),
        );
        for cut in HEADER.len()..=text.len() {
            let bytes = &text.as_bytes()[..cut];
            let streamed = stream(bytes, &plan.wanted, 7).unwrap_or_else(|| panic!("cut at {cut}"));
            let lossy = String::from_utf8_lossy(bytes).into_owned();
            let s = SessionFile::from_text(lossy).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            assert_eq!(streamed, crate::gate::facts(&s, &plan.wanted), "cut at {cut}");
            let torn = !bytes.ends_with(b"\n");
            assert_eq!(s.ledger().reads.iter().any(|r| r.source == TORN_SOURCE), torn, "cut at {cut}");
        }
    }

    /// A session whose directory is not made yet (the first call of a
    /// session in a new state directory) has read nothing: no error.
    #[test]
    fn a_session_in_a_directory_not_made_yet_read_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("not/made/yet.session");
        let call = crate::gate::parse_call(r#"{"tool":"send_email","args":{"to":"pay@evil.test"}}"#).unwrap();
        let policy = Policy::default();
        assert_eq!(decide_in(&path, &call, &policy).unwrap(), decide(&call, &Ledger::default(), &policy));
        assert!(!dir.path().join("not").exists(), "a decision creates nothing");
    }

    /// A reader that gives a few bytes at a time, as a pipe or a file being
    /// written may.
    struct Pieces<'a> {
        b: &'a [u8],
        rng: Lcg,
    }

    impl std::io::Read for Pieces<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            let n = (1 + self.rng.below(7)).min(out.len()).min(self.b.len());
            out[..n].copy_from_slice(&self.b[..n]);
            self.b = &self.b[n..];
            Ok(n)
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
