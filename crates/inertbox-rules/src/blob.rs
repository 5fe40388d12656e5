//! The blob of build-time automata: the build script writes it (`Writer`),
//! the library finds a pattern's entry in it (`entry`) and rebuilds the
//! NFAs (`Reader`). Both halves are here, so the layout is written down
//! once.
//!
//! Layout: a magic, a little-endian u32 entry count, one 16-byte index
//! entry per pattern (u64 FNV-1a of the pattern as compiled, u32 start and
//! u32 end of its data), then the data: per pattern its forward NFA, then
//! its reverse one. An NFA is a header (varints: state count, anchored,
//! unanchored and pattern start; one flags byte) and its states, each a tag
//! byte and its fields (state ids as zig-zag varint distances from the
//! state that names them: most point to a near neighbour, so one byte).
//! The format is private to inertbox: a reader and a writer of another
//! version never meet (the blob is made by the same build).

use regex_automata::nfa::thompson::{Builder, NFA, State, Transition};
use regex_automata::util::look::Look;
use regex_automata::util::primitives::{PatternID, StateID};

const MAGIC: &[u8; 8] = b"IBXNFA01";
const ENTRY: usize = 16;

/// NFA header flags.
const REVERSE: u8 = 1;
const UTF8: u8 = 2;

/// State tags.
const BYTE_RANGE: u8 = 0;
const SPARSE: u8 = 1;
const LOOK: u8 = 2;
const UNION: u8 = 3;
const CAPTURE_START: u8 = 4;
const FAIL: u8 = 5;
const MATCH: u8 = 6;
const CAPTURE_END: u8 = 7;

/// The key an entry is found by.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// A blob being written: entries in the order they are added.
#[derive(Default)]
pub struct Writer {
    count: u32,
    index: Vec<u8>,
    data: Vec<u8>,
}

impl Writer {
    /// The entry for `pattern` (the text the library will look it up by):
    /// its forward NFA and its reverse one.
    pub fn add(&mut self, pattern: &str, forward: &NFA, reverse: &NFA) {
        let start = self.data.len();
        encode(forward, &mut self.data);
        encode(reverse, &mut self.data);
        let at = |n: usize| u32::try_from(n).expect("the blob is under 4 GiB").to_le_bytes();
        self.index.extend_from_slice(&fnv1a(pattern.as_bytes()).to_le_bytes());
        self.index.extend_from_slice(&at(start));
        self.index.extend_from_slice(&at(self.data.len()));
        self.count += 1;
    }

    /// The blob's bytes.
    pub fn finish(self) -> Vec<u8> {
        let mut out = Vec::with_capacity(MAGIC.len() + 4 + self.index.len() + self.data.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.count.to_le_bytes());
        out.extend_from_slice(&self.index);
        out.extend_from_slice(&self.data);
        out
    }
}

/// The entry made from `pattern`, if any: its number (entries are numbered
/// in the order they were added) and its data, which a `Reader` reads as
/// the forward NFA and then the reverse one.
pub fn entry<'b>(blob: &'b [u8], pattern: &str) -> Option<(usize, &'b [u8])> {
    let rest = blob.strip_prefix(MAGIC)?;
    let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    let (index, data) = rest.get(4..)?.split_at_checked(count.checked_mul(ENTRY)?)?;
    let hash = fnv1a(pattern.as_bytes()).to_le_bytes();
    let (i, e) = index.chunks_exact(ENTRY).enumerate().find(|(_, e)| e[..8] == hash)?;
    let start = u32::from_le_bytes(e[8..12].try_into().ok()?) as usize;
    let end = u32::from_le_bytes(e[12..16].try_into().ok()?) as usize;
    Some((i, data.get(start..end)?))
}

fn varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// A state id as its distance from the state that names it.
fn target(out: &mut Vec<u8>, from: usize, to: usize) {
    let d = to as i64 - from as i64;
    varint(out, ((d << 1) ^ (d >> 63)) as u64);
}

/// One NFA (of one pattern), as `Reader::nfa` reads it.
fn encode(nfa: &NFA, out: &mut Vec<u8>) {
    varint(out, nfa.states().len() as u64);
    varint(out, nfa.start_anchored().as_usize() as u64);
    varint(out, nfa.start_unanchored().as_usize() as u64);
    varint(out, nfa.start_pattern(PatternID::ZERO).expect("one pattern").as_usize() as u64);
    out.push(if nfa.is_reverse() { REVERSE } else { 0 } | if nfa.is_utf8() { UTF8 } else { 0 });
    for (i, s) in nfa.states().iter().enumerate() {
        match s {
            State::ByteRange { trans } => {
                out.extend_from_slice(&[BYTE_RANGE, trans.start, trans.end]);
                target(out, i, trans.next.as_usize());
            }
            State::Sparse(sparse) => {
                out.push(SPARSE);
                varint(out, sparse.transitions.len() as u64);
                for t in sparse.transitions.iter() {
                    out.extend_from_slice(&[t.start, t.end]);
                    target(out, i, t.next.as_usize());
                }
            }
            State::Look { look, next } => {
                out.push(LOOK);
                varint(out, u64::from(look.as_repr()));
                target(out, i, next.as_usize());
            }
            State::Union { alternates } => {
                out.push(UNION);
                varint(out, alternates.len() as u64);
                for a in alternates.iter() {
                    target(out, i, a.as_usize());
                }
            }
            State::BinaryUnion { alt1, alt2 } => {
                out.push(UNION);
                varint(out, 2);
                target(out, i, alt1.as_usize());
                target(out, i, alt2.as_usize());
            }
            State::Capture { next, group_index, slot, .. } => {
                // Even slots open a group, odd ones close it.
                out.push(if slot.as_usize() % 2 == 0 { CAPTURE_START } else { CAPTURE_END });
                varint(out, group_index.as_usize() as u64);
                target(out, i, next.as_usize());
            }
            State::Fail => out.push(FAIL),
            State::Match { .. } => out.push(MATCH),
            State::Dense(_) => panic!("a Thompson NFA from the compiler never holds dense states"),
        }
    }
}

