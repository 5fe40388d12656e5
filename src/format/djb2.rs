//! The anchor tag's hash: djb2 over the UTF-16 code units of the text, as
//! the reference computes it with JavaScript's `charCodeAt`.
//!
//! Three ways to the same number. Where the CPU has AVX2 (x86-64 since
//! 2013–2015), 32 bytes at a time, whatever the script: each byte is one
//! step of a recurrence over bytes ([`byte_step`]), and a block of steps is
//! a sum of terms times powers of 33. Elsewhere, a character at a time, or
//! eight ASCII bytes at a time, in two chains. The vector path is the one
//! place this crate uses `unsafe`: text that changes script every few
//! characters cost the character path about 2 ns a byte, four times the
//! SHA-256 beside it, and the vector path 0.5 ns whatever the text
//! (docs/performance.md#real-text).

use super::{BOM, HIGH_BITS};

/// djb2's starting value.
pub(super) const DJB2_SEED: u32 = 5381;

/// djb2 over the UTF-16 code units of the text, as JavaScript's
/// `charCodeAt` sees it: h = h * 33 + unit, modulo 2^32.
#[derive(Debug, Clone)]
pub(super) struct Djb2 {
    pub(super) h: u32,
    /// The reference decodes with a BOM-stripping decoder, so a leading
    /// U+FEFF is not part of the text it hashes into the tag.
    at_start: bool,
}

/// 33^4 and 33^8 modulo 2^32, for folding eight ASCII bytes at once.
const POW33_2: u64 = 33 * 33;
const POW33_4: u32 = 33 * 33 * 33 * 33;
const POW33_8: u32 = POW33_4.wrapping_mul(POW33_4);

/// c0*33^7 + c1*33^6 + … + c7 (mod 2^32) for eight ASCII bytes, c0 first,
/// in three multiplies: pairs in 16-bit lanes, quads in 32-bit lanes, then
/// the two quads. No lane overflows: a pair is at most 127*33+127 and a quad
/// at most 4318*1089+4318.
#[inline]
fn fold8(w: u64) -> u32 {
    const M16: u64 = 0x00FF_00FF_00FF_00FF;
    const M32: u64 = 0x0000_FFFF_0000_FFFF;
    let pairs = (w & M16) * 33 + ((w >> 8) & M16);
    let quads = (pairs & M32) * POW33_2 + ((pairs >> 16) & M32);
    (quads as u32).wrapping_mul(POW33_4).wrapping_add((quads >> 32) as u32)
}

impl Djb2 {
    pub(super) fn new() -> Self {
        Djb2 { h: DJB2_SEED, at_start: true }
    }

    /// Feed whole, valid UTF-8 characters.
    pub(super) fn feed(&mut self, mut s: &[u8]) {
        if self.at_start && !s.is_empty() {
            if s.starts_with(BOM) {
                s = &s[BOM.len()..];
            }
            self.at_start = false;
        }
        self.h = hash(self.h, s);
    }
}

/// djb2 of whole characters from `h`, by the fastest path this CPU has.
fn hash(h: u32, s: &[u8]) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if s.len() >= avx2::MIN_LEN && std::arch::is_x86_feature_detected!("avx2") {
        return avx2::hash(h, s);
    }
    hash_chars(h, s)
}

/// A character at a time (eight ASCII bytes at a time where it can).
fn hash_chars(h: u32, s: &[u8]) -> u32 {
    if s.len() < TWO_LANES_MIN {
        return djb2_run(h, s, 0, &mut 0);
    }
    // Two halves hashed side by side, the second from zero, then joined:
    // djb2 is a polynomial in 33, so h(a ++ b) = h(a) * 33^units(b) + h0(b).
    // Two independent chains keep the core busy where one waits on the
    // last character's multiply and decode.
    let mut mid = s.len() / 2;
    while mid < s.len() && s[mid] & 0xC0 == 0x80 {
        mid += 1;
    }
    let (a, b) = s.split_at(mid);
    let (mut ha, mut hb, mut ia, mut ib, mut units_a, mut units_b) = (h, 0u32, 0, 0, 0u64, 0u64);
    while ia + 8 <= a.len() && ib + 8 <= b.len() {
        (ha, ia) = djb2_step(ha, a, ia, &mut units_a);
        (hb, ib) = djb2_step(hb, b, ib, &mut units_b);
    }
    let ha = djb2_run(ha, a, ia, &mut units_a);
    let hb = djb2_run(hb, b, ib, &mut units_b);
    ha.wrapping_mul(pow33(units_b)).wrapping_add(hb)
}

