//! Invisible Unicode and terminal escapes: find them, decode what they spell,
//! strip them.
//!
//! Contract (used by document.rs, detect.rs and fence.rs):
//! - `find(text)` returns every hidden run in `text`, in order, not
//!   overlapping, on char boundaries, each with a reason and, where the run
//!   spells something (tag characters, variation-selector bytes, zero-width or
//!   blank binary, an RLO's reversed text, an OSC 8 link target, an OSC or
//!   DCS/APC payload, an interlinear annotation), the decoded text.
//! - A run marked `benign` is legitimate formatting: `strip` removes it, a
//!   scanner never reports it. That is: SGR colour and style (not conceal);
//!   cursor motion, erase and mode sequences (what they hide is its own run);
//!   OSC 8 links whose text is not a URL elsewhere (`decoded` still holds the
//!   target); shell-integration OSC 7, 133, 633, 9;4 and iTerm2's 1337; BEL; a carriage
//!   return or backspace that hides nothing; overstrike (`A\bA`, `_\bA`);
//!   a redraw that hides no letters or the same letters (progress bars,
//!   spinners); soft hyphens as hyphenation hints; invisible operators in a
//!   formula; ZWSP or WJ beside punctuation rather than inside a word.
//! - Legitimate look-alikes that must survive `strip` unchanged (ZWJ in emoji
//!   and in Arabic or Indic words, RLM/ALM in right-to-left text, one leading
//!   BOM, emoji presentation selectors, ideographic variation sequences, flag
//!   tag sequences, an ideographic space in CJK text) are not returned at all.
//! - `strip(text)` returns what a person sees: the runs removed, repeated
//!   until nothing more is found (at most `MAX_STRIP_PASSES` linear passes),
//!   so `strip(strip(x)) == strip(x)`. `strip_keeping_spaces(text)` is the
//!   same but keeps each space of a run of invisible Unicode as U+0020
//!   (what `fence` shows: no two words joined).
//!
//! Terminal text is read through a small screen model (rows, columns, a
//! cursor, SGR state), so text painted over by a carriage return, backspaces,
//! cursor movement or an erase is found, as is text drawn concealed or in its
//! own background colour.

use std::borrow::Cow;
use std::ops::Range;

use crate::document::HiddenReason;

mod ansi;
mod payload;
mod terminal;
mod unicode;

use crate::escape::classify;
use terminal::Terminal;
use unicode::UnicodeScan;

/// `strip` re-scans its own output until nothing is found; removing a run can
/// only change the context of its neighbours, so two or three passes settle
/// real input and this cap keeps adversarial input linear.
pub const MAX_STRIP_PASSES: usize = 16;
/// Characters that could start a run, per stretch a document maps into
/// spans (two spans a run, ~150 bytes): past this many, the rest of a part
/// is withheld as `HiddenReason::Unmapped` (a finding), so memory stays
/// bounded whatever the input.
pub const MAX_CANDIDATES: usize = 1 << 16;

/// One hidden run in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Byte range into the text (on char boundaries).
    pub range: Range<usize>,
    pub reason: HiddenReason,
    /// What the run spells, when it spells something.
    pub decoded: Option<String>,
    /// Legitimate formatting that `strip` removes but a scanner never reports
    /// (colour SGR, cursor motion, a hyphenation hint, a redrawn progress
    /// bar; the module docs list them all).
    pub benign: bool,
}

impl Run {
    fn new(range: Range<usize>, reason: HiddenReason) -> Run {
        Run { range, reason, decoded: None, benign: false }
    }

    fn decoded(mut self, decoded: Option<String>) -> Run {
        self.decoded = decoded;
        self
    }

    fn benign(mut self, benign: bool) -> Run {
        self.benign = benign;
        self
    }
}