/// Reads NFAs as `encode` writes them, one after another.
pub struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(b: &'a [u8]) -> Reader<'a> {
        Reader { b, at: 0 }
    }

    /// The bytes not read yet.
    pub fn rest(&self) -> &'a [u8] {
        &self.b[self.at..]
    }

    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }

    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.varint()?).ok()
    }

    fn id(&mut self) -> Option<StateID> {
        StateID::new(self.usize()?).ok()
    }

    /// A state id written as a distance from state `from`.
    fn target(&mut self, from: usize) -> Option<StateID> {
        let z = self.varint()?;
        let d = (z >> 1) as i64 ^ -((z & 1) as i64);
        StateID::new(usize::try_from(i64::try_from(from).ok()? + d).ok()?).ok()
    }

    fn transition(&mut self, from: usize) -> Option<Transition> {
        let start = self.byte()?;
        let end = self.byte()?;
        Some(Transition { start, end, next: self.target(from)? })
    }

    /// The next NFA, its states added to a builder in their original
    /// order, so every state keeps its id. None when the bytes are not an
    /// NFA `encode` wrote.
    pub fn nfa(&mut self) -> Option<NFA> {
        let states = self.usize()?;
        let anchored = self.id()?;
        let unanchored = self.id()?;
        let pattern_start = self.id()?;
        let flags = self.byte()?;
        let mut b = Builder::new();
        b.set_reverse(flags & REVERSE != 0);
        b.set_utf8(flags & UTF8 != 0);
        b.start_pattern().ok()?;
        for i in 0..states {
            let added = match self.byte()? {
                BYTE_RANGE => {
                    let t = self.transition(i)?;
                    b.add_range(t)
                }
                SPARSE => {
                    let n = self.usize()?;
                    let ts = (0..n).map(|_| self.transition(i)).collect::<Option<Vec<_>>>()?;
                    b.add_sparse(ts)
                }
                LOOK => {
                    let look = Look::from_repr(u32::try_from(self.varint()?).ok()?)?;
                    let next = self.target(i)?;
                    b.add_look(next, look)
                }
                UNION => {
                    let n = self.usize()?;
                    let alts = (0..n).map(|_| self.target(i)).collect::<Option<Vec<_>>>()?;
                    b.add_union(alts)
                }
                CAPTURE_START => {
                    let group = u32::try_from(self.varint()?).ok()?;
                    let next = self.target(i)?;
                    b.add_capture_start(next, group, None)
                }
                CAPTURE_END => {
                    let group = u32::try_from(self.varint()?).ok()?;
                    let next = self.target(i)?;
                    b.add_capture_end(next, group)
                }
                FAIL => b.add_fail(),
                MATCH => b.add_match(),
                _ => return None,
            }
            .ok()?;
            if added.as_usize() != i {
                return None;
            }
        }
        b.finish_pattern(pattern_start).ok()?;
        b.build(anchored, unanchored).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use regex_automata::nfa::thompson::{self, WhichCaptures};

    fn compile(pattern: &str, reverse: bool) -> NFA {
        let captures = if reverse { WhichCaptures::None } else { WhichCaptures::All };
        thompson::Compiler::new()
            .configure(thompson::Config::new().reverse(reverse).which_captures(captures))
            .build(pattern)
            .unwrap()
    }

    #[test]
    fn entries_read_back_as_the_nfas_written() {
        let patterns = [r"(?-u:\b)ab+c", r"x(y|z)*\s", "é{2,3}|日本", r"(?m)^\[([^\]\n]+)\]:\s*"];
        let mut w = Writer::default();
        for p in patterns {
            w.add(p, &compile(p, false), &compile(p, true));
        }
        let blob = w.finish();
        for (n, p) in patterns.iter().enumerate() {
            let (i, data) = entry(&blob, p).expect("an entry for each pattern");
            assert_eq!(i, n);
            let mut r = Reader::new(data);
            for reverse in [false, true] {
                let (want, got) = (compile(p, reverse), r.nfa().expect("an NFA"));
                assert_eq!(got.states(), want.states(), "{p}");
                assert_eq!(
                    (got.start_anchored(), got.start_unanchored(), got.is_reverse(), got.is_utf8()),
                    (want.start_anchored(), want.start_unanchored(), want.is_reverse(), want.is_utf8()),
                    "{p}"
                );
            }
            assert!(r.rest().is_empty());
        }
        assert!(entry(&blob, "not in it").is_none());
        assert!(entry(&blob[..20], patterns[0]).is_none(), "a cut index is no entry");
        assert!(Reader::new(&[1, 0, 0, 0, 0, 9]).nfa().is_none(), "an unknown tag is no NFA");
    }
}
