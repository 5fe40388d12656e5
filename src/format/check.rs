//! Checking: find every wrapper in a stream, structure first, then its
//! bytes and sha256; and what a prompt holds outside its wrappers.

use std::io::{self, Read};

use memchr::memmem;
use sha2::{Digest, Sha256};

use super::scan::{BacktickRuns, Utf8Stream};
use super::{BOM, CHUNK, FORMAT_VERSION, MIN_FENCE, PARALLEL_MIN};

/// Wrappers listed per input; past them each is still verified, and only
/// counted (a failure among them is an error of the input).
pub const MAX_LISTED_WRAPPERS: usize = 10_000;
/// What every anchor line starts with (any version).
const ANCHOR_START: &[u8] = b"[INERTBOX v";
/// The error of an input that holds no wrapper at all.
const NO_WRAPPER: &str = "no INERTBOX wrapper found";
/// The note for CR bytes where a wrapper's structure failed, when a look
/// with LF restored found nothing either (or could not be taken).
const CR_HINT: &str =
    "hint: document contains CR bytes — it may have been EOL-converted (CRLF); wrapped documents are LF-only artifacts";

/// One wrapper found by `check`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WrapperReport {
    /// 1-based line of the begin anchor.
    pub line: u64,
    pub tag: String,
    /// The version digits as written in the begin anchor.
    pub version: String,
    pub source: Option<String>,
    pub bytes: Option<u64>,
    pub sha256: Option<String>,
    /// The wrapper is well-formed.
    pub structural: bool,
    /// Well-formed, and bytes and sha256 match.
    pub verified: bool,
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    /// Byte offset of the begin anchor in the input (not in `check --json`).
    #[serde(skip)]
    pub start: u64,
    /// Byte offset just past the end anchor whose tag matches the begin
    /// anchor's, right after the closing fence; none when the wrapper has
    /// no such end (not in `check --json`). An end anchor of another tag,
    /// or one inside the content, never ends a wrapper.
    #[serde(skip)]
    pub end: Option<u64>,
}

/// Everything `check` found in one input.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CheckReport {
    /// True only when at least one wrapper was found and all verified.
    pub ok: bool,
    pub wrappers: Vec<WrapperReport>,
    /// Problems with the input as a whole (not UTF-8, no wrapper, CR hint).
    pub errors: Vec<String>,
    /// CR bytes stood where a wrapper's structure failed: its line ends may
    /// have been changed to CRLF (`explain_crlf` looks again with LF restored).
    #[serde(skip)]
    pub cr_suspect: bool,
    /// Set when the input's line ends were changed to CRLF: with LF
    /// restored, wrappers are found (and how many of them verify).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_endings: Option<CrlfDamage>,
}

/// Wrappers whose line ends were changed from LF to CRLF (a Windows
/// clipboard or editor, git's `autocrlf`): what `check` finds with LF
/// line ends restored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CrlfDamage {
    /// Always `crlf`: what the line ends became.
    pub changed_to: &'static str,
    /// Wrappers found with LF restored.
    pub wrappers: usize,
    /// Of those, how many verify.
    pub verified: usize,
}

/// A sliding window over a reader: absolute positions, bytes kept from a
/// mark the parser sets, UTF-8 validated and line-counted as they arrive.
struct Window<R> {
    r: R,
    buf: Vec<u8>,
    /// Absolute position of `buf[0]`.
    base: u64,
    eof: bool,
    utf8: Utf8Stream,
    /// Newlines in the bytes already dropped from the window.
    dropped_lines: u64,
    /// The last position `line_of` counted to and the newlines before it,
    /// so anchor after anchor on a long input never counts from the start.
    counted: (u64, u64),
    saw_cr: bool,
}

impl<R: Read> Window<R> {
    fn new(r: R) -> Self {
        Window {
            r,
            buf: Vec::new(),
            base: 0,
            eof: false,
            utf8: Utf8Stream::default(),
            dropped_lines: 0,
            counted: (0, 0),
            saw_cr: false,
        }
    }

    fn end(&self) -> u64 {
        self.base + self.buf.len() as u64
    }

