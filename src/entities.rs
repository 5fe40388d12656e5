//! Every email address, link, domain and phone number a document mentions,
//! hidden text and link targets included: what the gate compares a tool
//! call's targets against.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use crate::patterns;
use crate::prebuilt::{self, Matcher};

use crate::document::{Document, Entity, EntityKind};

/// Top-level domains accepted for a bare domain (`example.com` without a
/// scheme). File extensions that are also TLDs (`.md`, `.rs`, `.py`, `.sh`,
/// `.zip`) are left out: in prose they are far more often file names.
const BARE_TLDS: &[&str] = &[
    "com", "net", "org", "io", "dev", "app", "ai", "co", "uk", "de", "fr", "es", "it", "nl", "ru", "cn", "jp", "kr",
    "in", "br", "au", "ca", "us", "eu", "info", "biz", "xyz", "online", "site", "tech", "cloud", "me", "tv", "gov",
    "edu", "mil", "int", "ch", "se", "no", "dk", "fi", "pl", "cz", "at", "be", "pt", "ie", "nz", "tr", "ua", "il",
    "sg", "hk", "tw", "mx", "ar", "za", "test", "example", "invalid", "local", "internal", "top", "club", "shop",
];

pub(crate) static EMAIL: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::ENTITIES_EMAIL));
pub(crate) static URL: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::ENTITIES_URL));
static DOMAIN: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::ENTITIES_DOMAIN));
/// What every `URL` match holds: a scheme's `://`, or `www.` in any case
/// (`url_at` says whether one starts at a byte of `URL_FIRST`).
pub(crate) const URL_FIRST: &[u8] = b":wW";

pub(crate) fn url_at(rest: &[u8]) -> bool {
    rest.starts_with(b"://") || rest.get(..4).is_some_and(|w| w.eq_ignore_ascii_case(b"www."))
}
static PHONE: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::ENTITIES_PHONE));

/// A running collection: each entity once, hidden only if every mention is.
#[derive(Default)]
struct Collector {
    seen: BTreeMap<(EntityKind, String), bool>,
}

impl Collector {
    fn add(&mut self, kind: EntityKind, value: String, hidden: bool) {
        if value.is_empty() {
            return;
        }
        self.seen.entry((kind, value)).and_modify(|h| *h &= hidden).or_insert(hidden);
    }

