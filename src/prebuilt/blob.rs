//! The blob's layout, shared by build.rs (which writes it) and `prebuilt`
//! (which reads it): a magic, a little-endian u32 entry count, one 16-byte
//! index entry per pattern (u64 FNV-1a of the pattern as compiled, u32
//! start and u32 end of its data), then the data: the forward NFA, then
//! the reverse one. An NFA is a header (varints: state count, anchored,
//! unanchored and pattern start; one flags byte) and its states, each a tag
//! byte and its fields (state ids as zig-zag varint distances from the
//! state that names them).

#![allow(dead_code)]

pub(crate) const MAGIC: &[u8; 8] = b"IBXNFA01";
pub(crate) const ENTRY: usize = 16;

/// NFA header flags.
pub(crate) const REVERSE: u8 = 1;
pub(crate) const UTF8: u8 = 2;

/// State tags.
pub(crate) const BYTE_RANGE: u8 = 0;
pub(crate) const SPARSE: u8 = 1;
pub(crate) const LOOK: u8 = 2;
pub(crate) const UNION: u8 = 3;
pub(crate) const CAPTURE_START: u8 = 4;
pub(crate) const FAIL: u8 = 5;
pub(crate) const MATCH: u8 = 6;
pub(crate) const CAPTURE_END: u8 = 7;

/// The key an entry is found by.
pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