    /// Drop bytes before `keep`, then read one more chunk. False at EOF.
    fn fill(&mut self, keep: u64) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        let drop = keep.saturating_sub(self.base).min(self.buf.len() as u64) as usize;
        if drop > 0 {
            self.dropped_lines += count_lf(&self.buf[..drop]);
            self.buf.drain(..drop);
            self.base += drop as u64;
        }
        let old = self.buf.len();
        let n = (&mut self.r).take(CHUNK as u64).read_to_end(&mut self.buf)?;
        let fresh = &self.buf[old..];
        self.utf8.feed(fresh, |_| {});
        self.saw_cr |= memchr::memchr(b'\r', fresh).is_some();
        if n < CHUNK {
            self.eof = true;
        }
        Ok(n > 0)
    }

    /// Make `[.., upto)` available unless the input ends first; keep `keep..`.
    fn ensure(&mut self, upto: u64, keep: u64) -> io::Result<()> {
        while self.end() < upto && self.fill(keep)? {}
        Ok(())
    }

    /// The byte at `pos`, or None past the end of the input.
    fn byte(&mut self, pos: u64, keep: u64) -> io::Result<Option<u8>> {
        self.ensure(pos + 1, keep)?;
        Ok(if pos < self.end() && pos >= self.base { Some(self.buf[(pos - self.base) as usize]) } else { None })
    }

    fn slice(&self, a: u64, b: u64) -> &[u8] {
        &self.buf[(a - self.base) as usize..(b - self.base) as usize]
    }

    /// Position of the next LF at or after `from`, or the input length.
    fn line_end(&mut self, from: u64, keep: u64) -> io::Result<u64> {
        let mut at = from;
        loop {
            if at < self.end()
                && let Some(p) = memchr::memchr(b'\n', &self.buf[(at - self.base) as usize..])
            {
                return Ok(at + p as u64);
            }
            at = at.max(self.end());
            if !self.fill(keep)? {
                return Ok(self.end());
            }
        }
    }

    /// Does the text at `pos` equal `want` and end its line there?
    fn line_is(&mut self, pos: u64, want: &[u8], keep: u64) -> io::Result<bool> {
        let stop = pos + want.len() as u64;
        self.ensure(stop + 1, keep)?;
        if stop > self.end() || self.slice(pos, stop) != want {
            return Ok(false);
        }
        Ok(stop == self.end() || self.slice(stop, stop + 1) == b"\n")
    }

    /// 1-based line number of `pos` (which must still be in the window).
    /// Counts on from the last position asked when that is still in the
    /// window and not past `pos` (callers ask in rising order).
    fn line_of(&mut self, pos: u64) -> u64 {
        let (from, before) = match self.counted {
            (at, n) if at >= self.base && at <= pos => (at, n),
            _ => (self.base, self.dropped_lines),
        };
        let n = before + count_lf(self.slice(from, pos));
        self.counted = (pos, n);
        n + 1
    }
}

fn count_lf(b: &[u8]) -> u64 {
    // memchr counts with the widest vectors the CPU has (chosen at run
    // time): 32 bytes a step where the portable loop took 16.
    memchr::memchr_iter(b'\n', b).count() as u64
}

/// A begin anchor line: `[INERTBOX v<digits> begin <hex>]`.
struct Found {
    start: u64,
    line_end: u64,
    version: String,
    tag: String,
    line: u64,
}

/// Parse a whole line as a begin anchor (the reference's BEGIN_RE).
fn parse_begin(line: &[u8]) -> Option<(String, String)> {
    let rest = line.strip_prefix(ANCHOR_START)?;
    let nd = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    if nd == 0 {
        return None;
    }
    let rest2 = rest[nd..].strip_prefix(b" begin ")?;
    let hex = rest2.strip_suffix(b"]")?;
    if hex.is_empty() || !hex.iter().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b)) {
        return None;
    }
    Some((ascii(&rest[..nd]), ascii(hex)))
}