/// Below this many bytes a chunk is hashed in one chain.
const TWO_LANES_MIN: usize = 4096;

/// 33^e modulo 2^32.
fn pow33(mut e: u64) -> u32 {
    let (mut base, mut out) = (33u32, 1u32);
    while e > 0 {
        if e & 1 == 1 {
            out = out.wrapping_mul(base);
        }
        base = base.wrapping_mul(base);
        e >>= 1;
    }
    out
}

/// One step of djb2 at `s[i..]`, which holds at least eight bytes: eight
/// ASCII bytes at once, else one character. Returns the new hash and
/// position; `units` counts the UTF-16 units hashed.
#[inline(always)]
fn djb2_step(h: u32, s: &[u8], i: usize, units: &mut u64) -> (u32, usize) {
    let w = u64::from_le_bytes(s[i..i + 8].try_into().expect("8 bytes"));
    if w & HIGH_BITS == 0 {
        // The folded sum does not depend on h, so the serial chain is one
        // multiply per eight bytes.
        *units += 8;
        return (h.wrapping_mul(POW33_8).wrapping_add(fold8(w)), i + 8);
    }
    let (cp, len) = decode_utf8_branchless(s[i..i + 4].try_into().expect("4 bytes"));
    (djb2_char(h, cp, units), i + len)
}

/// Hash one character's UTF-16 units (a surrogate pair above U+FFFF).
#[inline(always)]
fn djb2_char(h: u32, cp: u32, units: &mut u64) -> u32 {
    if cp >= 0x1_0000 {
        let c = cp - 0x1_0000;
        *units += 2;
        let h = h.wrapping_mul(33).wrapping_add(0xD800 + (c >> 10));
        h.wrapping_mul(33).wrapping_add(0xDC00 + (c & 0x3FF))
    } else {
        *units += 1;
        h.wrapping_mul(33).wrapping_add(cp)
    }
}

/// djb2 over `s[i..]` (whole characters) from `h`.
fn djb2_run(mut h: u32, s: &[u8], mut i: usize, units: &mut u64) -> u32 {
    while i + 8 <= s.len() {
        (h, i) = djb2_step(h, s, i, units);
    }
    while i < s.len() {
        let (cp, len) = decode_utf8(&s[i..]);
        h = djb2_char(h, cp, units);
        i += len;
    }
    h
}

/// Decode the character that starts four bytes of valid UTF-8 (the bytes
/// after it are ignored), without a branch on its length: text that mixes
/// scripts changes lengths too often for a branch to be predicted.
#[inline]
fn decode_utf8_branchless(b: [u8; 4]) -> (u32, usize) {
    // By the lead byte's high nibble (a continuation byte never leads).
    const LEN: [u8; 16] = [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 3, 4];
    const LEAD_MASK: [u32; 5] = [0, 0x7F, 0x1F, 0x0F, 0x07];
    let len = LEN[usize::from(b[0] >> 4)] as usize;
    let lead_mask = LEAD_MASK[len];
    let bits = ((b[0] as u32 & lead_mask) << 18)
        | ((b[1] as u32 & 0x3F) << 12)
        | ((b[2] as u32 & 0x3F) << 6)
        | (b[3] as u32 & 0x3F);
    (bits >> (6 * (4 - len)), len)
}

/// Decode one character from bytes already known to be valid UTF-8.
fn decode_utf8(s: &[u8]) -> (u32, usize) {
    let b0 = s[0] as u32;
    if b0 < 0x80 {
        (b0, 1)
    } else if b0 < 0xE0 {
        (((b0 & 0x1F) << 6) | (s[1] as u32 & 0x3F), 2)
    } else if b0 < 0xF0 {
        (((b0 & 0x0F) << 12) | ((s[1] as u32 & 0x3F) << 6) | (s[2] as u32 & 0x3F), 3)
    } else {
        (((b0 & 0x07) << 18) | ((s[1] as u32 & 0x3F) << 12) | ((s[2] as u32 & 0x3F) << 6) | (s[3] as u32 & 0x3F), 4)
    }
}

