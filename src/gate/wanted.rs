//! A call's targets, indexed so that each entity of a session finds the
//! targets it mentions in about log(targets) steps. A decision walks every
//! entity of every read once; comparing each with every target made a call
//! naming 30,000 addresses after a page naming 30,000 others a billion
//! comparisons.
//!
//! Every target gets a key, and the keys are sorted. What an entity
//! mentions is then one or a few ranges of that order ("slots"): the
//! targets whose key starts with a prefix the entity gives. A walk only
//! records ranges; [`Wanted::covered`] turns the ranges it kept into one
//! flag per target at the end, in one pass. Keys, by kind:
//!
//! - address `e` and phone `p`: the value lowercased, then a NUL (the
//!   entity must be the same value);
//! - domain `d`: its bytes backwards, then a dot (`x.evil.test` is
//!   `dtset.live.x.`), so a domain's key is a prefix of its subdomains'
//!   keys (`evil.test` mentions `x.evil.test`);
//! - link `u`: the link lowercased, so a link the content mentioned is a
//!   prefix of the targets that extend it; a target that is a prefix of a
//!   mentioned link (the other direction) is found by hashing each of the
//!   entity's prefixes of a target's length as the entity is walked once;
//! - account `a`: its digits, found inside any entity's digits by an
//!   Aho-Corasick automaton over all account targets.
//!
//! `tests::the_index_finds_what_comparing_each_pair_finds` holds this
//! against comparing every pair the plain way.

use std::collections::HashMap;
use std::ops::Range;

use aho_corasick::AhoCorasick;

use super::{EntityRef, TargetKind};
use crate::document::EntityKind;

/// A base for the rolling hash of link prefixes, chosen per process so no
/// input can be built to collide (collisions are checked anyway; they
/// could only cost time).
fn hash_base() -> u64 {
    static BASE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *BASE.get_or_init(|| {
        let mut b = [0u8; 8];
        let seed = getrandom::fill(&mut b).map(|()| u64::from_le_bytes(b)).unwrap_or(0x0100_0000_01b3);
        seed | 1
    })
}

/// The targets of one call, ready to be looked for in entity lists.
#[derive(Debug, Default)]
pub(crate) struct Wanted {
    /// (key, target index), sorted by key: position in this list is a slot.
    keys: Vec<(Box<[u8]>, u32)>,
    /// The slots of each kind's keys (by `KINDS`): an entity looks only
    /// among those of its kind, and not at all when there are none.
    kinds: [Range<usize>; 5],
    targets: usize,
    /// Link targets by (rolling hash, length) of their value without
    /// trailing slashes: slots.
    link_prefixes: HashMap<(u64, u32), Vec<u32>>,
    /// The lengths in `link_prefixes`, sorted, without repeats.
    link_lengths: Vec<u32>,
    /// Account targets' digits, and the slot of each pattern.
    accounts: Option<(AhoCorasick, Vec<u32>)>,
}

/// Each key's first byte, in sorted order.
const KINDS: [u8; 5] = [b'a', b'd', b'e', b'p', b'u'];

fn key_of(kind: TargetKind, value: &str) -> Vec<u8> {
    let v = value.to_lowercase();
    let mut k = Vec::with_capacity(v.len() + 2);
    match kind {
        TargetKind::Email => k.extend([b"e", v.as_bytes(), b"\0"].concat()),
        TargetKind::Phone => k.extend([b"p", v.as_bytes(), b"\0"].concat()),
        // The domain's bytes backwards after a dot: `x.evil.test` is
        // `d` + `tset.live.x.`, which starts with `evil.test`'s
        // `tset.live.` (a label ends at each dot, so `notevil.test` does not).
        TargetKind::Domain => {
            k.push(b'd');
            k.extend(v.bytes().rev());
            k.push(b'.');
        }
        TargetKind::Url => k.extend([b"u", v.as_bytes()].concat()),
        TargetKind::Account => k.extend([b"a", v.as_bytes(), b"\0"].concat()),
    }
    k
}

/// The rolling hash of `b`'s bytes, ASCII lowercased.
fn roll(h: u64, b: u8) -> u64 {
    h.wrapping_mul(hash_base()).wrapping_add(u64::from(b.to_ascii_lowercase()))
}