/// Every hidden run in `text`, in order, not overlapping. The runs of a
/// text are held in memory at once: callers give at most
/// `MAX_CANDIDATES` characters that could start one (`mappable_end`).
pub fn find(text: &str) -> Vec<Run> {
    let bytes = text.as_bytes();
    let Some(mut i) = next_interesting(bytes, 0) else {
        return Vec::new();
    };
    let mut scan = UnicodeScan::new(text);
    let mut terminal = false;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 {
            let c = char_at(text, i);
            if is_c1(c) {
                terminal = true;
                i += c.len_utf8();
            } else {
                i = scan.visit(i, c);
            }
        } else if is_interesting(b) {
            // A control character (CRLF is only a line ending).
            if b != b'\r' || bytes.get(i + 1) != Some(&b'\n') {
                terminal = true;
            }
            i += 1;
        } else {
            match next_interesting(bytes, i) {
                Some(j) => i = j,
                None => break,
            }
        }
    }
    let unicode = scan.finish();
    if !terminal {
        return unicode;
    }
    let (escapes, painted) = Terminal::read(text);
    assemble(escapes, painted, unicode)
}

/// The end of the longest stretch of `text` from `from` that holds at most
/// `max` characters that could start a run (controls, escapes, C1 and
/// invisible characters): `text.len()`, or the start of the next such
/// character. What `find` holds for a stretch is bounded by its count.
pub fn mappable_end(text: &str, from: usize, max: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut n, mut i) = (0, from);
    while let Some(j) = next_interesting(bytes, i) {
        let (candidate, len) = if bytes[j] >= 0x80 {
            let c = char_at(text, j);
            (is_c1(c) || classify(c).is_some(), c.len_utf8())
        } else {
            (true, 1)
        };
        if candidate {
            if n == max {
                return j;
            }
            n += 1;
        }
        i = j + len;
    }
    text.len()
}

/// Does `text` from `from` hold a run a scanner reports? Read a stretch of
/// `MAX_CANDIDATES` at a time, so memory stays bounded; stops at the first.
pub fn any_reported(text: &str, mut from: usize) -> bool {
    while from < text.len() {
        let end = mappable_end(text, from, MAX_CANDIDATES);
        if find(&text[from..end]).iter().any(|r| !r.benign) {
            return true;
        }
        from = end;
    }
    false
}

/// What a terminal was given to draw, in the order it came: `text` without
/// its control characters and escape sequences (line breaks and tabs
/// kept). Text painted over one character at a time (`A\bs\by\b…`, or a
/// cursor moved back between letters) reads as it was typed.
pub fn written(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7F) && !text.chars().any(is_c1) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == ansi::ESC {
            i = ansi::parse_esc(text, i).0.max(i + 1);
        } else if (b < 0x20 && b != b'\n' && b != b'\t') || b == 0x7F {
            i += 1;
        } else {
            let c = char_at(text, i);
            if !is_c1(c) {
                out.push(c);
            }
            i += c.len_utf8();
        }
    }
    Cow::Owned(out)
}

/// The text with every hidden run removed, repeated until none is left; a
/// long text a stretch of `MAX_CANDIDATES` at a time.
pub fn strip(text: &str) -> Cow<'_, str> {
    strip_with(text, false)
}

/// [`strip`] for text a model reads in a prompt: in a run of invisible
/// Unicode, each space other than U+0020 (U+2009 between two letters, an
/// ideographic space in Latin text, blank binary) becomes a U+0020 instead
/// of going with the run, so no two words are joined and no blank channel
/// survives (every blank is the same space).
pub fn strip_keeping_spaces(text: &str) -> Cow<'_, str> {
    strip_with(text, true)
}

fn strip_with(text: &str, spaces: bool) -> Cow<'_, str> {
    let end = mappable_end(text, 0, MAX_CANDIDATES);
    if end == text.len() {
        return strip_stretch(text, spaces);
    }
    let mut out = strip_stretch(&text[..end], spaces).into_owned();
    let mut from = end;
    while from < text.len() {
        let end = mappable_end(text, from, MAX_CANDIDATES);
        out.push_str(&strip_stretch(&text[from..end], spaces));
        from = end;
    }
    Cow::Owned(out)
}