fn ascii(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The reference reads the version with parseInt, so `v01` is version 1.
fn version_is_current(digits: &str) -> bool {
    digits.trim_start_matches('0') == FORMAT_VERSION.to_string()
}

/// A header line of the form `key: value` (the reference's META_RE, except
/// that U+2028 and U+2029 may appear in the value: lines split on LF only).
fn parse_meta(line: &[u8]) -> Option<(&[u8], &[u8])> {
    let first = *line.first()?;
    if !first.is_ascii_lowercase() {
        return None;
    }
    let klen =
        line.iter().take_while(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || **b == b'_' || **b == b'-').count();
    let value = line[klen..].strip_prefix(b": ")?;
    if value.contains(&b'\r') {
        return None;
    }
    Some((&line[..klen], value))
}

/// A header line that opens the fence: three or more backticks, then `text`.
fn fence_run(line: &[u8]) -> Option<usize> {
    let n = line.iter().take_while(|&&b| b == b'`').count();
    (n >= MIN_FENCE && &line[n..] == b"text").then_some(n)
}

/// Where the scan resumes after a wrapper; None means "nothing more".
type Next = Option<u64>;

struct Parser<R> {
    w: Window<R>,
    /// Position 0 of the text: after a leading BOM, which the reference's
    /// decoder strips.
    origin: u64,
}

impl<R: Read> Parser<R> {
    fn find_begin(&mut self, from: u64) -> io::Result<Option<Found>> {
        let finder = memmem::Finder::new(ANCHOR_START);
        let mut at = from;
        loop {
            let keep = at.saturating_sub(1).max(self.origin);
            self.w.ensure(at + 1, keep)?;
            let hit = if at < self.w.end() {
                finder.find(&self.w.buf[(at - self.w.base) as usize..]).map(|p| at + p as u64)
            } else {
                None
            };
            match hit {
                Some(idx) => {
                    // Every resume point is a line start, as is the origin.
                    let at_line_start = idx == self.origin || idx == from || self.w.byte(idx - 1, keep)? == Some(b'\n');
                    if at_line_start {
                        let le = self.w.line_end(idx, idx)?;
                        if let Some((version, tag)) = parse_begin(self.w.slice(idx, le)) {
                            let line = self.w.line_of(idx);
                            return Ok(Some(Found { start: idx, line_end: le, version, tag, line }));
                        }
                    }
                    at = idx + 1;
                }
                None => {
                    let next = self.w.end().saturating_sub(ANCHOR_START.len() as u64 - 1).max(at);
                    if !self.w.fill(next.saturating_sub(1).max(self.origin))? {
                        return Ok(None);
                    }
                    at = next;
                }
            }
        }
    }

    fn parse_wrapper(&mut self, f: &Found) -> io::Result<(WrapperReport, Next)> {
        let mut res = WrapperReport {
            line: f.line,
            tag: f.tag.clone(),
            version: f.version.clone(),
            source: None,
            bytes: None,
            sha256: None,
            structural: false,
            verified: false,
            errors: Vec::new(),
            warnings: Vec::new(),
            start: f.start,
            end: None,
        };
        macro_rules! fail {
            ($next:expr, $($msg:tt)*) => {{
                res.errors.push(format!($($msg)*));
                return Ok((res, $next));
            }};
        }
        if !version_is_current(&f.version) {
            fail!(
                Some(f.line_end + 1),
                "unsupported format version v{} — this tool understands v{FORMAT_VERSION} only (the document may be newer)",
                f.version
            );
        }
        let end_anchor = format!("[INERTBOX v{FORMAT_VERSION} end {}]", f.tag).into_bytes();

        // Header: lines up to the opening fence; keep the trailing meta run.
        let mut cursor = f.line_end + 1;
        let (mut source, mut bytes, mut sha) = (None::<Vec<u8>>, None::<Vec<u8>>, None::<Vec<u8>>);
        let (flen, fence_line_end) = loop {
            let len_known = self.w.eof;
            if len_known && cursor > self.w.end() {
                fail!(None, "no opening fence line (```text) found after the begin anchor");
            }
            let le = self.w.line_end(cursor, cursor - 1)?;
            if cursor > self.w.end() {
                fail!(None, "no opening fence line (```text) found after the begin anchor");
            }
            let line = self.w.slice(cursor, le);
            if let Some(n) = fence_run(line) {
                break (n, le);
            }
            if line == end_anchor.as_slice() || parse_begin(line).is_some() {
                fail!(Some(cursor), "no opening fence (```text) before the next anchor — malformed wrapper");
            }
            if self.w.eof && cursor >= self.w.end() {
                fail!(None, "no opening fence line (```text) found after the begin anchor");
            }
            match parse_meta(line) {
                Some((key, value)) => match key {
                    b"source" => source = Some(value.to_vec()),
                    b"bytes" => bytes = Some(value.to_vec()),
                    b"sha256" => sha = Some(value.to_vec()),
                    _ => {}
                },
                None => (source, bytes, sha) = (None, None, None),
            }
            cursor = le + 1;
        };
        if fence_line_end >= self.w.end() {
            fail!(None, "opening fence at end of document — content and closing fence are missing");
        }
        let after_fence_line = Some(fence_line_end + 1);
        for (name, v) in [("source", &source), ("bytes", &bytes), ("sha256", &sha)] {
            if v.is_none() {
                res.errors.push(format!("missing metadata field \"{name}\" in the header"));
            }
        }
        let (Some(source), Some(bytes), Some(sha)) = (source, bytes, sha) else {
            return Ok((res, after_fence_line));
        };
        if bytes.is_empty() || !bytes.iter().all(u8::is_ascii_digit) {
            fail!(after_fence_line, "bytes field is not a decimal integer: {:?}", ascii(&bytes));
        }
        if sha.len() != 64 || !sha.iter().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(b)) {
            fail!(after_fence_line, "sha256 field is not 64 lowercase hex characters");
        }
        res.source = Some(ascii(&source));
        res.bytes = Some(parse_decimal(&bytes));
        res.sha256 = Some(ascii(&sha));

        // Content: up to the first line that is exactly the fence run; the
        // LF before that line is wrap's, not the content's.
        let mut needle = vec![b'\n'];
        needle.extend(std::iter::repeat_n(b'`', flen));
        let finder = memmem::Finder::new(&needle);
        let content_start = fence_line_end + 1;
        let mut digest = ContentDigest::new(flen);
        let mut hashed = content_start;
        let mut at = fence_line_end;
        let close_lf = loop {
            let hit = if at < self.w.end() {
                finder.find(&self.w.buf[(at - self.w.base) as usize..]).map(|p| at + p as u64)
            } else {
                None
            };
            match hit {
                Some(q) => {
                    let fence = &needle[1..];
                    if self.w.line_is(q + 1, fence, hashed.min(q))? {
                        break q;
                    }
                    at = q + 1;
                }
                None => {
                    // Every byte before the last possible match start is content.
                    let safe = self.w.end().saturating_sub(needle.len() as u64 - 1).max(at).max(hashed);
                    if safe > hashed {
                        digest.update(self.w.slice(hashed, safe));
                        hashed = safe;
                    }
                    at = safe.max(at);
                    if !self.w.fill(hashed.min(at))? {
                        fail!(None, "no closing fence found — the wrapper is truncated");
                    }
                }
            }
        };
        let close_end = close_lf + 1 + flen as u64;
        if close_lf == fence_line_end {
            fail!(Some(close_end + 1), "malformed wrapper: no newline between content and closing fence");
        }
        digest.update(self.w.slice(hashed, close_lf));
        let content_len = close_lf - content_start;

        // The end anchor must be the very next line.
        let after = close_end + 1;
        if close_end >= self.w.end() || !self.w.line_is(after, &end_anchor, close_end)? {
            let shown = if close_end >= self.w.end() {
                String::new()
            } else {
                let le = self.w.line_end(after, close_end)?;
                let line = String::from_utf8_lossy(self.w.slice(after, le.min(after + 160)));
                line.chars().take(40).collect()
            };
            fail!(
                if close_end >= self.w.end() { None } else { Some(after) },
                "closing fence is not immediately followed by the end anchor (found: {:?})",
                shown
            );
        }
        let anchor_end = after + end_anchor.len() as u64;
        res.structural = true;
        res.end = Some(anchor_end);
        let (got, longest, shape) = digest.finish();
        if let Some(want) = res.bytes.filter(|&b| b != content_len) {
            let change = shape.change(want, content_len);
            res.errors.push(format!("bytes mismatch: header={} extracted={content_len} ({change})", ascii(&bytes)));
        }
        if hex::encode(got).as_bytes() != sha.as_slice() {
            res.errors.push("sha256 mismatch: content does not match the stamped hash".to_string());
        }
        if let Some(longest) = longest {
            res.warnings.push(format!(
                "fence ({flen} backticks) is not longer than the longest backtick run in the content ({longest})"
            ));
        }
        res.verified = res.errors.is_empty();
        let next = if anchor_end >= self.w.end() && self.w.eof { None } else { Some(anchor_end + 1) };
        Ok((res, next))
    }
}