    fn url(&mut self, url: &str, hidden: bool) {
        let url = url.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']', '}', '\'', '"', '*', '_']);
        if url.len() < 8 {
            return;
        }
        if let Some(host) = host_of(url) {
            self.add(EntityKind::Domain, host, hidden);
        }
        self.add(EntityKind::Url, url.to_string(), hidden);
    }

    fn scan(&mut self, text: &str, hidden: bool) {
        let mut taken: Vec<std::ops::Range<usize>> = Vec::new();
        // A link holds `://` or `www.` (in any case), an address an `@`, and
        // neither a line break: only the lines with one are searched.
        for r in prebuilt::matches_in_lines(&URL, text, URL_FIRST, url_at) {
            self.url(&text[r.clone()], hidden);
            taken.push(r);
        }
        // Both lists come in order of position: one sweep finds the link an
        // address starts inside, if any.
        let links = taken.len();
        let mut li = 0;
        for r in prebuilt::matches_in_lines(&EMAIL, text, b"@", |_| true) {
            while li < links && taken[li].end <= r.start {
                li += 1;
            }
            if li < links && taken[li].contains(&r.start) {
                continue;
            }
            let v = text[r.clone()].to_lowercase();
            if let Some((_, domain)) = v.rsplit_once('@') {
                self.add(EntityKind::Domain, domain.to_string(), hidden);
            }
            self.add(EntityKind::Email, v, hidden);
            taken.push(r);
        }
        taken.sort_by_key(|r| r.start);
        let inside = |taken: &[std::ops::Range<usize>], r: std::ops::Range<usize>| {
            let i = taken.partition_point(|t| t.start <= r.start);
            i > 0 && taken[i - 1].end > r.start
        };
        // Bare domains: only whitespace-separated tokens holding a dot are
        // looked at, found from their dots, so prose costs a search for dots.
        let b = text.as_bytes();
        let mut token_end = 0;
        for dot in memchr::memchr_iter(b'.', b) {
            if dot < token_end {
                continue;
            }
            let at = b[..dot].iter().rposition(u8::is_ascii_whitespace).map_or(0, |p| p + 1);
            token_end = b[dot..].iter().position(u8::is_ascii_whitespace).map_or(b.len(), |p| dot + p);
            let token = &text[at..token_end];
            if !may_name_bare_domain(token.as_bytes()) {
                continue;
            }
            for m in DOMAIN.find_iter(token) {
                let r = at + m.start()..at + m.end();
                if inside(&taken, r.clone()) {
                    continue;
                }
                // Not part of a path or an address: `docs/x.com`, `a@b.com`.
                let before = text[..r.start].chars().next_back();
                if matches!(before, Some('/' | '@' | '.' | '-' | '_')) {
                    continue;
                }
                // The top-level domain (the pattern's group 1) is what
                // follows the match's last dot.
                let tld = m.as_str().rsplit('.').next().unwrap_or_default().to_ascii_lowercase();
                if BARE_TLDS.contains(&tld.as_str()) {
                    self.add(EntityKind::Domain, m.as_str().to_lowercase(), hidden);
                }
            }
        }
        // A phone number has at least eight digits; most prose has fewer in all.
        let enough_digits = has_digits(text.as_bytes(), 8);
        let phones = if enough_digits { PHONE.find_iter(text).collect() } else { Vec::new() };
        for m in phones {
            if inside(&taken, m.range()) {
                continue;
            }
            if let Some(p) = phone(text, m.range()) {
                self.add(EntityKind::Phone, p, hidden);
            }
        }
    }
}

/// Could `DOMAIN` find a domain in this token that `scan` would keep? Its
/// top-level domain is a whole run of ASCII letters (2 to 24) after a dot
/// that follows a letter or digit, with no word character after it, and
/// `scan` keeps it only when the run is one of `BARE_TLDS`. A token without
/// such a run (a version number, `self.len()`, most dotted code) skips the
/// regex; with one, the regex decides as before.
fn may_name_bare_domain(b: &[u8]) -> bool {
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    b.iter().enumerate().any(|(i, &c)| {
        if c != b'.' || i == 0 || !b[i - 1].is_ascii_alphanumeric() {
            return false;
        }
        let run = &b[i + 1..];
        let len = run.iter().take_while(|c| c.is_ascii_alphabetic()).count();
        (2..=24).contains(&len)
            && !run.get(len).is_some_and(|&c| word(c))
            && BARE_TLDS.iter().any(|t| t.as_bytes().eq_ignore_ascii_case(&run[..len]))
    })
}

/// Does `b` hold at least `n` ASCII digits? (Counted a block at a time.)
fn has_digits(b: &[u8], n: usize) -> bool {
    let mut count = 0;
    for block in b.chunks(256) {
        count += block.iter().filter(|c| c.is_ascii_digit()).count();
        if count >= n {
            return true;
        }
    }
    false
}

/// Whitespace-separated tokens with their byte offsets.
pub(crate) fn tokens(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let start = i;
        i = token_end(b, i + 1);
        Some((start, &text[start..i]))
    })
}

