//! A call's targets, indexed so that each entity of a session finds the
//! targets it mentions or trusts in about log(targets) steps. A decision
//! walks every entity of every read once; comparing each with every target
//! made a call naming 30,000 addresses after a page naming 30,000 others a
//! billion comparisons.
//!
//! Every target gets a key, and the keys are sorted. What an entity
//! mentions or trusts is then a range of that order ("slots"): the targets
//! whose key starts with a prefix the entity gives. A walk only records
//! ranges; [`Wanted::covered`] turns the ranges it kept into one flag per
//! target at the end, in one pass. Keys, by kind:
//!
//! - address `e` and phone `p`: the value lowercased, then a NUL (the
//!   entity must be the same value);
//! - domain `d`: its bytes backwards, then a dot (`x.evil.test` is
//!   `dtset.live.x.`), so a domain's key is a prefix of its subdomains'
//!   keys (`evil.test` mentions and trusts `x.evil.test`, and
//!   `a.example` does not trust `a.example.evil.test`);
//! - link, as the content mentioned it, `u`: the link as the WHATWG parser
//!   writes it, trailing slashes aside; only the same link matches (data
//!   appended to a link the content gave is a new link);
//! - link, as trusted, `t`: scheme, host and port, then the path with a
//!   slash at its end, then query and fragment; a trusted link's key up to
//!   its path is a prefix of the links it trusts: the same origin, the path
//!   below it (userinfo never counts);
//! - account `a`: its digits, found inside any entity's digits by an
//!   Aho-Corasick automaton over all account targets.
//!
//! Unknown targets have no key: nothing mentions or trusts them.
//! `tests::the_index_finds_what_comparing_each_pair_finds` holds this
//! against comparing every pair the plain way.

use std::collections::HashSet;
use std::ops::Range;

use aho_corasick::AhoCorasick;

use super::{EntityRef, TargetKind};
use crate::document::EntityKind;

/// The targets of one call, ready to be looked for in entity lists.
#[derive(Debug, Default)]
pub(crate) struct Wanted {
    /// (key, target index), sorted by key: position in this list is a slot.
    keys: Vec<(Box<[u8]>, u32)>,
    /// The slots of each kind's keys (by `KINDS`): an entity looks only
    /// among those of its kind, and not at all when there are none.
    kinds: [Range<usize>; 7],
    targets: usize,
    /// The hosts of link targets: only an entity link with one of these
    /// hosts is parsed.
    link_hosts: HashSet<String>,
    /// Account targets' digits, and the slot of each pattern.
    accounts: Option<(AhoCorasick, Vec<u32>)>,
    /// Name targets' words (` a b `), and the slot of each pattern: found
    /// in the words of what the user gave or a person saw of a read.
    names: Option<(AhoCorasick, Vec<u32>)>,
    /// Address and account targets (lower case; an account's letters and
    /// digits only) by target index: what a read's look-alikes are
    /// compared with ([`super::twins`]).
    pub(crate) twinned: Vec<(u32, TargetKind, String)>,
    /// Name targets under a call's object keys, by handle (lower case):
    /// looked for in reads' handles ([`super::handles`]).
    pub(crate) handles: std::collections::HashMap<String, Vec<u32>>,
    /// Name targets as a tool's answer may give them an id (lower case,
    /// one token): looked for in reads' named ids ([`super::handles::named_in`]).
    pub(crate) ids: std::collections::HashMap<String, Vec<u32>>,
    /// The call books: its name targets are looked for among what reads'
    /// JSON answers list ([`super::decide::NamedIds`]).
    pub(crate) booking: bool,
    /// A booking's name targets, folded as reads' names are
    /// ([`super::targets::fold_name`]).
    pub(crate) listed_names: std::collections::HashMap<String, Vec<u32>>,
    /// What a booking books (`hotel`, `restaurant`): only a read of a tool
    /// that speaks of one lists it ([`super::decide::booked_things`]).
    pub(crate) booked_things: Vec<String>,
    /// The call writes: which reads named a target from afar is wanted
    /// ([`super::project_read`]).
    pub(crate) writes: bool,
    /// Where it writes (its paths, lower case, a leading `./` aside) and
    /// what holds them (its `repo`, `owner`, `project`…), when it names
    /// both: a read of that file shows what it held ([`super::reads_place`]).
    pub(crate) place: Option<(std::collections::HashSet<String>, Vec<String>)>,
}

