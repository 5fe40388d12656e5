//! The rule keys' search tables, worked out from the rule table: by the
//! build script, which writes them into the binary (working them out took
//! about 0.2 ms of every process that scans), and by the library's tests,
//! which check what the build script wrote. The library's key search reads
//! them with `bit` and `triple`.

/// Every key once, in order of first appearance, and for each the rules
/// (by index) that list it.
pub fn keys_and_rules<'a>(rule_keys: &[&[&'a str]]) -> (Vec<&'a str>, Vec<Vec<usize>>) {
    let mut keys: Vec<&str> = Vec::new();
    let mut key_rules: Vec<Vec<usize>> = Vec::new();
    for (i, ks) in rule_keys.iter().enumerate() {
        for &k in ks.iter() {
            match keys.iter().position(|&x| x == k) {
                Some(p) => key_rules[p].push(i),
                None => {
                    keys.push(k);
                    key_rules.push(vec![i]);
                }
            }
        }
    }
    (keys, key_rules)
}

/// For each key, the rules a hit of it wakes: its own, those of every key
/// inside it, and those of every key that may begin at a word inside it
/// and run on past its end (at least two bytes shared: `to the ai` and
/// `ai,`). The search is leftmost-longest and not overlapping, so a key
/// found stands for the keys inside it and for those it cut short; sorted.
pub fn woken(keys: &[&str], key_rules: &[Vec<usize>]) -> Vec<Vec<usize>> {
    keys.iter()
        .enumerate()
        .map(|(key, outer)| {
            let mut rules: Vec<usize> = Vec::new();
            for (j, inner) in keys.iter().enumerate() {
                // Only a cut at a word's start: `to the ai` cuts `ai,`
                // short, but `developer` does not cut `permitted`.
                let cut_short = (1..outer.len().saturating_sub(1))
                    .filter(|&at| outer.as_bytes()[at - 1] == b' ')
                    .any(|at| inner.len() > outer.len() - at && inner.starts_with(&outer[at..]));
                if j == key || outer.contains(inner) || cut_short {
                    rules.extend(&key_rules[j]);
                }
            }
            rules.sort_unstable();
            rules.dedup();
            rules
        })
        .collect()
}

/// For each key, where the search goes on after a hit of it (bytes from
/// the hit's start): the first place inside it where another key could
/// begin and run past its end (`ai` then `ignore` in "USAIgnore"), else
/// its length. The search is leftmost-longest and not overlapping, so
/// without this a key found first hides every key it overlaps; keys wholly
/// inside it are woken by it (`woken`).
pub fn restarts(keys: &[&str]) -> Vec<u8> {
    keys.iter()
        .map(|k| {
            let b = k.as_bytes();
            let at = (1..b.len())
                .filter(|&i| k.is_char_boundary(i))
                .find(|&i| keys.iter().any(|l| l.len() > b.len() - i && l.as_bytes().starts_with(&b[i..])))
                .unwrap_or(b.len());
            u8::try_from(at).expect("keys are shorter than 256 bytes")
        })
        .collect()
}

/// Bits in each of `Tables::triples` and `Tables::two`.
pub const BITS: usize = 1 << 16;

/// One group of keys (the ASCII ones, or the others) and how to find them:
/// see `Pairs` in rules.rs.
#[derive(Debug, PartialEq)]
pub struct Tables {
    /// Each key's index in the whole key list.
    pub index: Vec<u16>,
    /// Bit `triple(a, b, c)` set when some key starts with the three bytes.
    pub triples: Vec<u64>,
    /// Bit `pair` set when some key is the two bytes.
    pub two: Vec<u64>,
    /// (prefix, start, end) of each prefix's run in `order`, by prefix (see
    /// `prefix`).
    pub runs: Vec<(u32, u16, u16)>,
    /// Keys (by position in `index`) by prefix, longest first within one.
    pub order: Vec<u16>,
}

/// The tables for the keys `pick` chooses. Every key has at least two bytes.
pub fn tables(keys: &[&str], pick: impl Fn(&str) -> bool) -> Tables {
    let index: Vec<u16> = (0..keys.len()).filter(|&i| pick(keys[i])).map(|i| i as u16).collect();
    let key = |k: u16| keys[index[k as usize] as usize].as_bytes();
    let pair = |k: &[u8]| u16::from_be_bytes([k[0], k[1]]);
    let mut order: Vec<u16> = (0..index.len() as u16).collect();
    order.sort_by_key(|&i| (prefix(key(i)), std::cmp::Reverse(key(i).len())));
    let mut triples = vec![0u64; BITS / 64];
    let mut two = vec![0u64; BITS / 64];
    let mut runs: Vec<(u32, u16, u16)> = Vec::new();
    for (at, &i) in order.iter().enumerate() {
        let k = key(i);
        let p = pair(k);
        match k.get(2) {
            Some(&c) => set_bit(&mut triples, triple(k[0], k[1], c)),
            None => set_bit(&mut two, p),
        }
        match runs.last_mut() {
            Some(run) if run.0 == prefix(k) => run.2 = at as u16 + 1,
            _ => runs.push((prefix(k), at as u16, at as u16 + 1)),
        }
    }
    Tables { index, triples, two, runs, order }
}

/// A key's run: its first three bytes (big-endian), or for a two-byte key
/// its two bytes above 2^24 (no three-byte prefix is that large).
pub fn prefix(k: &[u8]) -> u32 {
    match *k {
        [a, b, c, ..] => u32::from_be_bytes([0, a, b, c]),
        [a, b] => 1 << 24 | u32::from(u16::from_be_bytes([a, b])),
        _ => unreachable!("keys have two bytes or more"),
    }
}

/// The bit of three bytes in `Tables::triples` (a multiplicative hash to
/// 16 bits; a collision only costs a look).
pub fn triple(a: u8, b: u8, c: u8) -> u16 {
    (u32::from_le_bytes([a, b, c, 0]).wrapping_mul(0x9e37_79b1) >> 16) as u16
}

fn set_bit(bits: &mut [u64], i: u16) {
    bits[usize::from(i) >> 6] |= 1 << (i & 63);
}

pub fn bit(bits: &[u64], i: u16) -> bool {
    bits[usize::from(i) >> 6] & (1 << (i & 63)) != 0
}

/// The most ASCII bytes any non-ASCII key starts with: a search for those
/// keys looks only at positions at most this far before a non-ASCII byte.
pub fn non_ascii_lead(keys: &[&str]) -> usize {
    keys.iter().filter_map(|k| k.bytes().position(|b| !b.is_ascii())).max().unwrap_or(0)
}