/// Watches content for a backtick run as long as the fence (a hand-edited
/// document; wrap never writes one). Until one appears a substring search
/// is enough; from the first such run on, runs are counted exactly, and the
/// longest of those is the longest overall (every earlier run was shorter).
#[derive(Clone)]
struct FenceLint {
    fence: Vec<u8>,
    /// Backticks at the very end of what was seen so far.
    trail: u64,
    exact: Option<BacktickRuns>,
}

impl FenceLint {
    fn new(flen: usize) -> Self {
        FenceLint { fence: vec![b'`'; flen], trail: 0, exact: None }
    }

    fn feed(&mut self, d: &[u8]) {
        if let Some(r) = &mut self.exact {
            r.feed(d);
            return;
        }
        let flen = self.fence.len() as u64;
        let lead = d.iter().take_while(|&&b| b == b'`').count();
        if self.trail + lead as u64 >= flen {
            let mut r = BacktickRuns { cur: self.trail, max: 0 };
            r.feed(d);
            self.exact = Some(r);
            return;
        }
        if let Some(p) = memmem::find(d, &self.fence) {
            // The leftmost match starts its run: the byte before it is no backtick.
            let mut r = BacktickRuns::default();
            r.feed(&d[p..]);
            self.exact = Some(r);
            return;
        }
        let tail = d.iter().rev().take_while(|&&b| b == b'`').count() as u64;
        self.trail = if tail as usize == d.len() { self.trail + tail } else { tail };
    }