/// Each key's first byte, in sorted order.
const KINDS: [u8; 7] = [b'a', b'd', b'e', b'n', b'p', b't', b'u'];
const ACCOUNT: usize = 0;
const DOMAIN: usize = 1;
const EMAIL: usize = 2;
const NAME: usize = 3;
const PHONE: usize = 4;
const TRUSTED_LINK: usize = 5;
const LINK: usize = 6;

/// A link as parsed, for both of its keys.
fn parse_link(s: &str) -> Option<url::Url> {
    url::Url::parse(s.trim()).ok().filter(|u| u.host_str().is_some_and(|h| !h.is_empty()))
}

/// `scheme://host[:port]/path/` (the path ends with a slash): what a
/// trusted link's key starts with, and the start of a link's own.
fn origin_and_path(u: &url::Url) -> String {
    let mut k = format!("{}://{}", u.scheme(), u.host_str().unwrap_or("").trim_end_matches('.'));
    if let Some(port) = u.port() {
        k.push_str(&format!(":{port}"));
    }
    k.push_str(u.path());
    if !k.ends_with('/') {
        k.push('/');
    }
    k
}

/// A link's key as the content mentions it: the parser's writing of it,
/// without trailing slashes.
fn link_key(u: &url::Url) -> String {
    u.as_str().trim_end_matches('/').to_string()
}

/// A link's key as it may be trusted: origin and path, then the rest.
fn trust_key(u: &url::Url) -> String {
    let mut k = origin_and_path(u);
    if let Some(q) = u.query() {
        k.push('?');
        k.push_str(q);
    }
    if let Some(f) = u.fragment() {
        k.push('#');
        k.push_str(f);
    }
    k
}

/// A target's keys (a link has two).
fn keys_of(kind: TargetKind, value: &str) -> Vec<Vec<u8>> {
    let v = value.to_lowercase();
    let tagged = |letter: u8, body: &[u8], end: Option<u8>| {
        let mut k = Vec::with_capacity(body.len() + 2);
        k.push(letter);
        k.extend_from_slice(body);
        k.extend(end);
        k
    };
    match kind {
        TargetKind::Email => vec![tagged(b'e', v.as_bytes(), Some(0))],
        TargetKind::Phone => vec![tagged(b'p', v.as_bytes(), Some(0))],
        TargetKind::Account => vec![tagged(b'a', v.as_bytes(), Some(0))],
        // The domain's bytes backwards after a dot: `x.evil.test` is
        // `d` + `tset.live.x.`, which starts with `evil.test`'s
        // `tset.live.` (a label ends at each dot, so `notevil.test` does not).
        TargetKind::Domain => {
            let rev: Vec<u8> = v.trim_end_matches('.').bytes().rev().collect();
            vec![tagged(b'd', &rev, Some(b'.'))]
        }
        TargetKind::Url => match parse_link(value) {
            Some(u) => vec![tagged(b'u', link_key(&u).as_bytes(), None), tagged(b't', trust_key(&u).as_bytes(), None)],
            None => Vec::new(),
        },
        // A name's words; one too long to compare is never given.
        // A name's words; one too long to compare, with no letter or digit,
        // or not plain (an invisible or combining character, a letter that
        // lower-cases into ASCII from outside it) is never given.
        TargetKind::Name => {
            let w = super::targets::words(value);
            if w.len() > super::targets::MAX_NAME_BYTES || !super::targets::plain_name(value) {
                Vec::new()
            } else {
                vec![tagged(b'n', w.as_bytes(), None)]
            }
        }
        TargetKind::Unknown => Vec::new(),
    }
}