// ---------------------------------------------------------------------------
// The recurrence over bytes that the vector path computes.
//
// Each byte of valid UTF-8 is one step `h = h * 33^e + c`: `e` is 1 where a
// UTF-16 unit starts and 0 where the byte only adds bits to the unit in
// progress, and `c` is the byte's bits at their place in that unit. A
// character below U+10000 is one unit: its lead byte starts it, each
// continuation byte adds six bits. Above, the reference hashes a surrogate
// pair: the lead byte starts the high surrogate (0xD800 + (cp - 0x10000) >> 10,
// so it adds 0xD7C0 and its three bits), the first continuation adds its six
// bits two places up, and the second starts the low surrogate (0xDC00 + the
// low ten bits) after adding its top two bits to the high one, so its term
// is those two bits times 33 plus its low four bits six places up. What a
// byte is depends on it and on the two bytes before it.

/// A byte's class by its high nibble: 0 ASCII, 1 continuation, 2–4 the
/// lead of a character of that many bytes.
const KIND: [u8; 16] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 4];
/// A continuation byte's class by the previous byte's kind: the first
/// continuation of a character of 2, 3 or 4 bytes.
const AFTER_LEAD: [u8; 16] = [0, 0, 5, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// By the kind of the byte two back, when the previous one continues too:
/// the second continuation of a character of 3 or 4 bytes, or the third
/// of 4 (two back is a continuation).
const AFTER_TWO: [u8; 16] = [0, 10, 0, 8, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
/// Per class (0 ASCII, 2–4 leads, 5–10 continuations as above): the bits
/// the byte gives, the power of two they move up by (low and high byte),
/// the constant it adds (low and high byte), and whether it starts a unit.
const BITS: [u8; 16] = [0x7F, 0, 0x1F, 0x0F, 0x07, 0x3F, 0x3F, 0x3F, 0x3F, 0x0F, 0x3F, 0, 0, 0, 0, 0];
const SHIFT_LO: [u8; 16] = [1, 0, 64, 0, 0, 1, 64, 4, 1, 64, 1, 0, 0, 0, 0, 0];
const SHIFT_HI: [u8; 16] = [0, 0, 0, 0x10, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const ADD_LO: [u8; 16] = [0, 0, 0, 0, 0xC0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const ADD_HI: [u8; 16] = [0, 0, 0, 0, 0xD7, 0, 0, 0, 0, 0xDC, 0, 0, 0, 0, 0, 0];
const STARTS: [u8; 16] = [0xFF, 0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0];
/// The class of a four-byte character's second continuation.
const LOW_SURROGATE: u8 = 9;
/// Its top two bits times 33 (they end the high surrogate), by high nibble.
const TOP_TWO: [u8; 16] = [0, 33, 66, 99, 0, 33, 66, 99, 0, 33, 66, 99, 0, 33, 66, 99];

fn class(b: u8, back1: u8, back2: u8) -> usize {
    let kind = KIND[usize::from(b >> 4)];
    if kind != 1 {
        return usize::from(kind);
    }
    let kind1 = KIND[usize::from(back1 >> 4)];
    if kind1 != 1 {
        return usize::from(AFTER_LEAD[usize::from(kind1)]);
    }
    usize::from(AFTER_TWO[usize::from(KIND[usize::from(back2 >> 4)])])
}

/// One byte of the recurrence; `back1` and `back2` are the bytes before it
/// (anything ASCII before the text's start).
fn byte_step(h: u32, b: u8, back1: u8, back2: u8) -> u32 {
    let k = class(b, back1, back2);
    let shift = u32::from(SHIFT_LO[k]) | u32::from(SHIFT_HI[k]) << 8;
    let mut c = u32::from(b & BITS[k]) * shift + (u32::from(ADD_LO[k]) | u32::from(ADD_HI[k]) << 8);
    if k == usize::from(LOW_SURROGATE) {
        c += u32::from(TOP_TWO[usize::from(b >> 4)]);
    }
    if STARTS[k] != 0 { h.wrapping_mul(33).wrapping_add(c) } else { h.wrapping_add(c) }
}

/// `s[from..]` by the recurrence; `s[..from]` gives the bytes before.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
fn bytes_from(mut h: u32, s: &[u8], from: usize) -> u32 {
    for i in from..s.len() {
        let back = |n: usize| if i >= n { s[i - n] } else { 0 };
        h = byte_step(h, s[i], back(1), back(2));
    }
    h
}

#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
mod avx2 {
    //! The recurrence 32 bytes a step. For a block, `h` becomes
    //! `h * 33^n + Σ c_j * 33^(e_j)`, where `n` counts the block's bytes
    //! that start a unit and `e_j` those after byte `j`: the terms do not
    //! depend on `h`, so the serial chain is one multiply a block.

    use std::arch::x86_64::*;

    use super::{
        ADD_HI, ADD_LO, AFTER_LEAD, AFTER_TWO, BITS, KIND, LOW_SURROGATE, SHIFT_HI, SHIFT_LO, STARTS, TOP_TWO,
        bytes_from,
    };

    /// Shorter texts are not worth the setup.
    pub(super) const MIN_LEN: usize = 64;

    /// 33^0 ..= 33^32 modulo 2^32.
    const POW: [u32; 33] = {
        let mut t = [1u32; 33];
        let mut i = 1;
        while i < 33 {
            t[i] = t[i - 1].wrapping_mul(33);
            i += 1;
        }
        t
    };

    /// djb2 of `s` (whole characters of valid UTF-8; any bytes are memory
    /// safe) from `h`. The caller has checked that the CPU has AVX2.
    pub(super) fn hash(h: u32, s: &[u8]) -> u32 {
        // SAFETY: the caller checked AVX2 with `is_x86_feature_detected!`.
        unsafe { blocks(h, s) }
    }

    #[target_feature(enable = "avx2")]
    fn table(t: &[u8; 16]) -> __m256i {
        // SAFETY: `t` is 16 readable bytes; the load is unaligned.
        _mm256_broadcastsi128_si256(unsafe { _mm_loadu_si128(t.as_ptr().cast()) })
    }

    /// `c * 33^e`, lane by lane, for exponents below 32: 33^(e mod 8)
    /// times 33^(8 * (e / 8)), each a lookup in one register.
    #[target_feature(enable = "avx2")]
    fn times_power(c: __m256i, e: __m256i, low: __m256i, high: __m256i) -> __m256i {
        let p = _mm256_mullo_epi32(
            _mm256_permutevar8x32_epi32(low, e),
            _mm256_permutevar8x32_epi32(high, _mm256_srli_epi32(e, 3)),
        );
        _mm256_mullo_epi32(c, p)
    }

    #[target_feature(enable = "avx2")]
    fn blocks(mut h: u32, s: &[u8]) -> u32 {
        // The first two bytes by the scalar steps, so every block can read
        // the two bytes before it.
        h = bytes_from(h, &s[..2], 0);
        let (kind, after_lead, after_two) = (table(&KIND), table(&AFTER_LEAD), table(&AFTER_TWO));
        let (bits_t, shift_lo, shift_hi) = (table(&BITS), table(&SHIFT_LO), table(&SHIFT_HI));
        let (add_lo, add_hi, starts, top_two) = (table(&ADD_LO), table(&ADD_HI), table(&STARTS), table(&TOP_TWO));
        let nibble = _mm256_set1_epi8(0x0F);
        let one = _mm256_set1_epi8(1);
        let low_surrogate = _mm256_set1_epi8(LOW_SURROGATE as i8);
        let zero = _mm256_setzero_si256();
        let pow_low = _mm256_setr_epi32(
            POW[0] as i32,
            POW[1] as i32,
            POW[2] as i32,
            POW[3] as i32,
            POW[4] as i32,
            POW[5] as i32,
            POW[6] as i32,
            POW[7] as i32,
        );
        let pow_high = _mm256_setr_epi32(1, POW[8] as i32, POW[16] as i32, POW[24] as i32, 0, 0, 0, 0);
        let high_nibble = |v: __m256i| _mm256_and_si256(_mm256_srli_epi16(v, 4), nibble);
        let mut i = 2;
        while i + 32 <= s.len() {
            // SAFETY: i >= 2 and i + 32 <= s.len(): the three 32-byte
            // unaligned loads at i, i - 1 and i - 2 are inside `s`.
            let (b, back1, back2) = unsafe {
                let p = s.as_ptr();
                (
                    _mm256_loadu_si256(p.add(i).cast()),
                    _mm256_loadu_si256(p.add(i - 1).cast()),
                    _mm256_loadu_si256(p.add(i - 2).cast()),
                )
            };
            let nib = high_nibble(b);
            let k0 = _mm256_shuffle_epi8(kind, nib);
            let k1 = _mm256_shuffle_epi8(kind, high_nibble(back1));
            let k2 = _mm256_shuffle_epi8(kind, high_nibble(back2));
            let continued = _mm256_blendv_epi8(
                _mm256_shuffle_epi8(after_lead, k1),
                _mm256_shuffle_epi8(after_two, k2),
                _mm256_cmpeq_epi8(k1, one),
            );
            let class = _mm256_blendv_epi8(k0, continued, _mm256_cmpeq_epi8(k0, one));
            let v = _mm256_and_si256(b, _mm256_shuffle_epi8(bits_t, class));
            let top = _mm256_and_si256(_mm256_shuffle_epi8(top_two, nib), _mm256_cmpeq_epi8(class, low_surrogate));
            let alo = _mm256_add_epi8(_mm256_shuffle_epi8(add_lo, class), top);
            let ahi = _mm256_shuffle_epi8(add_hi, class);
            let (mlo, mhi) = (_mm256_shuffle_epi8(shift_lo, class), _mm256_shuffle_epi8(shift_hi, class));
            let start = _mm256_shuffle_epi8(starts, class);
            let n = (_mm256_movemask_epi8(start) as u32).count_ones();
            // How many bytes after each start a unit: a suffix sum within
            // each 16-byte lane, the high lane's total added to the low.
            let start01 = _mm256_and_si256(start, one);
            let mut after = start01;
            after = _mm256_add_epi8(after, _mm256_srli_si256(after, 1));
            after = _mm256_add_epi8(after, _mm256_srli_si256(after, 2));
            after = _mm256_add_epi8(after, _mm256_srli_si256(after, 4));
            after = _mm256_add_epi8(after, _mm256_srli_si256(after, 8));
            let high_total = _mm256_shuffle_epi8(_mm256_permute2x128_si256(after, after, 0x81), zero);
            let e = _mm256_sub_epi8(_mm256_add_epi8(after, high_total), start01);
            // Terms in 16 bits (each below 0xE100), then 32; unpacking goes
            // within lanes, and the exponents are unpacked the same way.
            let ca = _mm256_add_epi16(
                _mm256_mullo_epi16(_mm256_unpacklo_epi8(v, zero), _mm256_unpacklo_epi8(mlo, mhi)),
                _mm256_unpacklo_epi8(alo, ahi),
            );
            let cb = _mm256_add_epi16(
                _mm256_mullo_epi16(_mm256_unpackhi_epi8(v, zero), _mm256_unpackhi_epi8(mlo, mhi)),
                _mm256_unpackhi_epi8(alo, ahi),
            );
            let (ea, eb) = (_mm256_unpacklo_epi8(e, zero), _mm256_unpackhi_epi8(e, zero));
            let sum = _mm256_add_epi32(
                _mm256_add_epi32(
                    times_power(_mm256_unpacklo_epi16(ca, zero), _mm256_unpacklo_epi16(ea, zero), pow_low, pow_high),
                    times_power(_mm256_unpackhi_epi16(ca, zero), _mm256_unpackhi_epi16(ea, zero), pow_low, pow_high),
                ),
                _mm256_add_epi32(
                    times_power(_mm256_unpacklo_epi16(cb, zero), _mm256_unpacklo_epi16(eb, zero), pow_low, pow_high),
                    times_power(_mm256_unpackhi_epi16(cb, zero), _mm256_unpackhi_epi16(eb, zero), pow_low, pow_high),
                ),
            );
            let half = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
            let quarter = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
            let total = _mm_add_epi32(quarter, _mm_shuffle_epi32(quarter, 0b10_11_00_01));
            h = h.wrapping_mul(POW[n as usize]).wrapping_add(_mm_cvtsi128_si32(total) as u32);
            i += 32;
        }
        // The last block's remainder may start inside a character.
        bytes_from(h, s, i)
    }
}

#[cfg(test)]
mod tests {
    use super::super::scan::Utf8Stream;
    use super::*;

    use crate::testing::djb2_utf16 as djb2_reference;

    #[test]
    fn djb2_matches_utf16_definition_in_any_chunking() {
        let text = "héllo wörld 😀 日本語 plain ascii run of more than eight bytes 𝔘";
        for split in 0..text.len() {
            let mut u = Utf8Stream::default();
            let mut d = Djb2::new();
            u.feed(&text.as_bytes()[..split], |s| d.feed(s));
            u.feed(&text.as_bytes()[split..], |s| d.feed(s));
            assert_eq!(u.finish(), None);
            assert_eq!(d.h, djb2_reference(text), "split at {split}");
        }
    }

    proptest::proptest! {
        /// Long texts go through the two-lane path (halves joined by a
        /// power of 33) and the vector path: pieces of every UTF-8 length,
        /// mixed so a half or a block may start inside an ASCII run or a
        /// character, fed whole and in two.
        #[test]
        fn two_lanes_match_the_utf16_definition(
            picks in proptest::collection::vec(0usize..9, 600..3000),
            split in 0usize..20_000,
        ) {
            const PIECES: [&str; 9] =
                ["plain words ", "é", "ж", "日本", "😀", "𝔘x", "a``b", "\u{feff}", "long ascii run, no marks "];
            let text: String = picks.iter().map(|&i| PIECES[i]).collect();
            let body = text.strip_prefix('\u{feff}').unwrap_or(&text);
            proptest::prop_assert_eq!(hash_chars(DJB2_SEED, body.as_bytes()), djb2_reference(body));
            proptest::prop_assert_eq!(hash(DJB2_SEED, body.as_bytes()), djb2_reference(body));
            let mut d = Djb2::new();
            d.feed(text.as_bytes());
            proptest::prop_assert_eq!(d.h, djb2_reference(text.strip_prefix('\u{feff}').unwrap_or(&text)));
            let mut split = split.min(text.len());
            while !text.is_char_boundary(split) {
                split -= 1;
            }
            let mut d = Djb2::new();
            d.feed(&text.as_bytes()[..split]);
            d.feed(&text.as_bytes()[split..]);
            proptest::prop_assert_eq!(d.h, djb2_reference(text.strip_prefix('\u{feff}').unwrap_or(&text)));
        }
    }

    #[test]
    fn pow33_is_repeated_multiplication() {
        let mut want = 1u32;
        for e in 0..300u64 {
            assert_eq!(pow33(e), want, "33^{e}");
            want = want.wrapping_mul(33);
        }
    }

    #[test]
    fn fold8_is_the_polynomial() {
        for w in [b"abcdefgh", b"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", b"\0\0\0\0\0\0\0\x01", b"`````` x"] {
            let want = w.iter().fold(0u32, |acc, &c| acc.wrapping_mul(33).wrapping_add(c as u32));
            assert_eq!(fold8(u64::from_le_bytes(*w)), want);
        }
    }

    #[test]
    fn leading_bom_is_not_part_of_the_tag_hash() {
        let mut d = Djb2::new();
        d.feed("\u{feff}abc".as_bytes());
        assert_eq!(d.h, djb2_reference("abc"));
        let mut d = Djb2::new();
        d.feed("a\u{feff}bc".as_bytes());
        assert_eq!(d.h, djb2_reference("a\u{feff}bc"));
    }

    /// Every character there is, each after an ASCII letter, after another
    /// character of its length, and run together.
    fn every_character() -> String {
        let mut text = String::new();
        for c in (0..=0x10_FFFFu32).filter_map(char::from_u32) {
            text.push(c);
            if u32::from(c) % 3 == 0 {
                text.push('a');
            }
        }
        text
    }

    #[test]
    fn the_byte_recurrence_is_the_definition_for_every_character() {
        let text = every_character();
        assert_eq!(bytes_from(DJB2_SEED, text.as_bytes(), 0), djb2_reference(&text));
        for piece in ["a", "é", "ж", "日", "😀", "\u{10FFFF}", "\u{FFFF}", "\u{10000}", "\u{7FF}", "\u{800}"] {
            assert_eq!(bytes_from(DJB2_SEED, piece.as_bytes(), 0), djb2_reference(piece), "{piece:?}");
        }
    }

    /// The path this machine takes for long texts (printed), against the
    /// definition: every character, and every slice of a text that changes
    /// script every few characters, so blocks start and end anywhere in a
    /// character of any length.
    #[test]
    fn the_fast_path_is_the_definition_whatever_the_text() {
        #[cfg(target_arch = "x86_64")]
        eprintln!("vector path: {}", std::arch::is_x86_feature_detected!("avx2"));
        let text = every_character();
        assert_eq!(hash(DJB2_SEED, text.as_bytes()), djb2_reference(&text));
        assert_eq!(hash_chars(DJB2_SEED, text.as_bytes()), djb2_reference(&text));
        let mixed = "naïve café Größe 한국어 `code` 日本語 текст שלום ok 😀 a``b\n𝔘𝔫 x ".repeat(3);
        for a in (0..mixed.len()).filter(|&a| mixed.is_char_boundary(a)) {
            for z in (a..=mixed.len()).filter(|&z| mixed.is_char_boundary(z)) {
                let piece = &mixed[a..z];
                assert_eq!(hash(DJB2_SEED, piece.as_bytes()), djb2_reference(piece), "{a}..{z}");
            }
        }
    }
}