    /// The longest run, when one is as long as the fence.
    fn too_long(&self) -> Option<u64> {
        self.exact.as_ref().map(BacktickRuns::longest)
    }
}

/// The content's line ends, counted as it streams, so a bytes mismatch
/// can say what kind of change it looks like.
#[derive(Clone, Default)]
struct Shape {
    lf: u64,
    /// LFs with a CR before them.
    crlf: u64,
    /// Lines (the last one too, unfinished or not) that end in a space or tab.
    blank_ends: u64,
    last: Option<u8>,
}

impl Shape {
    fn feed(&mut self, d: &[u8]) {
        for p in memchr::memchr_iter(b'\n', d) {
            self.lf += 1;
            match if p > 0 { Some(d[p - 1]) } else { self.last } {
                Some(b'\r') => self.crlf += 1,
                Some(b' ' | b'\t') => self.blank_ends += 1,
                _ => {}
            }
        }
        if let Some(&b) = d.last() {
            self.last = Some(b);
        }
    }

    /// What a content of `got` bytes, stamped as `want`, looks changed by.
    fn change(&self, want: u64, got: u64) -> String {
        let n = |k: u64| if k == 1 { "1 byte".to_string() } else { format!("{k} bytes") };
        let ends_blank = matches!(self.last, Some(b' ' | b'\t'));
        if got > want {
            let more = n(got - want);
            return if self.crlf >= got - want {
                format!("{more} more: line ends look changed from LF to CRLF")
            } else {
                format!("{more} more: text looks added")
            };
        }
        let fewer = want - got;
        // Every kind of edit that fits, the commonest first; none is sure.
        let mut kinds = Vec::new();
        if fewer == 1 && self.last != Some(b'\n') {
            kinds.push("the final newline removed");
        } else {
            if self.blank_ends == 0 && !ends_blank {
                kinds.push("trailing spaces trimmed (no line ends in a space or tab now)");
            }
            if self.crlf == 0 && self.lf > 1 && fewer == self.lf {
                kinds.push("line ends changed from CRLF to LF (one byte fewer a line)");
            }
            if self.last != Some(b'\n') {
                kinds.push("the end cut off (the last line is unfinished)");
            }
            kinds.push("text removed");
        }
        format!("{} fewer: looks like {}", n(fewer), kinds.join(", or "))
    }
}

/// Hashes a wrapper's content and lints its backtick runs. Once the content
/// proves large, the work moves to a helper thread fed with owned chunks, so
/// hashing overlaps reading and searching; buffers come back for reuse.
struct ContentDigest {
    sha: Sha256,
    runs: FenceLint,
    shape: Shape,
    worker: Option<DigestWorker>,
}

struct DigestWorker {
    tx: std::sync::mpsc::SyncSender<Vec<u8>>,
    spare: std::sync::mpsc::Receiver<Vec<u8>>,
    handle: std::thread::JoinHandle<(Sha256, FenceLint, Shape)>,
}

impl ContentDigest {
    fn new(flen: usize) -> Self {
        ContentDigest { sha: Sha256::new(), runs: FenceLint::new(flen), shape: Shape::default(), worker: None }
    }

