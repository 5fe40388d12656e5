//! Helpers shared by unit tests, integration tests, benches and fuzz targets.
//! Not part of the supported API.

pub mod hostile;

/// The email parser, reached directly by fuzz targets and benchmarks.
pub mod email {
    pub use crate::email::{BodyKind, MAX_TEXT_BYTES, calendar_fields, looks_like_email, parse, plain_only};
}

/// The HTML renderer, reached directly by fuzz targets and benchmarks.
pub mod html {
    pub use crate::html::{looks_like_html, render};
}

/// The invisible-character finder, reached directly by fuzz targets and
/// benchmarks.
pub mod invisible {
    pub use crate::invisible::find;
}

/// djb2 over UTF-16 code units, written the plain way (the reference's definition).
pub fn djb2_utf16(s: &str) -> u32 {
    s.encode_utf16().fold(5381u32, |h, u| h.wrapping_mul(33).wrapping_add(u32::from(u)))
}

/// Content whose own anchor tag, and the `k - 1` candidates after it, all
/// occur inside it as begin anchors, so wrap must step `k` times.
/// The content's djb2 is exactly `tag`: seven letters from 'A'..='a' at the
/// end are the base-33 digits that steer the hash there.
pub fn colliding_content(tag: u32, k: u32) -> String {
    let mut s = String::new();
    let mut t = tag;
    for _ in 0..k {
        s.push_str(&format!("[INERTBOX v1 begin {t:x}]\n"));
        t = t.wrapping_add(0x9E37_79B1);
    }
    const N: u32 = 7;
    let h = djb2_utf16(&s);
    let pow = 33u32.wrapping_pow(N);
    // poly(S) must equal tag - h*33^N; with s_i = 'A' + d_i that is
    // 'A' * (33^6 + … + 1) + Σ d_i 33^(N-1-i).
    let ones = (0..N).fold(0u32, |acc, _| acc.wrapping_mul(33).wrapping_add(1));
    let mut r = tag.wrapping_sub(h.wrapping_mul(pow)).wrapping_sub(u32::from(b'A').wrapping_mul(ones)) as u64;
    let mut digits = [0u8; N as usize];
    for d in digits.iter_mut().rev() {
        *d = (r % 33) as u8;
        r /= 33;
    }
    for d in digits {
        s.push(char::from(b'A' + d));
    }
    debug_assert_eq!(djb2_utf16(&s), tag);
    s
}

/// A committed generated file (`path`, under the crate) is what its
/// generator makes now (`want`). With INERTBOX_REGENERATE set, a stale file
/// is written anew and the test fails, so it runs again on the new table;
/// `rerun` names the test to run (`cargo test --lib NAME`).
pub fn generated_file_is_current(path: &str, want: &str, rerun: &str) {
    let got = std::fs::read_to_string(path).unwrap_or_default();
    if got != want && std::env::var_os("INERTBOX_REGENERATE").is_some() {
        std::fs::write(path, want).expect("the source tree is writable");
        panic!("{path} written anew; run the tests again (this build holds the old table)");
    }
    assert!(got == want, "{path} is stale; run INERTBOX_REGENERATE=1 cargo test --lib {rerun}");
}

/// A small deterministic generator for equivalence tests: `below(n)` gives
/// a number in `0..n`, `join(bits, most)` glues 1..=most random pieces.
/// The same seed gives the same texts on every machine.
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Self {
        Lcg(seed)
    }

    pub fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) as usize % n
    }

    pub fn join(&mut self, bits: &[&str], most: usize) -> String {
        let parts = 1 + self.below(most);
        (0..parts).map(|_| bits[self.below(bits.len())]).collect()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn colliding_content_hashes_to_its_tag() {
        for tag in [0, 1, 0x1234_abcd, u32::MAX] {
            assert_eq!(super::djb2_utf16(&super::colliding_content(tag, 3)), tag);
        }
    }
}