impl Wanted {
    /// The targets of one call; with `addresses_as_words` (the policy's
    /// `listedTargets`) addresses are also looked for as words are.
    pub(crate) fn new(found: &[(TargetKind, String)], addresses_as_words: bool) -> Wanted {
        let mut keys: Vec<(Box<[u8]>, u32)> = found
            .iter()
            .enumerate()
            .flat_map(|(i, (k, v))| keys_of(*k, v).into_iter().map(move |key| (key.into(), i as u32)))
            .collect();
        keys.sort();
        let kinds = KINDS.map(|letter| {
            let lo = keys.partition_point(|(k, _)| k[0] < letter);
            lo..lo + keys[lo..].partition_point(|(k, _)| k[0] == letter)
        });
        let link_hosts = found
            .iter()
            .filter(|(k, _)| *k == TargetKind::Url)
            .filter_map(|(_, v)| parse_link(v)?.host_str().map(|h| h.trim_end_matches('.').to_ascii_lowercase()))
            .collect();
        let accounts: Vec<(&[u8], u32)> =
            kinds[ACCOUNT].clone().map(|slot| (&keys[slot].0[1..keys[slot].0.len() - 1], slot as u32)).collect();
        let accounts = (!accounts.is_empty())
            .then(|| {
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .build(accounts.iter().map(|(d, _)| d))
                    .ok()
                    .map(|ac| (ac, accounts.iter().map(|&(_, s)| s).collect()))
            })
            .flatten();
        // Names, and accounts as a whole word of the user's (typed text
        // keeps each account it holds, written without spaces): the digits
        // of a date or a phone number in a prompt are no account.
        let mut name_keys: Vec<(Vec<u8>, u32)> =
            kinds[NAME].clone().map(|slot| (keys[slot].0[1..].to_vec(), slot as u32)).collect();
        for slot in kinds[ACCOUNT].clone() {
            let body = &keys[slot].0[1..keys[slot].0.len() - 1];
            let mut w = vec![b' '];
            w.extend(body.iter().filter(|&&b| b != b' ' && b != b'-'));
            w.push(b' ');
            name_keys.push((w, slot as u32));
        }
        // Addresses as their words are written (`dana-k-relay-example`):
        // how many reads show one in what a person sees, and whether a
        // sentence that asks names it.
        for slot in kinds[EMAIL].clone().filter(|_| addresses_as_words) {
            let body = &keys[slot].0[1..keys[slot].0.len() - 1];
            name_keys.push((super::targets::words(&String::from_utf8_lossy(body)).into_bytes(), slot as u32));
        }
        let names = (!name_keys.is_empty())
            .then(|| {
                AhoCorasick::new(name_keys.iter().map(|(w, _)| w))
                    .ok()
                    .map(|ac| (ac, name_keys.iter().map(|&(_, s)| s).collect()))
            })
            .flatten();
        let twinned = found
            .iter()
            .enumerate()
            .filter_map(|(i, (k, v))| match k {
                TargetKind::Email => Some((i as u32, *k, v.to_lowercase())),
                TargetKind::Account => Some((
                    i as u32,
                    *k,
                    v.chars().filter(char::is_ascii_alphanumeric).collect::<String>().to_lowercase(),
                )),
                _ => None,
            })
            .collect();
        let mut ids: std::collections::HashMap<String, Vec<u32>> = std::collections::HashMap::new();
        for (i, (k, v)) in found.iter().enumerate() {
            let v = v.trim().to_lowercase();
            if matches!(k, TargetKind::Name | TargetKind::Email) && !v.is_empty() && !v.contains(char::is_whitespace) {
                ids.entry(v).or_default().push(i as u32);
            }
        }
        Wanted {
            keys,
            kinds,
            targets: found.len(),
            link_hosts,
            accounts,
            names,
            twinned,
            handles: Default::default(),
            ids,
            booking: false,
            listed_names: Default::default(),
            booked_things: Vec::new(),
            writes: false,
            place: None,
        }
    }

    /// Keep a booking's name targets, folded, to be looked for among the
    /// names reads' answers give their objects; true.
    pub(crate) fn with_listed_names(&mut self, found: &[(TargetKind, String)]) -> bool {
        for (i, (k, v)) in found.iter().enumerate() {
            let name = super::targets::fold_name(v);
            if *k == TargetKind::Name && !name.is_empty() && name.len() <= super::targets::MAX_NAME_BYTES {
                self.listed_names.entry(name).or_default().push(i as u32);
            }
        }
        true
    }

    /// Mark the name targets that are among a call's handles (lower case).
    pub(crate) fn with_handles(mut self, found: &[(TargetKind, String)], handles: &[String]) -> Wanted {
        for (i, (k, v)) in found.iter().enumerate() {
            let v = v.trim().to_lowercase();
            if *k == TargetKind::Name && handles.contains(&v) {
                self.handles.entry(v).or_default().push(i as u32);
            }
        }
        self
    }

    /// The target of a slot.
    pub(crate) fn target_at(&self, slot: u32) -> u32 {
        self.keys[slot as usize].1
    }