    fn update(&mut self, part: &[u8]) {
        if self.worker.is_none() && part.len() >= PARALLEL_MIN {
            self.worker = self.spawn();
        }
        match &self.worker {
            Some(w) => {
                let mut v = w.spare.try_recv().unwrap_or_default();
                v.clear();
                v.extend_from_slice(part);
                if let Err(back) = w.tx.send(v) {
                    // The helper is gone (it cannot panic on hashing); keep going inline.
                    self.sha.update(&back.0);
                    self.runs.feed(&back.0);
                    self.shape.feed(&back.0);
                }
            }
            None => {
                self.sha.update(part);
                self.runs.feed(part);
                self.shape.feed(part);
            }
        }
    }

    fn spawn(&mut self) -> Option<DigestWorker> {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Vec<u8>>(2);
        let (spare_tx, spare) = std::sync::mpsc::channel::<Vec<u8>>();
        let mut sha = self.sha.clone();
        let mut runs = self.runs.clone();
        let mut shape = self.shape.clone();
        let handle = std::thread::Builder::new()
            .name("inertbox-digest".into())
            .spawn(move || {
                for v in rx {
                    sha.update(&v);
                    runs.feed(&v);
                    shape.feed(&v);
                    let _ = spare_tx.send(v);
                }
                (sha, runs, shape)
            })
            .ok()?;
        Some(DigestWorker { tx, spare, handle })
    }

    fn finish(self) -> ([u8; 32], Option<u64>, Shape) {
        let (sha, runs, shape) = match self.worker {
            Some(w) => {
                drop(w.tx);
                w.handle.join().unwrap_or_else(|p| std::panic::resume_unwind(p))
            }
            None => (self.sha, self.runs, self.shape),
        };
        (sha.finalize().into(), runs.too_long(), shape)
    }
}

/// A decimal field as a number; values too large to be a real length
/// saturate (they can never match).
fn parse_decimal(d: &[u8]) -> u64 {
    d.iter().try_fold(0u64, |acc, b| acc.checked_mul(10)?.checked_add((b - b'0') as u64)).unwrap_or(u64::MAX)
}

/// Verify every wrapper in a stream.
pub fn check_reader(r: impl Read) -> io::Result<CheckReport> {
    let mut p = Parser { w: Window::new(r), origin: 0 };
    p.w.ensure(BOM.len() as u64, 0)?;
    if p.w.buf.starts_with(BOM) {
        p.origin = BOM.len() as u64;
    }
    let mut wrappers = Vec::new();
    // Past the listed ones: how many more, how many failed, and whether
    // any was broken in structure.
    let (mut more, mut more_failed, mut more_broken) = (0usize, 0usize, false);
    let mut pos = Some(p.origin);
    while let Some(from) = pos {
        let Some(found) = p.find_begin(from)? else {
            break;
        };
        let (report, next) = p.parse_wrapper(&found)?;
        if wrappers.len() < MAX_LISTED_WRAPPERS {
            wrappers.push(report);
        } else {
            more += 1;
            more_failed += usize::from(!report.verified);
            more_broken |= !report.structural;
        }
        pos = next.map(|n| n.max(found.start + 1));
    }
    // The whole input must be valid UTF-8, wrappers or not.
    while p.w.fill(p.w.end())? {}
    let mut errors = Vec::new();
    if p.w.utf8.finish().is_some() {
        return Ok(CheckReport {
            ok: false,
            wrappers: Vec::new(),
            errors: vec!["document is not valid UTF-8".into()],
            cr_suspect: false,
            line_endings: None,
        });
    }
    if wrappers.is_empty() {
        errors.push(NO_WRAPPER.to_string());
    }
    if more_failed > 0 {
        errors.push(format!(
            "{more_failed} of the {more} wrappers after the first {MAX_LISTED_WRAPPERS} (not listed) did not verify"
        ));
    }
    let cr_suspect = (wrappers.is_empty() || more_broken || wrappers.iter().any(|w| !w.structural)) && p.w.saw_cr;
    if cr_suspect {
        errors.push(CR_HINT.into());
    }
    let ok = !wrappers.is_empty() && wrappers.iter().all(|w| w.verified) && errors.is_empty();
    Ok(CheckReport { ok, wrappers, errors, cr_suspect, line_endings: None })
}