impl Wanted {
    pub(crate) fn new(found: &[(TargetKind, String)]) -> Wanted {
        let mut keys: Vec<(Box<[u8]>, u32)> =
            found.iter().enumerate().map(|(i, (k, v))| (key_of(*k, v).into(), i as u32)).collect();
        keys.sort();
        let kinds = KINDS.map(|letter| {
            let lo = keys.partition_point(|(k, _)| k[0] < letter);
            lo..lo + keys[lo..].partition_point(|(k, _)| k[0] == letter)
        });
        let mut link_prefixes: HashMap<(u64, u32), Vec<u32>> = HashMap::new();
        for slot in kinds[4].clone() {
            let v = trim_slashes(&keys[slot].0[1..]);
            let h = v.iter().fold(0, |h, &b| roll(h, b));
            link_prefixes.entry((h, v.len() as u32)).or_default().push(slot as u32);
        }
        let mut link_lengths: Vec<u32> = link_prefixes.keys().map(|&(_, n)| n).collect();
        link_lengths.sort_unstable();
        link_lengths.dedup();
        let accounts: Vec<(&[u8], u32)> =
            kinds[0].clone().map(|slot| (&keys[slot].0[1..keys[slot].0.len() - 1], slot as u32)).collect();
        let accounts = (!accounts.is_empty())
            .then(|| {
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .build(accounts.iter().map(|(d, _)| d))
                    .ok()
                    .map(|ac| (ac, accounts.iter().map(|&(_, s)| s).collect()))
            })
            .flatten();
        Wanted { keys, kinds, targets: found.len(), link_prefixes, link_lengths, accounts }
    }

    pub(crate) fn len(&self) -> usize {
        self.targets
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.targets == 0
    }

    /// The slots of kind `kind` whose key starts with the bytes `prefix`
    /// gives (after the kind's letter).
    fn with_prefix<I: Iterator<Item = u8>>(&self, kind: usize, prefix: impl Fn() -> I) -> Range<u32> {
        let span = self.kinds[kind].clone();
        let keys = &self.keys[span.clone()];
        // How a key's first bytes compare with the prefix: Equal when the
        // key starts with it. Sorted keys give Less.., Equal.., Greater...
        let cmp = |key: &[u8]| {
            let mut k = key[1..].iter();
            for p in prefix() {
                match k.next() {
                    None => return std::cmp::Ordering::Less,
                    Some(&b) if b != p => return b.cmp(&p),
                    Some(_) => {}
                }
            }
            std::cmp::Ordering::Equal
        };
        let lo = keys.partition_point(|(k, _)| cmp(k).is_lt());
        let hi = lo + keys[lo..].partition_point(|(k, _)| cmp(k).is_eq());
        (span.start + lo) as u32..(span.start + hi) as u32
    }

    /// Call `each` with each range of slots whose targets this entity
    /// mentions.
    pub(crate) fn mentioned_by(&self, e: &EntityRef, each: &mut dyn FnMut(Range<u32>)) {
        let mut mark = |r: Range<u32>| {
            if !r.is_empty() {
                each(r);
            }
        };
        let kind = match e.kind {
            EntityKind::Domain => 1,
            EntityKind::Email => 2,
            EntityKind::Phone => 3,
            EntityKind::Url => 4,
        };
        if !self.kinds[kind].is_empty() {
            let lower = lowercase(&e.value);
            let v = lower.as_bytes();
            match e.kind {
                EntityKind::Email | EntityKind::Phone => {
                    mark(self.with_prefix(kind, || v.iter().copied().chain([0])));
                }
                EntityKind::Domain => {
                    mark(self.with_prefix(kind, || v.iter().rev().copied().chain([b'.'])));
                }
                EntityKind::Url => {
                    // Targets the link is a prefix of (trailing slashes aside).
                    let trimmed = trim_slashes(v);
                    mark(self.with_prefix(kind, || trimmed.iter().copied()));
                    // Targets that are a prefix of the link: its prefixes of a
                    // target's length, hashed as the link is walked once.
                    let mut lengths = self.link_lengths.iter().peekable();
                    // A target of nothing but slashes is a prefix of every link.
                    if lengths.next_if(|&&l| l == 0).is_some() {
                        for &slot in self.link_prefixes.get(&(0, 0)).into_iter().flatten() {
                            mark(slot..slot + 1);
                        }
                    }
                    let mut h = 0;
                    for (i, &b) in v.iter().enumerate() {
                        let Some(&&want) = lengths.peek() else { break };
                        h = roll(h, b);
                        let n = i as u32 + 1;
                        if n < want {
                            continue;
                        }
                        lengths.next();
                        for &slot in self.link_prefixes.get(&(h, n)).into_iter().flatten() {
                            if self.keys[slot as usize].0[1..].get(..n as usize) == Some(&v[..n as usize]) {
                                mark(slot..slot + 1);
                            }
                        }
                    }
                }
            }
        }
        if let Some((ac, slots)) = &self.accounts {
            let digits: Vec<u8> = e.value.bytes().filter(|&b| b != b' ' && b != b'-').collect();
            for m in ac.find_overlapping_iter(&digits[..]) {
                let slot = slots[m.pattern().as_usize()];
                mark(slot..slot + 1);
            }
        }
    }

    /// The slots of address targets that are this sender's address.
    pub(crate) fn sender(&self, sender: &str, each: &mut dyn FnMut(Range<u32>)) {
        if self.kinds[2].is_empty() {
            return;
        }
        let lower = lowercase(sender);
        let r = self.with_prefix(2, || lower.bytes().chain([0]));
        if !r.is_empty() {
            each(r);
        }
    }

