//! The record format: fields separated by tabs and escaped, one record a
//! line; the parser that checks records and tells what they hold, and the
//! writers of each record.

use std::borrow::Cow;

use super::HEADER;
use crate::detect::Verdict;
use crate::document::{Entity, EntityKind};
use crate::gate::{EntityRef, Ledger};

/// A byte range of the text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Span {
    pub(super) start: u32,
    pub(super) end: u32,
}

/// What [`parse`] tells as it goes, record by record. Spans are byte
/// ranges of the text it was given.
pub(super) trait Records {
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
pub(super) fn parse(
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
pub(super) fn read_number(id: &str) -> Option<&str> {
    id.strip_prefix('r').filter(|k| k.bytes().all(|b| b.is_ascii_digit()))
}

pub(super) fn entity(letter: u8, value: Cow<'_, str>) -> Option<EntityRef<'_>> {
    Some(EntityRef { kind: EntityKind::from_letter(letter)?, value, hidden: letter.is_ascii_uppercase() })
}

/// A ledger as version 2 text.
pub(super) fn render(l: &Ledger) -> String {
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
pub(super) fn push_read(
    out: &mut String,
    id: &str,
    verdict: Verdict,
    source: &str,
    sender: &[String],
    entities: &[Entity],
) {
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

pub(super) fn push_entity(e: &Entity, out: &mut String) {
    out.push('\t');
    out.push(e.kind.letter(e.hidden));
    out.push(':');
    escape(&e.value, out);
}

pub(super) fn escape(s: &str, out: &mut String) {
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

pub(super) fn unescape(s: &str) -> Cow<'_, str> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Lcg;

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