    /// Some target is a name or an account (looked for in words).
    pub(crate) fn has_names(&self) -> bool {
        self.names.is_some()
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

    /// The slots of the same value of kind `kind` (a key that is the whole
    /// value and nothing more).
    fn exactly(&self, kind: usize, value: &[u8]) -> Range<u32> {
        let span = self.kinds[kind].clone();
        let keys = &self.keys[span.clone()];
        let lo = keys.partition_point(|(k, _)| &k[1..] < value);
        let hi = lo + keys[lo..].partition_point(|(k, _)| &k[1..] == value);
        (span.start + lo) as u32..(span.start + hi) as u32
    }

    /// Call `each` with each range of slots whose targets this entity of
    /// read content mentions.
    pub(crate) fn mentioned_by(&self, e: &EntityRef, each: &mut dyn FnMut(Range<u32>)) {
        self.probe(e, false, each)
    }

    /// Call `each` with each range of slots whose targets this entity of
    /// what the user typed or trusted vouches for. Nothing hidden is
    /// trusted.
    pub(crate) fn trusted_by(&self, e: &EntityRef, each: &mut dyn FnMut(Range<u32>)) {
        if !e.hidden {
            self.probe(e, true, each)
        }
    }

    fn probe(&self, e: &EntityRef, trust: bool, each: &mut dyn FnMut(Range<u32>)) {
        let mut mark = |r: Range<u32>| {
            if !r.is_empty() {
                each(r);
            }
        };
        match e.kind {
            // The words of what the user typed, or of what a person sees
            // of a read: names and accounts, as whole terms.
            EntityKind::Request | EntityKind::Handle | EntityKind::Named | EntityKind::Asked => {}
            EntityKind::Words => {
                if let Some((ac, slots)) = &self.names {
                    for m in ac.find_overlapping_iter(e.value.as_bytes()) {
                        let slot = slots[m.pattern().as_usize()];
                        mark(slot..slot + 1);
                    }
                }
            }
            EntityKind::Email | EntityKind::Phone => {
                let kind = if e.kind == EntityKind::Email { EMAIL } else { PHONE };
                if !self.kinds[kind].is_empty() {
                    let lower = lowercase(&e.value);
                    mark(self.with_prefix(kind, || lower.bytes().chain([0])));
                }
            }
            EntityKind::Domain => {
                if !self.kinds[DOMAIN].is_empty() {
                    let lower = lowercase(&e.value);
                    let v = lower.trim_end_matches('.').as_bytes();
                    mark(self.with_prefix(DOMAIN, || v.iter().rev().copied().chain([b'.'])));
                }
            }
            EntityKind::Url => {
                // Parsed only when a link target has its host.
                let host = crate::entities::host_of(&e.value);
                if host.is_some_and(|h| self.link_hosts.contains(&h))
                    && let Some(u) = parse_link(&e.value)
                {
                    if trust {
                        let prefix = origin_and_path(&u);
                        mark(self.with_prefix(TRUSTED_LINK, || prefix.bytes()));
                    } else {
                        mark(self.exactly(LINK, link_key(&u).as_bytes()));
                    }
                }
            }
        }
        // Accounts in the values of entities of text (not in the gate's own
        // items: a request's proper names hold the digits of its dates).
        if let (Some((ac, slots)), false) = (
            &self.accounts,
            matches!(e.kind, EntityKind::Words | EntityKind::Request | EntityKind::Named | EntityKind::Asked),
        ) {
            let digits: Vec<u8> = e.value.bytes().filter(|&b| b != b' ' && b != b'-').collect();
            for m in ac.find_overlapping_iter(&digits[..]) {
                let slot = slots[m.pattern().as_usize()];
                mark(slot..slot + 1);
            }
        }
    }

    /// The slots of address targets that are this sender's address.
    pub(crate) fn sender(&self, sender: &str, each: &mut dyn FnMut(Range<u32>)) {
        if self.kinds[EMAIL].is_empty() {
            return;
        }
        let lower = lowercase(sender);
        let r = self.with_prefix(EMAIL, || lower.bytes().chain([0]));
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

    /// The relations, pair by pair, written the plain way: `trust` for
    /// what the user vouched for, else what read content mentioned.
    fn relates(trust: bool, kind: TargetKind, value: &str, e: &EntityRef) -> bool {
        if trust && e.hidden {
            return false;
        }
        let v = value.to_lowercase();
        let account = {
            let digits: String = e.value.chars().filter(|c| *c != ' ' && *c != '-').collect();
            kind == TargetKind::Account && digits.to_ascii_lowercase().contains(v.as_str())
        };
        account
            || match (kind, e.kind) {
                (TargetKind::Url, EntityKind::Url) => match (parse_link(value), parse_link(&e.value)) {
                    (Some(t), Some(u)) if trust => trust_key(&t).starts_with(&origin_and_path(&u)),
                    (Some(t), Some(u)) => link_key(&t) == link_key(&u),
                    _ => false,
                },
                (TargetKind::Domain, EntityKind::Domain) => {
                    let v = v.trim_end_matches('.');
                    let ev = e.value.to_lowercase();
                    let ev = ev.trim_end_matches('.');
                    v == ev || v.strip_suffix(ev).is_some_and(|head| head.ends_with('.'))
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
            ":8080",
            ":443",
            "\\",
            "%2F",
        ];
        let kinds = [
            TargetKind::Email,
            TargetKind::Url,
            TargetKind::Domain,
            TargetKind::Phone,
            TargetKind::Account,
            TargetKind::Unknown,
        ];
        let ekinds = [EntityKind::Email, EntityKind::Url, EntityKind::Domain, EntityKind::Phone];
        let mut rng = Lcg::new(7);
        let (mut hits, mut trusted) = (0, 0);
        for _ in 0..10_000 {
            let found: Vec<(TargetKind, String)> =
                (0..1 + rng.below(6)).map(|_| (kinds[rng.below(kinds.len())], rng.join(&bits, 5))).collect();
            let wanted = Wanted::new(&found, false);
            for _ in 0..8 {
                let e = EntityRef {
                    kind: ekinds[rng.below(ekinds.len())],
                    value: Cow::Owned(rng.join(&bits, 6)),
                    hidden: rng.below(4) == 0,
                };
                for trust in [false, true] {
                    let mut ranges = Vec::new();
                    if trust {
                        wanted.trusted_by(&e, &mut |r| ranges.push(r));
                    } else {
                        wanted.mentioned_by(&e, &mut |r| ranges.push(r));
                    }
                    let got = wanted.covered(ranges);
                    let want: Vec<bool> = found.iter().map(|(k, v)| relates(trust, *k, v, &e)).collect();
                    assert_eq!(got, want, "trust {trust}: {found:?} {e:?}");
                    let n = want.iter().filter(|&&b| b).count();
                    if trust { trusted += n } else { hits += n }
                }
            }
        }
        assert!(hits > 1000 && trusted > 1000, "too few cases where an entity relates to a target: {hits} {trusted}");
    }

    fn trusts(target: (TargetKind, &str), entity: (EntityKind, &str)) -> bool {
        let w = Wanted::new(&[(target.0, target.1.to_string())], false);
        let e = EntityRef { kind: entity.0, value: Cow::Borrowed(entity.1), hidden: false };
        let mut r = Vec::new();
        w.trusted_by(&e, &mut |x| r.push(x));
        w.covered(r)[0]
    }

    /// Trust compares parsed things: scheme, host and port, a path below the
    /// trusted one; a domain by its labels; never a string prefix.
    #[test]
    fn trust_compares_parsed_origins() {
        use EntityKind as E;
        use TargetKind as T;
        let gh = (E::Url, "https://github.com");
        for t in ["https://github.com/x", "https://GitHub.com:443/x?y=1", "https://github.com"] {
            assert!(trusts((T::Url, t), gh), "{t}");
        }
        for t in [
            "https://github.com@evil.test/x",
            "https://github.company.evil.test/x",
            "https://github.com.evil.test/x",
            "http://github.com/x",
            "https://github.com:8443/x",
            "https://evil.test\\@github.com/",
            "https://evil.test/https://github.com",
        ] {
            assert!(!trusts((T::Url, t), gh), "{t}");
        }
        let org = (E::Url, "https://github.com/org");
        assert!(trusts((T::Url, "https://github.com/org/repo"), org));
        assert!(trusts((T::Url, "https://github.com/org"), org));
        assert!(!trusts((T::Url, "https://github.com/organization"), org));
        assert!(!trusts((T::Url, "https://github.com/"), org));
        assert!(trusts((T::Domain, "x.a.example"), (E::Domain, "a.example")));
        assert!(!trusts((T::Domain, "a.example.evil.test"), (E::Domain, "a.example")));
        assert!(!trusts((T::Domain, "xa.example"), (E::Domain, "a.example")));
        assert!(trusts((T::Email, "Me@Home.test"), (E::Email, "me@home.test")));
        assert!(!trusts((T::Email, "me@home.test.evil.test"), (E::Email, "me@home.test")));
        assert!(!trusts((T::Unknown, "\"me\"@home.test"), (E::Email, "me@home.test")));
    }

    #[test]
    fn a_sender_is_the_same_address() {
        let found = vec![(TargetKind::Email, "Ap@Vendor.test".to_string()), (TargetKind::Domain, "vendor.test".into())];
        let w = Wanted::new(&found, false);
        let mut r = Vec::new();
        w.sender("ap@vendor.TEST", &mut |x| r.push(x));
        assert_eq!(w.covered(r), vec![true, false]);
        let mut r = Vec::new();
        w.sender("xap@vendor.test", &mut |x| r.push(x));
        assert_eq!(w.covered(r), vec![false, false]);
    }
}