fn strip_stretch(text: &str, spaces: bool) -> Cow<'_, str> {
    let runs = find(text);
    if runs.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut out = remove(text, &runs, spaces);
    for _ in 1..MAX_STRIP_PASSES {
        let runs = find(&out);
        if runs.is_empty() {
            break;
        }
        out = remove(&out, &runs, spaces);
    }
    Cow::Owned(out)
}

/// `text` without `runs`; with `spaces`, the spaces in a run of invisible
/// Unicode stay, as U+0020.
fn remove(text: &str, runs: &[Run], spaces: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in runs {
        out.push_str(&text[at..r.range.start]);
        if spaces && r.reason.is_invisible_unicode() {
            let blanks = text[r.range.clone()].chars().filter(|&c| classify(c) == Some(crate::escape::Class::Space));
            out.extend(blanks.map(|_| ' '));
        }
        at = r.range.end;
    }
    out.push_str(&text[at..]);
    out
}

// ---------------------------------------------------------------------------
// Fast path: skip plain ASCII.

const LOW_BITS: u64 = 0x0101_0101_0101_0101;
const HIGH_BITS: u64 = 0x8080_8080_8080_8080;

/// Whether a word holds a byte below 0x20, 0x7F, or 0x80 and above.
fn word_has_special(w: u64) -> bool {
    let below_space = w.wrapping_sub(LOW_BITS * 0x20) & !w;
    let x = w ^ (LOW_BITS * 0x7F);
    let del = x.wrapping_sub(LOW_BITS) & !x;
    (below_space | del | w) & HIGH_BITS != 0
}

/// Bytes that need a look: controls other than TAB, LF, VT and FF; DEL; and
/// every byte of a non-ASCII character.
fn is_interesting(b: u8) -> bool {
    b >= 0x7F || (b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0B | 0x0C))
}