/// When `report` is `cr_suspect`, check the same input (`again`, read from
/// its start) with every CRLF made LF. If that finds more wrappers, or more
/// that verify, the input's line ends were changed: the report says so in
/// one error (instead of "no wrapper" and the hint) and in `line_endings`.
/// The input still fails: its bytes are not the stamped ones.
pub fn explain_crlf(report: &mut CheckReport, again: impl Read) -> io::Result<()> {
    if !report.cr_suspect {
        return Ok(());
    }
    let lf = check_reader(CrlfToLf::new(again))?;
    let verified = |r: &CheckReport| r.wrappers.iter().filter(|w| w.verified).count();
    let structural = |r: &CheckReport| r.wrappers.iter().filter(|w| w.structural).count();
    if verified(&lf) <= verified(report) && structural(&lf) <= structural(report) {
        return Ok(());
    }
    let (n, good) = (lf.wrappers.len(), verified(&lf));
    let what = if good == n {
        format!(
            "with LF restored, {}",
            if n == 1 { "the wrapper verifies".to_string() } else { format!("all {n} wrappers verify") }
        )
    } else {
        let why: Vec<String> = lf.wrappers.iter().filter(|w| !w.verified).flat_map(|w| w.errors.clone()).collect();
        format!("with LF restored, {good} of {n} wrapper(s) verify; the rest still fail: {}", why.join("; "))
    };
    report.errors.retain(|e| e != CR_HINT && e != NO_WRAPPER);
    report.errors.insert(0, format!("line endings were changed from LF to CRLF; {what}"));
    report.line_endings = Some(CrlfDamage { changed_to: "crlf", wrappers: n, verified: good });
    report.ok = false;
    Ok(())
}

/// A reader that gives its input with every CRLF pair made LF (a lone CR
/// stays).
struct CrlfToLf<R> {
    inner: R,
    out: Vec<u8>,
    at: usize,
    /// A CR ended the last read: whether it stays depends on the next byte.
    held_cr: bool,
    done: bool,
}

impl<R: Read> CrlfToLf<R> {
    fn new(inner: R) -> Self {
        CrlfToLf { inner, out: Vec::new(), at: 0, held_cr: false, done: false }
    }
}