    /// One flag per target: is it in one of these ranges of slots?
    pub(crate) fn covered(&self, ranges: impl IntoIterator<Item = Range<u32>>) -> Vec<bool> {
        let mut depth = vec![0i64; self.keys.len() + 1];
        for r in ranges {
            if r.start < r.end {
                depth[r.start as usize] += 1;
                depth[r.end as usize] -= 1;
            }
        }
        let mut out = vec![false; self.targets];
        let mut d = 0;
        for (slot, (_, target)) in self.keys.iter().enumerate() {
            d += depth[slot];
            if d > 0 {
                out[*target as usize] = true;
            }
        }
        out
    }
}

fn trim_slashes(v: &[u8]) -> &[u8] {
    let end = v.iter().rposition(|&b| b != b'/').map_or(0, |i| i + 1);
    &v[..end]
}

/// The text lowercased, borrowed when it has nothing to lower.
fn lowercase(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() && !s.bytes().any(|b| b.is_ascii_uppercase()) {
        std::borrow::Cow::Borrowed(s)
    } else if s.is_ascii() {
        std::borrow::Cow::Owned(s.to_ascii_lowercase())
    } else {
        std::borrow::Cow::Owned(s.to_lowercase())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Lcg;
    use std::borrow::Cow;

    /// The relation, pair by pair, as the gate compared before the index.
    fn mentions(kind: TargetKind, value: &str, e: &EntityRef) -> bool {
        let v = value.to_lowercase();
        let starts_with_ci =
            |s: &str, p: &str| s.len() >= p.len() && s.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes());
        let account = {
            let digits: String = e.value.chars().filter(|c| *c != ' ' && *c != '-').collect();
            kind == TargetKind::Account && digits.to_ascii_lowercase().contains(v.as_str())
        };
        account
            || match (kind, e.kind) {
                (TargetKind::Url, EntityKind::Url) => {
                    let v_trim = v.trim_end_matches('/');
                    let ev = e.value.trim_end_matches('/');
                    ev.eq_ignore_ascii_case(v_trim) || starts_with_ci(&v, ev) || starts_with_ci(&e.value, v_trim)
                }
                (TargetKind::Domain, EntityKind::Domain) => {
                    let ev = e.value.to_lowercase();
                    ev == v
                        || (v.len() > ev.len() + 1 && v.ends_with(&ev) && v.as_bytes()[v.len() - ev.len() - 1] == b'.')
                }
                (TargetKind::Email, EntityKind::Email) | (TargetKind::Phone, EntityKind::Phone) => {
                    e.value.to_lowercase() == v
                }
                _ => false,
            }
    }

    #[test]
    fn the_index_finds_what_comparing_each_pair_finds() {
        let bits = [
            "https://",
            "http://",
            "evil.test",
            "Evil.Test",
            "x.",
            "a",
            "/",
            "//",
            "?q=1",
            "#f",
            "@",
            "me",
            "12 34",
            "5678",
            "-",
            ".",
            "de89",
            "ü",
            "EVIL",
        ];
        let kinds = [TargetKind::Email, TargetKind::Url, TargetKind::Domain, TargetKind::Phone, TargetKind::Account];
        let ekinds = [EntityKind::Email, EntityKind::Url, EntityKind::Domain, EntityKind::Phone];
        let mut rng = Lcg::new(7);
        let mut hits = 0;
        for _ in 0..3000 {
            let found: Vec<(TargetKind, String)> =
                (0..1 + rng.below(6)).map(|_| (kinds[rng.below(kinds.len())], rng.join(&bits, 5))).collect();
            let wanted = Wanted::new(&found);
            for _ in 0..8 {
                let e = EntityRef {
                    kind: ekinds[rng.below(ekinds.len())],
                    value: Cow::Owned(rng.join(&bits, 6)),
                    hidden: false,
                };
                let mut ranges = Vec::new();
                wanted.mentioned_by(&e, &mut |r| ranges.push(r));
                let got = wanted.covered(ranges);
                let want: Vec<bool> = found.iter().map(|(k, v)| mentions(*k, v, &e)).collect();
                assert_eq!(got, want, "{found:?} {e:?}");
                hits += want.iter().filter(|&&b| b).count();
            }
        }
        assert!(hits > 1000, "too few cases where an entity mentions a target: {hits}");
    }

    #[test]
    fn a_sender_is_the_same_address() {
        let found = vec![(TargetKind::Email, "Ap@Vendor.test".to_string()), (TargetKind::Domain, "vendor.test".into())];
        let w = Wanted::new(&found);
        let mut r = Vec::new();
        w.sender("ap@vendor.TEST", &mut |x| r.push(x));
        assert_eq!(w.covered(r), vec![true, false]);
        let mut r = Vec::new();
        w.sender("xap@vendor.test", &mut |x| r.push(x));
        assert_eq!(w.covered(r), vec![false, false]);
    }
}