/// The first ASCII whitespace byte at or after `i`, or the end: eight bytes
/// at a time. A byte below 0x21 sets its high bit in `x - 0x21…` where `x`'s
/// own high bit is clear (a borrow can also flag a byte above one, so each
/// flagged byte is checked); bytes of non-ASCII characters are never flagged.
fn token_end(b: &[u8], mut i: usize) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    while let Some(chunk) = b.get(i..i + 8) {
        let x = u64::from_le_bytes(chunk.try_into().expect("eight bytes"));
        let mut flagged = x.wrapping_sub(ONES * 0x21) & !x & HIGH;
        while flagged != 0 {
            let k = (flagged.trailing_zeros() / 8) as usize;
            if chunk[k].is_ascii_whitespace() {
                return i + k;
            }
            flagged &= flagged - 1;
        }
        i += 8;
    }
    while i < b.len() && !b[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The host of a URL, lowercased, without credentials or port.
pub fn host_of(url: &str) -> Option<String> {
    let rest = match url.find("://") {
        Some(i) => &url[i + 3..],
        None if url.to_ascii_lowercase().starts_with("www.") => url,
        None => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    let host = authority.rsplit('@').next()?;
    let host = host.split(':').next()?.trim_end_matches('.');
    (!host.is_empty()).then(|| host.to_lowercase())
}

/// Digits of a phone number (`+` kept), or None for things that only look
/// like one: dates, times, versions, IP addresses, long plain numbers.
fn phone(text: &str, r: std::ops::Range<usize>) -> Option<String> {
    let s = &text[r.clone()];
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if !(8..=15).contains(&digits.len()) {
        return None;
    }
    let prev = text[..r.start].chars().next_back();
    let next = text[r.end..].chars().next();
    if matches!(prev, Some(c) if c.is_alphanumeric() || c == '.' || c == '/' || c == ':' || c == '-')
        || matches!(next, Some(c) if c.is_alphanumeric() || c == '.' || c == '/' || c == ':')
    {
        return None;
    }
    // Dates (2024-05-01, 2024.05.01) and dotted quads are not phone numbers.
    let groups: Vec<&str> = s.split([' ', '.', '-']).filter(|g| !g.is_empty()).collect();
    if groups.first().is_some_and(|g| g.len() == 4 && (g.starts_with("19") || g.starts_with("20"))) && groups.len() == 3
    {
        return None;
    }
    if s.contains('.') && groups.len() == 4 && groups.iter().all(|g| g.len() <= 3) {
        return None;
    }
    let plus = if s.trim_start().starts_with('+') { "+" } else { "" };
    Some(format!("{plus}{digits}"))
}

/// Every entity in a loaded document: its parts (visible and hidden text),
/// link targets found in markup, and for email the header addresses.
pub fn extract(doc: &Document, links: &[String]) -> Vec<Entity> {
    let mut c = Collector::default();
    for part in &doc.parts {
        for span in &part.spans {
            c.scan(&part.text[span.range.clone()], span.hidden.is_some());
            if let Some(d) = &span.decoded {
                c.scan(d, true);
            }
        }
    }
    for l in links {
        if l.contains("://") || l.to_ascii_lowercase().starts_with("www.") {
            c.url(l, false);
        } else if let Some(addr) = l.strip_prefix("mailto:") {
            c.scan(addr, false);
        } else if let Some(num) = l.strip_prefix("tel:") {
            c.scan(num, false);
        }
    }
    if let Some(e) = &doc.email {
        for a in e.from.iter().chain(&e.to).chain(&e.cc).chain(&e.reply_to) {
            c.scan(a, false);
        }
    }
    c.seen.into_iter().map(|((kind, value), hidden)| Entity { kind, value, hidden }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::Kind;

    fn values(text: &str, kind: EntityKind) -> Vec<String> {
        let doc = Document::load(text.as_bytes().to_vec(), Kind::Text, "t");
        doc.entities.iter().filter(|e| e.kind == kind).map(|e| e.value.clone()).collect()
    }

    proptest::proptest! {
        /// The eight-bytes-at-a-time tokenizer splits exactly where a
        /// byte-by-byte one does, control bytes and non-ASCII included.
        #[test]
        fn tokens_split_on_ascii_whitespace(
            text in proptest::string::string_regex("([a-z0-9+/=]{0,20}|[ \t\n\r\x0b\x0c\x00-\x21]{1,3}|[é€𝄞\u{85}\u{a0}]){0,40}").unwrap()
        ) {
            let naive: Vec<(usize, &str)> = text
                .split(|c: char| c.is_ascii_whitespace())
                .scan(0, |at, t| { let start = *at; *at += t.len() + 1; Some((start, t)) })
                .filter(|(_, t)| !t.is_empty())
                .collect();
            proptest::prop_assert_eq!(tokens(&text).collect::<Vec<_>>(), naive);
        }
    }

    /// Each bare-domain match's top-level domain as the pattern's group 1
    /// gives it, when that is one `scan` keeps.
    fn kept_tlds(re: &regex::Regex, token: &str) -> Vec<String> {
        re.captures_iter(token).map(|c| c[1].to_lowercase()).filter(|t| BARE_TLDS.contains(&t.as_str())).collect()
    }

    #[test]
    fn bare_domain_shortcuts_change_nothing() {
        // `scan` skips a token `may_name_bare_domain` rules out, and reads a
        // match's top-level domain as what follows its last dot (not from
        // the capture group): on 200,000 random dotted tokens neither may
        // differ from the pattern's own answer.
        let re = crate::prebuilt::compile(patterns::ENTITIES_DOMAIN);
        let pieces = [
            "a",
            "Z",
            "x1",
            "0",
            "9",
            ".",
            ".",
            "..",
            "-",
            "_",
            "/",
            "@",
            "com",
            "COM",
            "io",
            "rs",
            "md",
            "test",
            "example",
            "internal",
            "\u{212a}",
            "\u{17f}",
            "é",
            "ｃｏｍ",
            "(",
            ")",
            "'",
            "abcdefghijklmnopqrstuvwxyz",
        ];
        let mut rng = crate::testing::Lcg::new(31);
        let mut kept = 0;
        for _ in 0..200_000 {
            let token = rng.join(&pieces, 9);
            let want = kept_tlds(&re, &token);
            if !want.is_empty() {
                kept += 1;
                assert!(may_name_bare_domain(token.as_bytes()), "{token:?} skipped, but it names {want:?}");
            }
            let by_dot: Vec<String> = re
                .find_iter(&token)
                .map(|m| m.as_str().rsplit('.').next().unwrap_or_default().to_ascii_lowercase())
                .filter(|t| BARE_TLDS.contains(&t.as_str()))
                .collect();
            assert_eq!(by_dot, want, "{token:?}");
        }
        assert!(kept > 2_000, "too few tokens with a kept domain to compare: {kept}");
    }

    #[test]
    fn emails_urls_domains() {
        let t = "Write to Dana.Smith@Example.com or see https://docs.example.org/a?b=1. Also evil.test and README.md.";
        assert_eq!(values(t, EntityKind::Email), vec!["dana.smith@example.com"]);
        assert_eq!(values(t, EntityKind::Url), vec!["https://docs.example.org/a?b=1"]);
        assert_eq!(values(t, EntityKind::Domain), vec!["docs.example.org", "evil.test", "example.com"]);
    }

    #[test]
    fn phones_but_not_dates_or_versions() {
        assert_eq!(values("Call +1 (415) 555-0100 today", EntityKind::Phone), vec!["+14155550100"]);
        assert!(values("on 2024-05-01 at 10.0.0.1, version 1.2.3.4", EntityKind::Phone).is_empty());
        assert!(values("order 123456789012345678", EntityKind::Phone).is_empty());
    }

    #[test]
    fn hidden_mentions_are_marked() {
        let doc = Document::load(b"see a.example.com <!-- mail x@evil.test -->".to_vec(), Kind::Text, "t");
        let e = doc.entities.iter().find(|e| e.value == "x@evil.test").unwrap();
        assert!(e.hidden);
        let d = doc.entities.iter().find(|e| e.value == "a.example.com").unwrap();
        assert!(!d.hidden);
    }

    #[test]
    fn host_of_strips_credentials_and_ports() {
        assert_eq!(host_of("https://user:pw@Evil.test:8443/x"), Some("evil.test".into()));
        assert_eq!(host_of("www.example.com/a"), Some("www.example.com".into()));
        assert_eq!(host_of("mailto:x"), None);
    }
}