impl<R: Read> Read for CrlfToLf<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.out.len() {
            if self.done {
                return Ok(0);
            }
            self.out.clear();
            self.at = 0;
            let mut raw = [0u8; 64 << 10];
            let n = self.inner.read(&mut raw)?;
            if n == 0 {
                self.done = true;
                if std::mem::take(&mut self.held_cr) {
                    self.out.push(b'\r');
                }
                continue;
            }
            for &b in &raw[..n] {
                if std::mem::take(&mut self.held_cr) && b != b'\n' {
                    self.out.push(b'\r');
                }
                if b == b'\r' {
                    self.held_cr = true;
                } else {
                    self.out.push(b);
                }
            }
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The prompt with INERTBOX wrappers cut out (what the user typed), by the
/// extents `check` found: each wrapper from its begin anchor to the end
/// anchor of its own tag after its closing fence, so an end line inside
/// wrapped content ends nothing. A wrapper without such an end (truncated,
/// malformed) is wrapped content all the way to the end of the prompt, as
/// is everything past the wrappers `check` lists. The host-text line after
/// a wrapper (`End of quoted material (source: …)`) is wrap's, not typed.
pub(crate) fn outside_wrappers(prompt: &str, wrappers: &[WrapperReport]) -> String {
    let len = prompt.len();
    let mut cuts: Vec<(usize, usize)> =
        wrappers.iter().map(|w| (w.start as usize, w.end.map_or(len, |e| e as usize))).collect();
    if wrappers.len() >= MAX_LISTED_WRAPPERS
        && let Some(last) = wrappers.last()
    {
        cuts.push((last.start as usize, len));
    }
    cuts.sort_unstable();
    let mut kept = String::new();
    let mut at = 0;
    for (start, end) in cuts {
        if start > at {
            kept.push_str(prompt.get(at..start).unwrap_or_default());
        }
        at = at.max(end.min(len));
    }
    kept.push_str(prompt.get(at..).unwrap_or_default());
    let mut out = String::with_capacity(kept.len());
    for line in kept.split_inclusive('\n') {
        if !line.starts_with("End of quoted material (source: ") {
            out.push_str(line);
        }
    }
    out
}

/// Verify every wrapper in bytes already in memory (line ends changed to
/// CRLF recognised).
pub fn check_bytes(doc: &[u8]) -> CheckReport {
    let mut report = check_reader(doc).expect("reading from memory cannot fail");
    explain_crlf(&mut report, doc).expect("reading from memory cannot fail");
    report
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::{WrapOptions, wrap_bytes};

    fn wrap_str(s: &str, source: &str) -> String {
        let opts = WrapOptions { source: source.into(), timestamp: None };
        String::from_utf8(wrap_bytes(s.as_bytes(), &opts).unwrap().doc).unwrap()
    }

    #[test]
    fn fence_lint_reports_runs_as_long_as_the_fence_in_any_chunking() {
        let plain = |t: &[u8]| t.split(|&b| b != b'`').map(<[u8]>::len).max().unwrap_or(0) as u64;
        for text in [&b"a`b``c``d"[..], b"x ```` y ``````` z", b"````", b"``", b"a ``` b `` c"] {
            for flen in 3..6 {
                let want = Some(plain(text)).filter(|&l| l >= flen as u64);
                for split in 0..=text.len() {
                    let mut l = FenceLint::new(flen);
                    l.feed(&text[..split]);
                    l.feed(&text[split..]);
                    assert_eq!(l.too_long(), want, "{text:?} flen {flen} split {split}");
                }
            }
        }
    }

    #[test]
    fn count_lf_counts_every_newline() {
        let text: Vec<u8> = (0..20_000).map(|i| if i % 7 == 0 { b'\n' } else { b'x' }).collect();
        assert_eq!(count_lf(&text), text.iter().filter(|&&b| b == b'\n').count() as u64);
    }

    #[test]
    fn roundtrip_and_tamper() {
        for s in ["", "\n", "abc", "abc\n", "a\r\nb", "```\n````", "\u{feff}bom"] {
            let doc = wrap_str(s, "t");
            let r = check_bytes(doc.as_bytes());
            assert!(r.ok, "{s:?}: {r:?}");
            let tampered = doc.replacen("\ntext", "\ntexT", 1);
            if tampered != doc {
                assert!(!check_bytes(tampered.as_bytes()).ok);
            }
        }
    }

    #[test]
    fn check_in_tiny_chunks_agrees_with_whole() {
        let inner = wrap_str("one ``` two\n", "a");
        let doc = format!("host text\n{inner}between\n{}", wrap_str(&inner, "b"));
        let whole = check_bytes(doc.as_bytes());
        assert!(whole.ok);
        assert_eq!(whole.wrappers.len(), 2);
        for n in [1, 2, 3, 7] {
            assert_eq!(check_reader(Trickle(doc.as_bytes(), n)).unwrap(), whole, "chunks of {n}");
        }
    }

    /// A reader that hands out `n` bytes a call.
    struct Trickle<'a>(&'a [u8], usize);
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buf.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn shape_counts_the_same_in_any_chunking() {
        let text = b"a \r\nb\t\nc\r\n\nend ";
        let mut whole = Shape::default();
        whole.feed(text);
        assert_eq!((whole.lf, whole.crlf, whole.blank_ends, whole.last), (4, 2, 1, Some(b' ')));
        for split in 0..=text.len() {
            let mut s = Shape::default();
            s.feed(&text[..split]);
            s.feed(&text[split..]);
            assert_eq!((s.lf, s.crlf, s.blank_ends, s.last), (whole.lf, whole.crlf, whole.blank_ends, whole.last));
        }
    }

    #[test]
    fn crlf_to_lf_joins_pairs_across_reads_and_keeps_lone_crs() {
        let text = b"a\r\nb\rc\r\r\nd\r";
        for n in [1, 2, 3, 100] {
            let mut out = Vec::new();
            CrlfToLf::new(Trickle(text, n)).read_to_end(&mut out).unwrap();
            assert_eq!(out, b"a\nb\rc\r\nd\r", "reads of {n}");
        }
    }

    #[test]
    fn source_with_line_separator_verifies() {
        let doc = wrap_str("x", "a\u{2028}b\u{2029}c");
        assert!(check_bytes(doc.as_bytes()).ok);
    }

    #[test]
    fn version_zero_padded_is_v1() {
        assert!(version_is_current("1"));
        assert!(version_is_current("001"));
        assert!(!version_is_current("10"));
        assert!(!version_is_current("2"));
    }
}
