//! Streaming passes both sides share: UTF-8 validation that hands on whole
//! characters, and the longest backtick run, a word at a time.

use super::{HIGH_BITS, LOW_BITS};

/// One bit per byte of `w` that equals `b` (bit i for byte i, little-endian),
/// exact for every byte: the high-bit trick avoids borrows between lanes.
#[inline]
fn byte_mask(w: u64, b: u8) -> u8 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = w ^ (LOW_BITS * b as u64);
    let t = ((x & LOW7) + LOW7) | x;
    let eq = !t & HIGH_BITS;
    // Gather bit 7 of each byte into one byte.
    ((eq >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u8
}

/// Streaming UTF-8 validation that hands on whole characters.
#[derive(Debug, Default, Clone)]
pub(crate) struct Utf8Stream {
    carry: [u8; 4],
    carry_len: usize,
    /// Bytes consumed so far (for the offset of the first bad byte).
    seen: u64,
    bad_at: Option<u64>,
}

impl Utf8Stream {
    /// Validate `data`; pass each valid run of whole characters to `sink`.
    /// After the first invalid byte nothing more is passed on.
    pub(crate) fn feed(&mut self, mut data: &[u8], mut sink: impl FnMut(&[u8])) {
        if self.bad_at.is_some() {
            return;
        }
        let start = self.seen;
        self.seen += data.len() as u64;
        let mut base = start;
        if self.carry_len > 0 {
            let need = utf8_len(self.carry[0]);
            let take = (need - self.carry_len).min(data.len());
            self.carry[self.carry_len..self.carry_len + take].copy_from_slice(&data[..take]);
            self.carry_len += take;
            data = &data[take..];
            base += take as u64;
            if self.carry_len < need {
                return;
            }
            let seq = self.carry;
            let seq = &seq[..need];
            self.carry_len = 0;
            match simdutf8::compat::from_utf8(seq) {
                Ok(_) => sink(seq),
                Err(_) => {
                    self.bad_at = Some(base - take as u64 - (need - take) as u64);
                    return;
                }
            }
        }
        // simdutf8 checks 32 or 64 bytes a step (std's `from_utf8` goes
        // a character at a time through text that is not ASCII).
        match simdutf8::compat::from_utf8(data) {
            Ok(_) => sink(data),
            Err(e) => {
                let valid = e.valid_up_to();
                sink(&data[..valid]);
                if e.error_len().is_some() {
                    self.bad_at = Some(base + valid as u64);
                } else {
                    let rest = &data[valid..];
                    self.carry[..rest.len()].copy_from_slice(rest);
                    self.carry_len = rest.len();
                }
            }
        }
    }

    /// Offset of the first invalid byte, counting a truncated final sequence.
    pub(crate) fn finish(&self) -> Option<u64> {
        self.bad_at.or_else(|| (self.carry_len > 0).then(|| self.seen - self.carry_len as u64))
    }
}

/// Length of the UTF-8 sequence a lead byte starts (1 for anything invalid,
/// which `from_utf8` then rejects).
fn utf8_len(lead: u8) -> usize {
    match lead {
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        0xF0..=0xF7 => 4,
        _ => 1,
    }
}

/// The longest run of backticks, across chunk boundaries.
#[derive(Debug, Default, Clone)]
pub(crate) struct BacktickRuns {
    pub(super) cur: u64,
    pub(super) max: u64,
}

impl BacktickRuns {
    /// Word at a time: most words of text hold no backtick at all, and a
    /// word that does is read as an 8-bit mask of its backticks.
    pub(crate) fn feed(&mut self, d: &[u8]) {
        let (mut cur, mut max) = (self.cur, self.max);
        let mut words = d.chunks_exact(8);
        for chunk in &mut words {
            let w = u64::from_le_bytes(chunk.try_into().expect("8 bytes"));
            let m = byte_mask(w, b'`');
            if m == 0 {
                max = max.max(cur);
                cur = 0;
            } else if m == 0xFF {
                cur += 8;
            } else {
                // Low bits are the earlier bytes.
                let lead = m.trailing_ones() as u64;
                let mut x = m;
                let mut inner = 0;
                while x != 0 {
                    x &= x << 1;
                    inner += 1;
                }
                max = max.max(cur + lead).max(inner);
                cur = m.leading_ones() as u64;
            }
        }
        for &b in words.remainder() {
            if b == b'`' {
                cur += 1;
            } else {
                max = max.max(cur);
                cur = 0;
            }
        }
        (self.cur, self.max) = (cur, max);
    }

    pub(crate) fn longest(&self) -> u64 {
        self.max.max(self.cur)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_mask_marks_exactly_the_backticks() {
        for w in [*b"a`b``c`d", *b"````````", *b"\xe0`\x60\x61\x5f`\xff`", *b"abcdefgh"] {
            let want = w.iter().enumerate().fold(0u8, |m, (i, &c)| m | (u8::from(c == b'`') << i));
            assert_eq!(byte_mask(u64::from_le_bytes(w), b'`'), want, "{w:?}");
        }
    }

    #[test]
    fn runs_match_a_plain_count_in_any_chunking() {
        let text = b"a`b``c```d````e`````f``````````````g ` `` x```````````````````";
        let plain = |t: &[u8]| t.split(|&b| b != b'`').map(<[u8]>::len).max().unwrap_or(0) as u64;
        for split in 0..text.len() {
            let mut r = BacktickRuns::default();
            r.feed(&text[..split]);
            r.feed(&text[split..]);
            assert_eq!(r.longest(), plain(text), "split {split}");
        }
    }

    #[test]
    fn utf8_stream_reports_first_bad_offset() {
        let mut u = Utf8Stream::default();
        u.feed(b"ab\xE2\x82", |_| {});
        assert_eq!(u.finish(), Some(2), "truncated sequence at the end");
        u.feed(b"\xAC ok", |_| {});
        assert_eq!(u.finish(), None);
        u.feed(b"x\xFFy", |_| {});
        assert_eq!(u.finish(), Some(9));
        let mut u = Utf8Stream::default();
        u.feed(b"\xE2", |_| {});
        u.feed(b"\x28\xA1", |_| {});
        assert_eq!(u.finish(), Some(0));
    }

    #[test]
    fn backtick_runs_cross_chunks() {
        let mut r = BacktickRuns::default();
        r.feed(b"a``");
        r.feed(b"``b`");
        r.feed(b"`");
        assert_eq!(r.longest(), 4);
        let mut r = BacktickRuns::default();
        r.feed(b"no ticks");
        assert_eq!(r.longest(), 0);
    }
}