/// The next byte at or after `i` that needs a look, eight bytes at a time.
fn next_interesting(bytes: &[u8], mut i: usize) -> Option<usize> {
    loop {
        while let Some(chunk) = bytes.get(i..i + 8) {
            let w = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
            if word_has_special(w) {
                break;
            }
            i += 8;
        }
        let end = (i + 8).min(bytes.len());
        while i < end {
            if is_interesting(bytes[i]) {
                return Some(i);
            }
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
    }
}

fn char_at(text: &str, i: usize) -> char {
    text[i..].chars().next().expect("a char boundary inside the text")
}

fn prev_char(text: &str, i: usize) -> Option<char> {
    text[..i].chars().next_back()
}

fn next_char(text: &str, i: usize) -> Option<char> {
    text[i..].chars().next()
}

fn is_c1(c: char) -> bool {
    ('\u{80}'..='\u{9F}').contains(&c)
}

/// Put the three lists together: Unicode runs inside an escape sequence go
/// (the sequence is the run); painted-over and concealed text is split
/// around Unicode runs inside it, so each keeps its own reason and decoding.
fn assemble(escapes: Vec<Run>, painted: Vec<Run>, unicode: Vec<Run>) -> Vec<Run> {
    let mut kept = Vec::with_capacity(unicode.len());
    let mut e = 0;
    for u in unicode {
        while e < escapes.len() && escapes[e].range.end <= u.range.start {
            e += 1;
        }
        if e < escapes.len() && escapes[e].range.start < u.range.end {
            continue;
        }
        kept.push(u);
    }
    let mut split = Vec::with_capacity(painted.len());
    let mut u = 0;
    for p in painted {
        while u < kept.len() && kept[u].range.end <= p.range.start {
            u += 1;
        }
        let mut at = p.range.start;
        let mut k = u;
        while k < kept.len() && kept[k].range.start < p.range.end {
            if kept[k].range.start > at {
                split.push(Run { range: at..kept[k].range.start, ..p.clone() });
            }
            at = at.max(kept[k].range.end);
            k += 1;
        }
        if at < p.range.end {
            split.push(Run { range: at..p.range.end, ..p });
        }
    }
    let mut all: Vec<Run> = escapes.into_iter().chain(split).chain(kept).collect();
    all.sort_by_key(|r| r.range.start);
    let mut out: Vec<Run> = Vec::with_capacity(all.len());
    for r in all {
        if let Some(last) = out.last_mut()
            && last.range.end == r.range.start
            && last.reason == r.reason
            && last.benign == r.benign
            && last.decoded.is_none()
            && r.decoded.is_none()
        {
            last.range.end = r.range.end;
            continue;
        }
        out.push(r);
    }
    out
}

/// Text with smuggled and invisible content removed, for files agents load
/// (CLAUDE.md, AGENTS.md, SKILL.md): every run `find` reports goes; what is
/// legitimate (emoji joiners, Persian ZWNJ, a leading BOM) stays. None when
/// nothing would change.
pub fn clean(text: &str) -> Option<String> {
    let cleaned = strip(text);
    (cleaned != text).then(|| cleaned.into_owned())
}

/// Lines that `clean` changes, as (1-based line, before, after), for a
/// dry run. Invisible characters are shown as escapes.
pub fn changed_lines(before: &str, after: &str) -> Vec<(usize, String, String)> {
    // `clean` only removes characters, so lines can be paired by walking
    // both texts: a removed newline (inside an escape) merges lines, which is
    // shown as one change.
    let old: Vec<&str> = before.split('\n').collect();
    let new: Vec<&str> = after.split('\n').collect();
    let mut out = Vec::new();
    let mut j = 0;
    for (i, line) in old.iter().enumerate() {
        let cleaned_line = strip(line);
        let n = new.get(j).copied().unwrap_or("");
        if cleaned_line == n {
            if *line != n {
                out.push((i + 1, crate::escape::shown(line), crate::escape::shown(n)));
            }
            j += 1;
        } else {
            out.push((i + 1, crate::escape::shown(line), crate::escape::shown(&cleaned_line)));
            if new.get(j).is_some_and(|n| n.starts_with(cleaned_line.as_ref())) {
                j += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The runs a scanner reports (`find` without the benign ones).
    pub(super) fn non_benign(text: &str) -> Vec<Run> {
        find(text).into_iter().filter(|r| !r.benign).collect()
    }

    /// The one run `find` reports for `text`, checked for its reason.
    pub(super) fn only(text: &str, reason: HiddenReason) -> Run {
        let runs = non_benign(text);
        assert_eq!(runs.len(), 1, "{text:?}: {runs:?}");
        assert_eq!(runs[0].reason, reason, "{text:?}: {runs:?}");
        runs[0].clone()
    }

    pub(super) fn clean(text: &str) {
        let runs = find(text);
        assert!(runs.is_empty(), "{text:?} should be left alone: {runs:?}");
        assert_eq!(strip(text), text);
    }

    pub(super) fn benign_only(text: &str) {
        let runs = find(text);
        assert!(runs.iter().all(|r| r.benign), "{text:?}: {runs:?}");
    }

    pub(super) fn tags(s: &str) -> String {
        s.chars().map(|c| char::from_u32(0xE0000 + c as u32).unwrap()).collect()
    }

    pub(super) fn selectors(bytes: &[u8]) -> String {
        bytes
            .iter()
            .map(|&b| {
                if b < 16 { char::from_u32(0xFE00 + u32::from(b)) } else { char::from_u32(0xE0100 + u32::from(b) - 16) }
                    .unwrap()
            })
            .collect()
    }

    pub(super) fn bits(payload: &str, zero: char, one: char) -> String {
        payload.bytes().flat_map(|b| (0..8).rev().map(move |k| if b >> k & 1 == 1 { one } else { zero })).collect()
    }

    // -- vectors ------------------------------------------------------------

    const VECTOR_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/vectors");
    const CHANNELS: [&str; 8] = [
        "unicode-tags",
        "variation-selectors",
        "zero-width",
        "bidi",
        "blank-fillers",
        "whitespace",
        "format-misc",
        "ansi",
    ];

    fn squash(s: &str) -> String {
        s.chars().filter(|c| !c.is_whitespace()).flat_map(char::to_lowercase).collect()
    }

    /// Every text vector of this module's channels: hidden ones give a
    /// reported run (whose decoding holds the payload when a run spells it),
    /// legitimate ones give none.
    #[test]
    fn vectors_of_these_channels_behave() {
        let lines = std::fs::read_to_string(format!("{VECTOR_DIR}/vectors.jsonl")).unwrap();
        let mut checked = 0;
        let mut failures = Vec::new();
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let channel = v["channel"].as_str().unwrap();
            if v["kind"] != "text" || !CHANNELS.contains(&channel) {
                continue;
            }
            let id = v["id"].as_str().unwrap();
            let raw = std::fs::read(format!("{VECTOR_DIR}/files/{}", v["file"].as_str().unwrap())).unwrap();
            let text = String::from_utf8(raw).unwrap();
            let runs = non_benign(&text);
            checked += 1;
            if v["expect_hidden"].as_bool().unwrap() {
                if runs.is_empty() {
                    failures.push(format!("{id}: nothing reported"));
                    continue;
                }
                let payload = v["hidden_payload"].as_str().unwrap_or("");
                let spelled = !payload.is_empty() && !payload.starts_with('(');
                let decodes =
                    matches!(channel, "unicode-tags" | "variation-selectors" | "blank-fillers" | "whitespace")
                        || id.starts_with("zw-binary")
                        || id == "ansi-apc-golden"
                        || id == "ansi-c1-golden"
                        || id == "ansi-osc8-mismatch"
                        || id == "bidi-rlo-filename";
                // Airlock cases hide a split, not a payload: the payload is
                // what is left once the run is stripped.
                let airlock = v["source"].as_str().unwrap_or("").starts_with("airlock");
                if airlock {
                    if !squash(&strip(&text)).contains(&squash(payload)) {
                        failures.push(format!("{id}: strip gives {:?}", strip(&text)));
                    }
                } else if spelled && decodes {
                    let found =
                        runs.iter().any(|r| r.decoded.as_deref().is_some_and(|d| squash(d).contains(&squash(payload))));
                    if !found {
                        failures.push(format!("{id}: no run decodes {payload:?}: {runs:?}"));
                    }
                } else if spelled && channel == "bidi" {
                    // An override's decoding is what a person sees: reversed.
                    let seen: String = payload.chars().rev().collect();
                    let found =
                        runs.iter().any(|r| r.decoded.as_deref().is_some_and(|d| squash(d).contains(&squash(&seen))));
                    if !found {
                        failures.push(format!("{id}: no run decodes {payload:?}: {runs:?}"));
                    }
                } else if spelled {
                    // The payload is the hidden text itself.
                    let found = runs.iter().any(|r| {
                        squash(&text[r.range.clone()]).contains(&squash(payload))
                            || r.decoded.as_deref().is_some_and(|d| squash(d).contains(&squash(payload)))
                    });
                    if !found {
                        failures.push(format!("{id}: no run holds {payload:?}: {runs:?}"));
                    }
                }
            } else if !runs.is_empty() {
                failures.push(format!("{id}: legitimate text reported: {runs:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert_eq!(checked, 37, "vectors of these channels");
    }

    /// The other modules' legitimate inputs carry nothing this module reports.
    #[test]
    fn other_benign_vectors_report_nothing() {
        let lines = std::fs::read_to_string(format!("{VECTOR_DIR}/vectors.jsonl")).unwrap();
        for line in lines.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            if v["expect_hidden"].as_bool().unwrap() {
                continue;
            }
            let raw = std::fs::read(format!("{VECTOR_DIR}/files/{}", v["file"].as_str().unwrap())).unwrap();
            let text = String::from_utf8_lossy(&raw);
            assert!(non_benign(&text).is_empty(), "{}: {:?}", v["id"], non_benign(&text));
        }
    }

    /// The eight-bytes-at-a-time scan finds every byte that needs a look,
    /// wherever it sits in a word.
    #[test]
    fn fast_scan_misses_nothing() {
        for b in 0..=255u8 {
            for at in 0..24 {
                let mut buf = vec![b'a'; 24];
                buf[at] = b;
                let expect = (at..24).find(|&k| is_interesting(buf[k]));
                assert_eq!(next_interesting(&buf, 0), expect, "byte {b:#04x} at {at}");
                assert_eq!(next_interesting(&buf, at), expect, "byte {b:#04x} from {at}");
            }
        }
    }

    #[test]
    fn unicode_inside_an_escape_is_part_of_it() {
        let runs = find("a\u{1b}]0;x\u{200B}y\u{07}b");
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs[0].reason, HiddenReason::Escape);
    }

    #[test]
    fn unicode_runs_inside_concealed_text_keep_their_own_reason() {
        let text = format!("\u{1b}[8mab{}cd\u{1b}[0m", tags("hi"));
        let reasons: Vec<HiddenReason> = non_benign(&text).iter().map(|r| r.reason).collect();
        assert_eq!(
            reasons,
            [HiddenReason::Escape, HiddenReason::Concealed, HiddenReason::TagCharacters, HiddenReason::Concealed]
        );
    }

    // -- legitimate text at large ------------------------------------------

    #[test]
    fn everyday_text_in_many_scripts_is_left_alone() {
        for text in [
            "\u{0645}\u{06CC}\u{200C}\u{0631}\u{0648}\u{0645} \u{0628}\u{0647} \u{062E}\u{0627}\u{0646}\u{0647}\u{200C}\u{0627}\u{0645}.",
            "\u{0928}\u{092E}\u{0938}\u{094D}\u{200C}\u{0924}\u{0947} \u{0915}\u{094D}\u{200D}\u{0937}\u{0924}\u{094D}\u{0930}\u{093F}\u{092F}",
            "\u{1F441}\u{FE0F}\u{200D}\u{1F5E8}\u{FE0F} \u{1F9D1}\u{200D}\u{1F91D}\u{200D}\u{1F9D1} \u{1F468}\u{1F3FB}\u{200D}\u{1F9B0} 1\u{FE0F}\u{20E3}",
            "\u{05D4}\u{05B7}\u{05E9}\u{05BC}\u{05C1}\u{05B8}\u{05DC}\u{05D5}\u{05B9}\u{05DD}\u{200F} (\u{05E9}\u{05B8}\u{05DC}\u{05D5}\u{05B9}\u{05DD})",
            "\u{65E5}\u{672C}\u{8A9E}\u{3000}\u{FF08}\u{FF11}\u{FF12}\u{FF09}\u{3001}\u{6F22}\u{5B57}\u{E0100}",
            "\u{00A0}\u{00A0}indent 5\u{202F}%, 10\u{00A0}kg",
            "Caf\u{E9} na\u{EF}ve \u{00C5}ngstr\u{00F6}m \u{0394}\u{03B5}\u{03BB}\u{03C4}\u{03B1} \u{041C}\u{043E}\u{0441}\u{043A}\u{0432}\u{0430}",
        ] {
            clean(text);
        }
    }

    #[test]
    fn everyday_tool_output_is_benign() {
        for text in [
            "Mr.\u{2060} Smith \u{2014}\u{2060}quoted\u{2060}\u{2014} https://example.com/\u{200B}long/\u{200B}path",
            "\u{1b}[0m\u{1b}[01;34mdir\u{1b}[0m  \u{1b}[01;32mrun.sh\u{1b}[0m\n",
            "\u{1b}[1m\u{1b}[92m   Compiling\u{1b}[0m inertbox v0.3.0\n",
            "\u{1b}[31m-old line\u{1b}[m\n\u{1b}[32m+new line\u{1b}[m\n",
            "\u{1b}]133;A\u{7}$ \u{1b}]133;B\u{7}ls\n\u{1b}]133;C\u{7}a b\n\u{1b}]133;D;0\u{7}",
            "Receiving objects:  50% (5/10)\rReceiving objects: 100% (10/10), done.\n",
            "\u{1b}[?2004h$ make\r\n\u{1b}[?2004l\r",
            "\u{1b}]1337;CurrentDir=/Users/sam/site\u{7}\u{1b}]1337;SetUserVar=gitBranch=bWFpbg==\u{7}$ ls\n",
            "\u{1b}]1337;RemoteHost=sam@build-07\u{7}\u{1b}]1337;ShellIntegrationVersion=14;shell=zsh\u{7}",
        ] {
            benign_only(text);
        }
        // iTerm2's other commands act (a download, the clipboard): read as
        // any OSC is.
        for text in ["\u{1b}]1337;File=name=eC5zaA==;size=9:ZWNobyBoaQo=\u{7}", "\u{1b}]1337;Copy=:aGVsbG8=\u{7}"] {
            assert!(find(text).iter().any(|r| !r.benign), "{text:?}");
        }
    }

    // -- strip -----------------------------------------------------------------

    #[test]
    fn strip_leaves_plain_text_alone() {
        for s in ["", "hello", "tab\tand\nnewline\x0b\x0c", "crlf\r\n", "caf\u{E9} \u{1F600} \u{65E5}\u{672C}"] {
            assert_eq!(strip(s), s);
            assert!(find(s).is_empty());
        }
    }

    fn well_formed(text: &str) {
        let runs = find(text);
        let mut at = 0;
        for r in &runs {
            assert!(
                r.range.start >= at && r.range.start < r.range.end && r.range.end <= text.len(),
                "{text:?}: {runs:?}"
            );
            assert!(text.is_char_boundary(r.range.start) && text.is_char_boundary(r.range.end), "{text:?}: {runs:?}");
            at = r.range.end;
        }
        let once = strip(text);
        assert_eq!(strip(&once), once, "{text:?}");
    }

    const ALPHABET: &[char] = &[
        'a',
        'b',
        ' ',
        '\n',
        '\r',
        '\t',
        '\u{8}',
        '\u{1b}',
        '[',
        ']',
        '\\',
        ';',
        '0',
        '1',
        '2',
        '8',
        'm',
        'K',
        'A',
        'J',
        'H',
        'P',
        '_',
        '?',
        'h',
        'l',
        '\u{7}',
        '\u{0}',
        '\u{9b}',
        '\u{9c}',
        '\u{9d}',
        '\u{85}',
        '\u{AD}',
        '\u{200B}',
        '\u{200C}',
        '\u{200D}',
        '\u{2060}',
        '\u{FEFF}',
        '\u{200E}',
        '\u{200F}',
        '\u{202E}',
        '\u{202C}',
        '\u{2066}',
        '\u{2069}',
        '\u{FE0F}',
        '\u{FE00}',
        '\u{E0100}',
        '\u{E0068}',
        '\u{E007F}',
        '\u{1F3F4}',
        '\u{1F600}',
        '\u{2764}',
        '\u{0628}',
        '\u{05D0}',
        '\u{0D4D}',
        '\u{65E5}',
        '\u{3000}',
        '\u{3164}',
        '\u{115F}',
        '\u{2800}',
        '\u{2003}',
        '\u{1680}',
        '\u{FFF9}',
        '\u{FFFA}',
        '\u{FFFB}',
        '\u{2062}',
        '\u{1BCA0}',
        '\u{0301}',
        '\u{034F}',
    ];

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn any_string_gives_well_formed_runs(s in any::<String>()) {
            well_formed(&s);
        }

        #[test]
        fn tricky_strings_give_well_formed_runs(chars in prop::collection::vec(prop::sample::select(ALPHABET), 0..48)) {
            let s: String = chars.into_iter().collect();
            well_formed(&s);
        }

        #[test]
        fn plain_ascii_is_untouched(s in "[ -~\t\n]{0,200}") {
            prop_assert!(find(&s).is_empty());
            prop_assert_eq!(strip(&s), s.as_str());
        }
    }

    /// Many more random strings from the tricky alphabet than the proptests
    /// run (100,000; about 2 s in a debug build).
    #[test]
    fn soak() {
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..100_000 {
            let len = (next() % 40) as usize;
            let s: String = (0..len).map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize]).collect();
            well_formed(&s);
        }
    }
}
