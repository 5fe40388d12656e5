//! What a call is aimed at: every address, link, domain, phone and account
//! number in its arguments, parsed (a link by the WHATWG URL parser, as a
//! browser reads it), and whatever looks aimed somewhere but does not parse
//! (`unknown`): limits and parse failures only ever add targets.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Call, DATA_VALUE_MIN, MAX_ARG_DEPTH, MAX_ARG_STRINGS};
use crate::patterns;
use crate::prebuilt::Matcher;

/// Something a call is aimed at.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Target {
    pub kind: TargetKind,
    pub value: String,
    /// Where it came from, relative to the ledger: untrusted (only untrusted
    /// content mentioned it), trusted, sender, new (nobody gave it), user.
    pub origin: Origin,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    Email,
    Url,
    Domain,
    Phone,
    Account,
    /// A name an argument gives (a channel, a user, a file, a hotel): the
    /// words of a value under a key that says where or whom, not what.
    /// Given when the user's words hold the same words in a row.
    Name,
    /// Something aimed somewhere that the gate could not read (a recipient
    /// it cannot parse, a link that does not parse, arguments past a
    /// limit): never trusted, never matched, judged as the content's.
    Unknown,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Origin {
    /// The user typed it or trusted it, or policy trusts it.
    Trusted,
    /// The sender of content that was read (a reply goes back to it).
    Sender,
    /// Only untrusted content mentioned it.
    Untrusted,
    /// Nobody gave it to the model.
    New,
}

/// Each address in `t`, leftmost first, not overlapping, as the regex
/// `[a-zA-Z0-9][a-zA-Z0-9._%+-]{0,63}@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,24}`
/// finds them (a test compares the two); by hand because building that
/// regex's automaton was a fifth of a gate process.
///
/// The shape makes it direct: a label runs to the next dot, so the labels
/// after `@` are fixed; the regex's greedy loop then takes the last label
/// start where two or more letters follow as the top-level domain. The
/// local part starts at the leftmost letter or digit at most 64 bytes
/// before the `@` in its run of local-part characters.
pub(super) fn emails_in(t: &str) -> Vec<std::ops::Range<usize>> {
    let b = t.as_bytes();
    let local = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-');
    let mut out = Vec::new();
    let mut from = 0;
    let mut at_search = 0;
    while let Some(at) = t[at_search..].find('@').map(|i| at_search + i) {
        at_search = at + 1;
        let mut run = at;
        while run > from && run > at.saturating_sub(64) && local(b[run - 1]) {
            run -= 1;
        }
        let Some(start) = (run..at).find(|&i| b[i].is_ascii_alphanumeric()) else { continue };
        // Label starts after the `@`: each label is followed by a dot.
        let mut best = None;
        let mut p = at + 1;
        loop {
            let end = p + b[p..].iter().take_while(|c| c.is_ascii_alphanumeric() || **c == b'-').count();
            let label = &b[p..end];
            let ok = !label.is_empty()
                && label.len() <= 63
                && label[0].is_ascii_alphanumeric()
                && label[label.len() - 1].is_ascii_alphanumeric()
                && b.get(end) == Some(&b'.');
            if !ok {
                break;
            }
            p = end + 1;
            let letters = b[p..].iter().take(24).take_while(|c| c.is_ascii_alphabetic()).count();
            if letters >= 2 {
                best = Some(p + letters);
            }
        }
        if let Some(end) = best {
            out.push(start..end);
            from = end;
            at_search = at_search.max(end);
        }
    }
    out
}
/// Each URL in `t`: an `http`, `https`, `ftp`, `ws` or `wss` scheme in any
/// case, starting a word (ASCII word characters), then `://` and everything
/// up to white space or one of `<>"'` and the backtick. Leftmost first, not
/// overlapping, as the regex `\b(?i:https?|ftp|wss?)://[^\s<>"'`]+` would
/// find them; by hand because that regex's compile time was a gate process's
/// largest cost.
fn urls_in(t: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = t[from..].find("://").map(|i| from + i) {
        let body = &t[p + 3..];
        let len =
            body.find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | '`')).unwrap_or(body.len());
        let start = ["https", "http", "ftp", "wss", "ws"].iter().find_map(|scheme| {
            let s = p.checked_sub(scheme.len())?;
            let word_before = s > 0 && (t.as_bytes()[s - 1].is_ascii_alphanumeric() || t.as_bytes()[s - 1] == b'_');
            (s >= from && !word_before && t.get(s..p)?.eq_ignore_ascii_case(scheme)).then_some(s)
        });
        match start {
            Some(s) if len > 0 => {
                out.push(s..p + 3 + len);
                from = p + 3 + len;
            }
            _ => from = p + 3,
        }
    }
    out
}

static IBAN_RE: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::GATE_IBAN_RE));
static ACCOUNT_RE: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::GATE_ACCOUNT_RE));
static PHONE_RE: LazyLock<Matcher> = LazyLock::new(|| Matcher::by_pattern(patterns::GATE_PHONE_RE));

/// Every string in the arguments, recursively (keys too: some tools put
/// addresses in keys), bounded in depth and count; true when the bound
/// left something out.
pub(super) fn strings(v: &Value, depth: usize, out: &mut Vec<String>) -> bool {
    if depth > MAX_ARG_DEPTH || out.len() >= MAX_ARG_STRINGS {
        return !matches!(v, Value::Null | Value::Bool(_));
    }
    let mut cut = false;
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => {
            for x in a {
                cut |= strings(x, depth + 1, out);
            }
        }
        Value::Object(o) => {
            for (k, x) in o {
                if out.len() >= MAX_ARG_STRINGS {
                    return true;
                }
                out.push(k.clone());
                cut |= strings(x, depth + 1, out);
            }
        }
        Value::Number(n) => out.push(n.to_string()),
        _ => {}
    }
    cut
}

/// Look-alike letters folded to Latin in a call's text (a path written with
/// a Cyrillic а), and whether anything changed.
pub fn fold_confusables(s: &str) -> (String, bool) {
    if s.is_ascii() {
        return (s.to_string(), false);
    }
    let mut out = String::with_capacity(s.len());
    let mut changed = false;
    for c in s.chars() {
        match crate::detect::normalize::skeleton_ascii(c) {
            Some(l) if !c.is_ascii() && (is_latin_lookalike(c) || !c.is_alphabetic()) => {
                out.push(l);
                changed = true;
            }
            _ => out.push(c),
        }
    }
    (out, changed)
}

fn is_latin_lookalike(c: char) -> bool {
    use unicode_script::{Script, UnicodeScript};
    !matches!(c.script(), Script::Latin | Script::Common | Script::Inherited) || (0xFF01..=0xFF5E).contains(&(c as u32))
}

/// Targets named in a call's arguments, and notes on look-alike letters
/// read as Latin.
pub fn targets_of(call: &Call) -> (Vec<(TargetKind, String)>, Vec<String>) {
    let mut texts = Vec::new();
    let cut = strings(&call.args, 0, &mut texts);
    let mut folded_notes = Vec::new();
    let mut found = Found::at_most(MAX_TARGETS);
    if cut {
        found.insert((TargetKind::Unknown, format!("{WALK_CUT} ({MAX_ARG_DEPTH} levels, {MAX_ARG_STRINGS} strings)")));
    }
    for raw in &texts {
        let (t, changed) = fold_confusables(raw);
        if changed {
            folded_notes.push(format!(
                "look-alike letters in the arguments were read as Latin: {:?} → {:?}",
                crate::escape::shown(raw),
                t
            ));
        }
        // The text as written decides what the call reaches (a look-alike
        // letter is another domain); the folded text adds what it imitates.
        targets_in(raw, 0, &mut found);
        if changed {
            targets_in(&t, 0, &mut found);
        }
        // A bare domain as a whole argument ("example.com").
        if let Some(d) = bare_domain(&t) {
            found.insert((TargetKind::Domain, d));
        }
    }
    let cut = found.cut;
    let mut found: Vec<(TargetKind, String)> = found.set.into_iter().collect();
    // Past the most targets a call is judged by, the rest are one the gate
    // could not read (fail closed: a call of a million addresses is not
    // held in memory a million times over).
    if cut {
        found.push((TargetKind::Unknown, format!("{TARGETS_CUT} {MAX_TARGETS} (not read)")));
    }
    (found, folded_notes)
}

/// How the unknown targets that stand for what a call's limits left
/// unread begin.
const WALK_CUT: &str = "arguments past the walk limit";
const TARGETS_CUT: &str = "targets past the first";

/// Is this unknown target one that stands for arguments or targets past
/// the limits (anything may be there)?
pub(crate) fn past_limits(kind: TargetKind, value: &str) -> bool {
    kind == TargetKind::Unknown && (value.starts_with(WALK_CUT) || value.starts_with(TARGETS_CUT))
}

/// At most this many targets are read from one call; past them, the rest
/// are one unknown target.
pub const MAX_TARGETS: usize = 4096;

/// Targets found so far: each once, at most `most` of them (past that,
/// `cut`).
struct Found {
    set: BTreeSet<(TargetKind, String)>,
    most: usize,
    cut: bool,
}

impl Found {
    fn at_most(most: usize) -> Found {
        Found { set: BTreeSet::new(), most, cut: false }
    }

    fn all() -> Found {
        Found::at_most(usize::MAX)
    }

    fn insert(&mut self, t: (TargetKind, String)) {
        if self.set.len() < self.most || self.set.contains(&t) {
            self.set.insert(t);
        } else {
            self.cut = true;
        }
    }

    fn is_empty(&self) -> bool {
        self.set.is_empty()
    }
}

/// Encoded layers opened to look for targets (a base64 `raw` MIME message
/// holds its recipients one layer down).
const MAX_LAYERS: usize = 2;
/// A base64 run at least this long is decoded and read for targets.
const MIN_BLOB: usize = 64;
/// What an unparsed target shows of itself.
const MAX_SHOWN: usize = 80;

/// The targets in one text.
fn targets_in(t: &str, layer: usize, found: &mut Found) {
    // What each kind takes is set aside before the next kind looks.
    let mut taken = Taken::default();
    // Each pattern runs only when the text could hold a match: most
    // arguments are short words, and the patterns cost to compile.
    let digits = t.bytes().filter(u8::is_ascii_digit).take(8).count();
    if t.contains("://") {
        for m in urls_in(t) {
            add_link(t[m.clone()].trim_end_matches(['.', ',', ')', ']', ';', '\'', '"']), found);
            taken.add(m);
        }
    }
    taken.settle();
    if t.contains(':') {
        for (m, link) in other_links(t) {
            if !taken.overlaps(m.clone()) {
                match link {
                    Some(l) => add_link(&l, found),
                    None => {
                        found.insert((TargetKind::Unknown, shown(&t[m.clone()])));
                    }
                }
                taken.add(m);
            }
        }
    }
    taken.settle();
    for m in schemeless_links(t) {
        if !taken.overlaps(m.clone()) {
            add_link(&format!("https://{}", &t[m.clone()]), found);
            taken.add(m);
        }
    }
    taken.settle();
    if t.contains('@') {
        for m in emails_in(t) {
            if taken.overlaps(m.start..m.start + 1) {
                continue;
            }
            let e = t[m.clone()].to_lowercase();
            // An address that runs on into characters an address does not
            // take (a soft hyphen, a zero-width space, an ideographic full
            // stop, `_`), or that a route or another `@` comes before: a
            // mail program may read more of it than the match (IDNA maps
            // `me@corp.example\u{ad}.evil.test` to a subdomain of
            // evil.test). The match alone would be a prefix of it.
            if runs_on(t, m.clone()) {
                found.insert((TargetKind::Unknown, shown(&t[m.start..t.floor_char_boundary(t.len().min(m.end + 16))])));
            }
            if let Some((_, d)) = e.rsplit_once('@') {
                found.insert((TargetKind::Domain, d.to_string()));
            }
            found.insert((TargetKind::Email, e));
            taken.add(m);
        }
        taken.settle();
        // An `@` aimed at a host that no address or link accounts for: a
        // quoted local part, an IP literal, a domain outside ASCII.
        // One pass per white-space-separated token (its last dot and last
        // byte outside ASCII known), so a token of many `@` costs its
        // length, not its length per `@`.
        let b = t.as_bytes();
        let mut start = 0;
        while start < b.len() {
            let end = b[start..].iter().position(u8::is_ascii_whitespace).map_or(b.len(), |p| start + p);
            let token = &t[start..end];
            if token.contains('@') {
                let last_dot = token.rfind('.');
                let last_wide = token.bytes().rposition(|c| !c.is_ascii());
                for at in memchr::memchr_iter(b'@', token.as_bytes()) {
                    if taken.overlaps(start + at..start + at + 1) {
                        continue;
                    }
                    if unparsed_recipient(token, at, last_dot, last_wide) {
                        found.insert((TargetKind::Unknown, shown(token)));
                        break;
                    }
                }
            }
            start = end + 1;
        }
    }
    let ibans: Vec<_> = if digits >= 4 { IBAN_RE.find_iter(t).collect() } else { Vec::new() };
    for m in ibans {
        found.insert((TargetKind::Account, m.as_str().replace(' ', "")));
        taken.add(m.range());
    }
    taken.settle();
    let phones: Vec<_> = if digits >= 7 { PHONE_RE.find_iter(t).collect() } else { Vec::new() };
    for m in phones {
        if taken.overlaps(m.range()) {
            continue;
        }
        let digits: String = m.as_str().chars().filter(|c| c.is_ascii_digit() || *c == '+').collect();
        found.insert((TargetKind::Phone, digits));
        taken.add(m.range());
    }
    taken.settle();
    let accounts: Vec<_> = if digits >= 8 { ACCOUNT_RE.find_iter(t).collect() } else { Vec::new() };
    for m in accounts {
        if taken.overlaps(m.range()) {
            continue;
        }
        found.insert((TargetKind::Account, m.as_str().to_string()));
    }
    if layer < MAX_LAYERS {
        for blob in base64_blobs(t) {
            if let Some(text) = decode_blob(blob) {
                targets_in(&text, layer + 1, found);
            }
        }
    }
}

/// An address match `m` in `t` whose neighbours continue it: a letter,
/// digit, `_`, `-`, an invisible character or a dot other than `.` after it; a
/// `:`, `@`, `!` or `%` before it.
fn runs_on(t: &str, m: std::ops::Range<usize>) -> bool {
    let after = t[m.end..].chars().next().is_some_and(|c| {
        c.is_alphanumeric()
            || matches!(c, '_' | '-' | '\u{3002}' | '\u{ff61}' | '\u{fe52}' | '\u{ff0e}' | '\u{2024}')
            || crate::escape::is_invisible(c)
    });
    // A route (`@evil.test:me@…`, `evil!me@…`) or another `@` just before;
    // `mailto:` and `to:` are not routes.
    let head = &t[t.floor_char_boundary(m.start.saturating_sub(255))..m.start];
    let before = match head.chars().next_back() {
        Some('@' | '!' | '%') => true,
        Some(':') => head.rsplit(char::is_whitespace).next().is_some_and(|w| w.starts_with('@')),
        _ => false,
    };
    after || before
}

/// The accounts (IBANs and account numbers) in `t`, as the gate reads a
/// call's, without spaces or dashes.
pub(crate) fn accounts_in(t: &str) -> Vec<String> {
    let mut found = Found::all();
    targets_in(t, MAX_LAYERS, &mut found);
    found
        .set
        .into_iter()
        .filter(|(k, _)| *k == TargetKind::Account)
        .map(|(_, v)| v.chars().filter(|&c| c != ' ' && c != '-').collect())
        .collect()
}

/// Links a person wrote without a scheme (`git.example/org/repo`), as the
/// gate reads them in a call: `https://` and the text.
pub(crate) fn schemeless_links_in(t: &str) -> Vec<String> {
    let mut found = Found::all();
    for m in schemeless_links(t) {
        add_link(&format!("https://{}", &t[m]), &mut found);
    }
    found.set.into_iter().filter(|(k, _)| *k == TargetKind::Url).map(|(_, v)| v).collect()
}

/// A link parsed as a browser parses it: the link, and its host as a
/// domain; one that does not parse is an unknown target.
fn add_link(raw: &str, found: &mut Found) {
    match url::Url::parse(raw) {
        Ok(u) => match u.host_str() {
            Some(h) if !h.is_empty() => {
                found.insert((TargetKind::Domain, h.trim_end_matches('.').to_ascii_lowercase()));
                found.insert((TargetKind::Url, u.to_string()));
            }
            _ => {
                found.insert((TargetKind::Unknown, shown(raw)));
            }
        },
        Err(_) => {
            found.insert((TargetKind::Unknown, shown(raw)));
        }
    }
}

/// A target the gate could not read, as it is shown in a reason.
fn shown(s: &str) -> String {
    let mut out: String = s.chars().take(MAX_SHOWN).collect();
    if out.len() < s.len() {
        out.push('…');
    }
    crate::escape::shown(&out)
}

/// Links `urls_in` does not take, each a white-space-separated word: a
/// special scheme a browser reads without its `//` (`https:evil.test/x`,
/// `https:/evil.test`, `https:\\evil.test`), given as the link it parses
/// to; and any other scheme with `://` (`gopher://`, `smb://`, `ldap://`),
/// which the gate does not read: none (an unknown target).
fn other_links(t: &str) -> Vec<(std::ops::Range<usize>, Option<String>)> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    let mut start = 0;
    while start < b.len() {
        let end = b[start..].iter().position(u8::is_ascii_whitespace).map_or(b.len(), |p| start + p);
        let word = t[start..end].trim_start_matches(['"', '\'', '(', '<', '[']);
        let at = start + (end - start - word.len());
        if let Some(colon) = word.find(':') {
            let scheme = &word[..colon];
            let rest = &word[colon + 1..];
            let lower = scheme.to_ascii_lowercase();
            let special = matches!(lower.as_str(), "http" | "https" | "ftp" | "ws" | "wss");
            let named = !scheme.is_empty()
                && scheme.len() <= 32
                && scheme.bytes().next().is_some_and(|c| c.is_ascii_alphabetic())
                && scheme.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'));
            if named && special && !rest.starts_with("//") && !rest.is_empty() {
                let link = url::Url::parse(word.trim_end_matches(['.', ',', ')', ']', ';', '\'', '"'])).ok();
                out.push((at..end, link.map(|u| u.to_string())));
            } else if named && !special && rest.starts_with("//") && rest.len() > 2 {
                out.push((at..end, None));
            }
        }
        start = end + 1;
    }
    out
}

/// Links written without a scheme: a host of two or more labels with a
/// top-level domain of letters (not a file extension), then a path, query
/// or fragment (`evil.test/c?d=1`), or a host starting `www.`, or one
/// after `//`. Each is a whitespace-separated token (quotes and brackets
/// around it cut).
fn schemeless_links(t: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let b = t.as_bytes();
    let is_cut = |c: u8| {
        c.is_ascii_whitespace()
            || matches!(c, b'"' | b'\'' | b'<' | b'>' | b'(' | b')' | b'[' | b']' | b'{' | b'}' | b',' | b';' | b'`')
    };
    let mut i = 0;
    while i < b.len() {
        if is_cut(b[i]) {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !is_cut(b[i]) {
            i += 1;
        }
        let mut token = start..i;
        let mut tok = &t[token.clone()];
        if tok.contains("://") {
            continue;
        }
        if let Some(rest) = tok.strip_prefix("//") {
            token.start += 2;
            tok = rest;
        }
        let host_end = tok.find(['/', '?', '#']).unwrap_or(tok.len());
        let host = tok[..host_end].split(':').next().unwrap_or("");
        let www = host.len() > 4 && host.get(..4).is_some_and(|w| w.eq_ignore_ascii_case("www."));
        let tld = host.rsplit('.').next().unwrap_or("");
        let ipv4 = host.split('.').count() == 4
            && host.split('.').all(|l| !l.is_empty() && l.len() <= 3 && l.bytes().all(|c| c.is_ascii_digit()))
            && host_end < tok.len();
        let shaped = ipv4
            || host.contains('.')
                && !host.starts_with('.')
                && host.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'.' || c == b'-')
                && (2..=24).contains(&tld.len())
                && tld.bytes().all(|c| c.is_ascii_alphabetic())
                && !is_file_extension(&tld.to_ascii_lowercase());
        if shaped && (www || host_end < tok.len() || token.start > start) {
            out.push(token);
        }
    }
    out
}

/// The token around an `@` that aims at a host the address scanner did not
/// read: something before the `@`, and after it a dotted name, a bracketed
/// IP literal or letters outside ASCII. Mentions (`@name`), decorators and
/// package scopes start with the `@` and are not recipients.
fn unparsed_recipient(token: &str, at: usize, last_dot: Option<usize>, last_wide: Option<usize>) -> bool {
    if at == 0 || at + 1 == token.len() {
        return false;
    }
    let after = &token[at + 1..];
    let host_like = after.starts_with('[') || last_dot.is_some_and(|d| d > at) || last_wide.is_some_and(|w| w > at);
    let first = after.chars().next();
    host_like && first.is_some_and(|c| c.is_alphanumeric() || c == '[')
}

/// Runs of base64 (either alphabet) long enough to hold a message.
fn base64_blobs(t: &str) -> impl Iterator<Item = &str> {
    t.split(|c: char| c.is_ascii_whitespace() || matches!(c, '"' | '\'' | ',' | ';' | ':')).filter(|w| {
        w.len() >= MIN_BLOB
            && w.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'-' | b'_' | b'='))
    })
}

/// A base64 run decoded to text, if it is text.
fn decode_blob(blob: &str) -> Option<String> {
    use base64::Engine as _;
    use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
    let config = GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent);
    let standard = GeneralPurpose::new(&base64::alphabet::STANDARD, config);
    let url_safe = GeneralPurpose::new(&base64::alphabet::URL_SAFE, config);
    let bytes = standard.decode(blob).or_else(|_| url_safe.decode(blob)).ok()?;
    String::from_utf8(bytes).ok()
}

/// Stretches of an argument that a more specific kind of target already
/// took. Each kind's matches are added, then settled (sorted, with the
/// furthest end reached so far beside each) before the next kind asks
/// whether a match overlaps any: a binary search.
#[derive(Default)]
struct Taken {
    ranges: Vec<std::ops::Range<usize>>,
    /// `reach[i]`: the largest end among the settled `ranges[..=i]`.
    reach: Vec<usize>,
}

impl Taken {
    fn add(&mut self, r: std::ops::Range<usize>) {
        self.ranges.push(r);
    }

    fn settle(&mut self) {
        self.ranges.sort_by_key(|t| t.start);
        let mut far = 0;
        self.reach = self
            .ranges
            .iter()
            .map(|t| {
                far = far.max(t.end);
                far
            })
            .collect();
    }

    /// Does `r` overlap a settled range?
    fn overlaps(&self, r: std::ops::Range<usize>) -> bool {
        let settled = &self.ranges[..self.reach.len()];
        let i = settled.partition_point(|t| t.start < r.end);
        i > 0 && self.reach[i - 1] > r.start
    }
}

/// Extensions that look like top-level domains in a bare argument but are
/// file names (`notes.md`, `main.rs`).
pub(super) fn is_file_extension(tld: &str) -> bool {
    matches!(
        tld,
        "md" | "rs"
            | "py"
            | "js"
            | "ts"
            | "sh"
            | "txt"
            | "json"
            | "toml"
            | "yaml"
            | "yml"
            | "lock"
            | "html"
            | "css"
            | "go"
            | "rb"
            | "pl"
            | "zip"
            | "gz"
            | "tar"
            | "pdf"
            | "png"
            | "jpg"
            | "gif"
            | "csv"
            | "log"
            | "xml"
            | "c"
            | "h"
            | "cpp"
            | "java"
            | "kt"
            | "swift"
            | "mov"
            | "mp4"
            | "doc"
            | "docx"
            | "xls"
            | "xlsx"
            | "eml"
            | "ics"
            | "bak"
            | "tmp"
            | "cfg"
            | "conf"
            | "ini"
            | "env"
    )
}

/// Where a link carries data out, if it does: a long encoded value (or
/// one with spaces or an `@`) in its query, fragment or path, or a long
/// encoded label in front of its domain. Dots count as part of a value
/// (`a.b.c` tokens); hashes and UUIDs in a path are names, not data.
pub(super) fn url_carries_data(link: &str) -> Option<&'static str> {
    let u = url::Url::parse(link).ok()?;
    let pieces = |s: &str| s.split(['&', '=', ';', '/']).any(|v| data_shaped(v, false)) || data_shaped(s, false);
    if u.query_pairs().any(|(k, v)| data_shaped(&k, false) || data_shaped(&v, false)) {
        return Some("query");
    }
    if u.fragment().is_some_and(pieces) {
        return Some("fragment");
    }
    if u.path_segments().is_some_and(|mut segs| segs.any(|s| data_shaped(s, true))) {
        return Some("path");
    }
    // One hash or UUID in a path is a name (a commit); more are data cut
    // into hash-sized pieces.
    if u.path_segments().is_some_and(|segs| segs.filter(|s| s.len() >= 32 && data_shaped(s, false)).count() >= 2) {
        return Some("path");
    }
    if u.password().is_some() || data_shaped(u.username(), false) {
        return Some("userinfo");
    }
    let host = u.host_str().unwrap_or("");
    let labels: Vec<&str> = host.split('.').collect();
    // Labels in front of the last two (`<data>.evil.test`, or data cut into
    // short labels, `ab12.cd34.ef56.gh78.evil.test`).
    if labels.len() > 2 {
        let front = &labels[..labels.len() - 2];
        let len: usize = front.iter().map(|l| l.len()).sum();
        if len >= SUBDOMAIN_DATA_MIN && front.iter().any(|l| l.bytes().any(|b| b.is_ascii_digit())) {
            return Some("subdomain");
        }
    }
    None
}

/// A label in front of a domain this long, with a digit, carries data
/// (DNS exfiltration writes its payload as hex or base32 labels).
const SUBDOMAIN_DATA_MIN: usize = 20;

/// A value that looks like data: at least `DATA_VALUE_MIN` characters of an
/// encoding's alphabet (base64, base64url, hex, with dots and padding)
/// with letters and digits, or text with spaces or an `@`. In a path
/// (`path`), a hex hash or a UUID is a name.
fn data_shaped(v: &str, path: bool) -> bool {
    let v = percent_encoding::percent_decode_str(v).decode_utf8_lossy();
    let v = v.trim_end_matches('=');
    if v.len() < DATA_VALUE_MIN {
        return false;
    }
    if v.contains(' ') || v.contains('@') {
        return true;
    }
    // Nine digits or more (a card, an account, an identity number), or a
    // long run of letters with no separator (a passphrase, base32).
    if v.bytes().all(|b| b.is_ascii_digit()) && v.len() >= 9 && !path {
        return true;
    }
    if v.bytes().all(|b| b.is_ascii_alphabetic()) && v.len() >= 24 {
        return true;
    }
    let encoded = v.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'-' | b'_' | b'.' | b'='))
        && v.bytes().any(|b| b.is_ascii_digit())
        && v.bytes().any(|b| b.is_ascii_alphabetic());
    if encoded && path {
        let hex = |s: &str| s.bytes().all(|b| b.is_ascii_hexdigit());
        let hash = hex(v) && matches!(v.len(), 32 | 40 | 64);
        let uuid = v.len() == 36 && v.split('-').map(str::len).eq([8, 4, 4, 4, 12]) && hex(&v.replace('-', ""));
        return !hash && !uuid;
    }
    encoded
}

/// Text as a name is compared: its runs of letters and digits, lower case,
/// a `-` between two that only joining marks separate and a space between
/// others, and a space at each end (`" pay bill-march-2024-txt "`), so a
/// name is found in text by a substring search that respects whole terms
/// (`sync` is not found in `weekly-sync`).
pub fn words(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push(' ');
    // Between two runs of letters and digits: `-` when only joining marks
    // stand there (`weekly-sync`, `bill.txt`, `a_b`), so a name matches a
    // whole term, not part of one; a space otherwise.
    let mut gap: Option<bool> = None;
    for c in s.chars() {
        if c.is_alphanumeric() {
            match gap.take() {
                Some(true) if out.len() > 1 => out.push('-'),
                Some(_) if out.len() > 1 => out.push(' '),
                _ => {}
            }
            out.extend(c.to_lowercase());
        } else {
            let joins = matches!(c, '-' | '_' | '.' | ':' | '@' | '+' | '~');
            gap = Some(gap.unwrap_or(true) && joins);
        }
    }
    out.push(' ');
    out
}

/// A person's or a thing's name as names are compared across reads and
/// the request: [`words`] of it with accents taken off and `ß` as `ss`
/// (`José García` and `Jose Garcia` are one name, so neither spelling
/// hides the other), without end spaces.
pub fn fold_name(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let plain: String = s
        .nfkd()
        .filter(|c| !unicode_normalization::char::is_combining_mark(*c))
        .flat_map(|c| if c == 'ß' { ['s', 's'].into_iter().take(2) } else { [c, c].into_iter().take(1) })
        .collect();
    words(&plain).trim().to_string()
}

/// At most this many names per call; the rest are one unknown target.
pub const MAX_NAMES: usize = 64;
/// A value under a naming key longer than this is not read for names: it
/// counts as past the limit (an unknown target).
pub const MAX_NAME_SCAN: usize = 4096;
/// A name longer than this (in bytes of its words) is never given.
pub const MAX_NAME_BYTES: usize = 200;

/// A key whose last word says its value is data (what is sent, when, how
/// much), not where or to whom (`email_body`, `start_time`; not
/// `message_recipient`): a value under any other key is a name.
fn data_key(key: &str) -> bool {
    super::category::name_words(key).last().is_some_and(|w| {
        matches!(
            w.as_str(),
            "body"
                | "content"
                | "contents"
                | "text"
                | "message"
                | "msg"
                | "subject"
                | "title"
                | "description"
                | "desc"
                | "summary"
                | "note"
                | "notes"
                | "comment"
                | "caption"
                | "prompt"
                | "reason"
                | "details"
                | "html"
                | "markdown"
                | "snippet"
                | "question"
                | "answer"
                | "instructions"
                | "date"
                | "time"
                | "day"
                | "start"
                | "end"
                | "datetime"
                | "timestamp"
                | "when"
                | "due"
                | "deadline"
                | "duration"
                | "amount"
                | "price"
                | "cost"
                | "total"
                | "quantity"
                | "qty"
                | "count"
                | "n"
                | "limit"
                | "offset"
                | "size"
                | "recurring"
                | "recurrence"
                | "frequency"
                | "interval"
                | "timezone"
                | "tz"
                | "currency"
                | "rating"
                | "location"
                | "format"
                | "language"
                | "lang"
                | "password"
                | "passphrase"
                | "passcode"
                | "pin"
                // How a thing looks, chosen from a tool's fixed set
                // (`transparency: transparent`, `color: white`): never
                // where or to whom, nor what the call does (a status, a
                // method of payment, a response are the harm itself).
                | "style"
                | "transparency"
                | "color"
                | "colour"
                | "sort"
        )
    })
}

/// What a key says of the values under it, for the gate's reading of
/// where a call's targets stand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// The thing acted on (`repo`, `channel`, `file`, `folder`…): in an
    /// access call, whatever is not one of these is whom it lets in.
    Resource,
    /// How much is granted (`role`, `visibility`, `permission`, `type`…):
    /// never taken from content.
    Grant,
    /// Who gets a message (`to`, `cc`, `participants`…).
    Recipient,
}

fn role_of(key: &str) -> Option<Role> {
    let words = super::category::name_words(key);
    let last = words.last().map(String::as_str).unwrap_or("");
    if recipient_key(key) && !matches!(last, "channel" | "channels" | "share" | "with") {
        return Some(Role::Recipient);
    }
    match last {
        "repo" | "repos" | "repository" | "repositories" | "org" | "organization" | "organisation" | "team"
        | "project" | "channel" | "channels" | "branch" | "file" | "files" | "doc" | "document" | "folder"
        | "drive" | "workspace" | "space" | "board" | "calendar" | "event" | "path" | "thread" | "message"
        | "issue" | "pr" | "number" | "sheet" | "site" | "page" | "item" | "product" | "sku" | "order" => {
            Some(Role::Resource)
        }
        "role" | "roles" | "visibility" | "type" | "scope" | "scopes" | "audience" | "access" | "sharing"
        | "permission" | "permissions" | "privacy" | "level" | "privilege" | "privileges" => Some(Role::Grant),
        _ => None,
    }
}

/// The values (lower case) under keys of this role, at any depth; a key
/// of another role below resets it. A value under a recipient key that is
/// an object counts by its keys too (`"attendees": {"U0EVIL": true}`).
/// Past `MAX_NAMES` values the list is cut: the bool says so (a caller
/// reads a cut list as holding anything).
pub(super) fn under_role(args: &Value, role: Role) -> (Vec<String>, bool) {
    fn walk(v: &Value, under: bool, role: Role, depth: usize, out: &mut Vec<String>) {
        if out.len() > MAX_NAMES {
            return;
        }
        if depth > MAX_ARG_DEPTH {
            // Too deep to read: as cut as too many.
            out.resize(MAX_NAMES + 1, String::new());
            return;
        }
        match v {
            Value::String(s) if under => out.push(s.trim().to_lowercase()),
            Value::Number(n) if under => out.push(n.to_string()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, under, role, depth + 1, out)),
            Value::Object(o) => o.iter().for_each(|(k, x)| {
                if under && role == Role::Recipient {
                    out.push(k.trim().to_lowercase());
                }
                let here = role_of(k).map_or(under, |r| r == role);
                walk(x, here, role, depth + 1, out)
            }),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(args, false, role, 0, &mut out);
    let cut = out.len() > MAX_NAMES;
    (out, cut)
}

/// The values (lower case) under keys that say whom or where a call
/// reaches (`to`, `channel`, `users`, `share_with`), at any depth; a list
/// of ids in one value (`"U1,U2"`) gives each.
pub(super) fn whom_of(args: &Value) -> Vec<String> {
    fn walk(v: &Value, under: bool, depth: usize, out: &mut Vec<String>) {
        if depth > MAX_ARG_DEPTH || out.len() > MAX_NAMES {
            return;
        }
        match v {
            Value::String(s) if under => out.extend(
                s.split(if s.trim().contains(char::is_whitespace) { '\n' } else { ',' })
                    .map(|p| p.trim().to_lowercase()),
            ),
            Value::Number(n) if under => out.push(n.to_string()),
            Value::Array(a) => a.iter().for_each(|x| walk(x, under, depth + 1, out)),
            Value::Object(o) => o.iter().for_each(|(k, x)| walk(x, under || recipient_key(k), depth + 1, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(args, false, 0, &mut out);
    out
}

/// A whole argument that is a domain name (`example.com`, not `notes.txt`).
pub(super) fn bare_domain(t: &str) -> Option<String> {
    let trimmed = t.trim();
    if trimmed.contains(['/', '@', ' '])
        || !trimmed.contains('.')
        || crate::entities::host_of(&format!("https://{trimmed}")).is_none()
    {
        return None;
    }
    let lower = trimmed.to_lowercase();
    let tld = lower.rsplit('.').next().unwrap_or("");
    (tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()) && !is_file_extension(tld)).then_some(lower)
}

/// Words too common to name anything alone.
fn common(w: &str) -> bool {
    matches!(
        w,
        "a" | "an"
            | "the"
            | "to"
            | "of"
            | "in"
            | "on"
            | "at"
            | "by"
            | "for"
            | "and"
            | "or"
            | "is"
            | "it"
            | "my"
            | "me"
            | "i"
            | "you"
            | "your"
            | "we"
            | "our"
            | "us"
            | "this"
            | "that"
            | "with"
            | "from"
            | "as"
            | "be"
            | "please"
            | "new"
            | "yes"
            | "no"
            // The caller's own by definition (`calendarId: primary`).
            | "primary"
            | "default"
            | "self"
    )
}

/// The names a call's arguments give: each string or number under a key
/// that is not a data key (the key of the nearest object), unless it holds
/// an address, link, domain, phone or account (those are judged as such).
/// Past `MAX_NAMES`, or past the walk limits, the rest is one unknown
/// target (a limit only raises a decision).
pub(super) fn names_of(args: &Value) -> (Vec<String>, bool) {
    /// `aimed`: a key on the way here says whom the value is for
    /// (`recipients: [{"text": …}]`), so even a data key under it names.
    fn walk(v: &Value, key: Option<&str>, aimed: bool, depth: usize, out: &mut Vec<String>, seen: &mut usize) -> bool {
        *seen += 1;
        if depth > MAX_ARG_DEPTH || *seen > MAX_ARG_STRINGS {
            return true;
        }
        let leaf: std::borrow::Cow<'_, str> = match v {
            Value::String(s) => std::borrow::Cow::Borrowed(s),
            Value::Number(n) => std::borrow::Cow::Owned(n.to_string()),
            Value::Array(a) => return a.iter().fold(false, |cut, x| walk(x, key, aimed, depth + 1, out, seen) | cut),
            Value::Object(o) => {
                // A set written as a map under a key that says whom it is
                // for (`"to": {"evil-channel": true}`, `"users": {"U07": 1}`):
                // its keys are the names. A key over a string or an object
                // is a field's name (`"emailAddress": {…}`).
                let aimed_here = aimed || key.is_some_and(recipient_key);
                let mut cut = false;
                for (k, x) in o {
                    if aimed_here && matches!(x, Value::Bool(_) | Value::Null | Value::Number(_)) {
                        cut |= walk(&Value::String(k.clone()), None, true, depth + 1, out, seen);
                    }
                    cut |= walk(x, Some(k), aimed || recipient_key(k), depth + 1, out, seen);
                }
                return cut;
            }
            _ => return false,
        };
        if key.is_some_and(data_key) && !aimed {
            return false;
        }
        // A value this long names nothing a person typed: past the limit.
        if leaf.len() > MAX_NAME_SCAN {
            return true;
        }
        let mut found = Found::all();
        targets_in(&leaf, 0, &mut found);
        let mut pieces: Vec<&str> = Vec::new();
        if found.is_empty() && leaf.contains(',') && !leaf.trim().contains(char::is_whitespace) {
            // A list of ids in one value (`"users": "U02NOORH,U04TREYES"`):
            // each is a name of its own.
            pieces.extend(leaf.split(',').map(str::trim));
        } else if found.is_empty() {
            pieces.push(leaf.trim());
        } else {
            // Beside an address or a link, every other item of a list
            // (`U0EVIL,me@corp.example`) and every other word of an item
            // (`evil-user https://…`) is a name of its own; a display name
            // in `Dora <dora@x.test>` is not.
            for item in leaf.split([',', ';', '\n']) {
                let mut f = Found::all();
                targets_in(item, 0, &mut f);
                if f.is_empty() {
                    pieces.push(item.trim());
                } else if !item.contains('<') {
                    for w in item.split_whitespace() {
                        let mut f = Found::all();
                        targets_in(w, 0, &mut f);
                        if f.is_empty() {
                            pieces.push(w);
                        }
                    }
                }
            }
        }
        for piece in pieces {
            let w = words(piece);
            let only_common = w.trim().split([' ', '-']).all(common) && !w.trim().is_empty();
            if piece.is_empty() || bare_domain(piece).is_some() || only_common {
                continue;
            }
            if out.len() >= MAX_NAMES {
                return true;
            }
            if !out.iter().any(|n| n == piece) {
                out.push(piece.to_string());
            }
        }
        false
    }
    let mut out = Vec::new();
    let cut = walk(args, None, false, 0, &mut out, &mut 0);
    (out, cut)
}

/// A key whose last word says the value is whom or where something goes.
fn recipient_key(key: &str) -> bool {
    super::category::name_words(key).last().is_some_and(|w| {
        matches!(
            w.as_str(),
            "to" | "cc"
                | "bcc"
                | "recipient"
                | "recipients"
                | "participant"
                | "participants"
                | "attendee"
                | "attendees"
                | "invitee"
                | "invitees"
                | "member"
                | "members"
                | "user"
                | "users"
                | "channel"
                | "channels"
                | "share"
                | "with"
                | "invite"
                | "target"
                | "targets"
                | "destination"
                | "destinations"
                | "people"
                | "assignee"
                | "assignees"
                | "reviewer"
                | "reviewers"
                | "collaborator"
                | "collaborators"
        )
    })
}

/// A name that reads as the same letters to a person and to the gate:
/// nothing invisible, no combining mark, no letter that lower-cases into
/// ASCII from outside it (the Kelvin sign), and at least one letter or
/// digit. Any other name is never the user's.
pub(super) fn plain_name(v: &str) -> bool {
    v.chars().any(char::is_alphanumeric)
        && v.chars().all(|c| {
            if c.is_ascii() {
                return !c.is_ascii_control() || c == '\t';
            }
            let folds_into_ascii = c.is_alphanumeric() && c.to_lowercase().all(|l| l.is_ascii());
            (c.is_alphanumeric() && !folds_into_ascii)
                || c.is_whitespace() && c != '\u{200b}'
                || matches!(c, '’' | '‘' | '“' | '”' | '–' | '—' | '·' | '«' | '»')
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gate::parse_call;

    proptest::proptest! {
        /// Any text in any argument (letters outside ASCII next to dots,
        /// slashes, `@` and `www.`) is read without a panic, and each name
        /// it gives is text the call holds.
        #[test]
        fn any_argument_text_is_read(s in "[a-zA-Z0-9áéñü한中\u{ad}\u{200b}\u{3002}.@:/ _-]{0,40}") {
            let c = Call::new("send_email".into(), serde_json::json!({"to": s, "x": [s.clone()]}));
            let _ = targets_of(&c);
            let (names, _) = names_of(&c.args);
            for n in names {
                proptest::prop_assert!(s.contains(&n));
            }
        }
    }

    /// A list of values under a role too long or too deep to read whole
    /// says it was cut (its callers then take nothing from content).
    #[test]
    fn values_under_a_role_say_when_they_are_cut() {
        let few = serde_json::json!({"to": ["a", "b"], "role": "reader"});
        assert_eq!(under_role(&few, Role::Recipient), (vec!["a".to_string(), "b".to_string()], false));
        assert_eq!(under_role(&few, Role::Grant), (vec!["reader".to_string()], false));
        let many: Vec<String> = (0..=MAX_NAMES).map(|i| format!("u{i}")).collect();
        assert!(under_role(&serde_json::json!({ "to": many }), Role::Recipient).1);
        let mut deep = serde_json::json!("admin");
        for _ in 0..=MAX_ARG_DEPTH {
            deep = serde_json::json!({ "role": deep });
        }
        assert!(under_role(&deep, Role::Grant).1);
    }

    #[test]
    fn names_are_where_and_to_whom() {
        let c = parse_call(r#"{"tool":"send_channel_message","args":{"channel":"general","body":"hi","start_time":"10:00","to":"Tomás y Ana","cc":"a@b.test","message_recipient":"Eve"}}"#).unwrap();
        let (names, cut) = names_of(&c.args);
        assert_eq!(names, vec!["general".to_string(), "Eve".to_string(), "Tomás y Ana".to_string()]);
        assert!(!cut);
        assert_eq!(words("Bill-March_2024.txt"), " bill-march-2024-txt ");
        assert_eq!(words("Dora's site, #weekly-sync!"), " dora s site weekly-sync ");
        for odd in
            ["weekly\u{200b}sync", "weekly\u{ad}sync", "wee\u{212a}ly-sync", "weekly\u{301}-sync", "/", "~", ".."]
        {
            assert!(!plain_name(odd), "{odd:?}");
        }
        assert!(plain_name("Tomás y Ana") && plain_name("weekly-sync") && plain_name("13"));
    }

    /// A set written as a map under a key that says whom it is for names
    /// its keys; a field's name over a string or an object names nothing.
    #[test]
    fn keys_of_a_set_under_a_recipient_key_are_names() {
        let c = parse_call(
            r#"{"tool":"post","args":{"to":{"evil-channel":true},"users":{"U07EVIL":1,"U08X":null},"meta":{"seen":true},"toRecipients":[{"emailAddress":{"address":"d@x.test","name":"Dora"}}]}}"#,
        )
        .unwrap();
        let (names, _) = names_of(&c.args);
        for n in ["evil-channel", "U07EVIL", "U08X", "Dora"] {
            assert!(names.iter().any(|x| x == n), "{n}: {names:?}");
        }
        for n in ["seen", "emailAddress", "address", "name", "meta"] {
            assert!(!names.iter().any(|x| x == n), "{n}: {names:?}");
        }
    }

    #[test]
    fn an_address_that_runs_on_is_not_its_prefix() {
        for to in [
            "me@corp.example\u{ad}.evil.test",
            "me@corp.example\u{200b}.evil.test",
            "me@corp.example\u{3002}evil.test",
            "me@corp.example_x.evil.test",
            "@evil.test:me@corp.example",
        ] {
            let c = Call::new("send_email".into(), serde_json::json!({"to": to}));
            let (t, _) = targets_of(&c);
            assert!(t.iter().any(|(k, _)| *k == TargetKind::Unknown), "{to:?}: {t:?}");
        }
        for fine in ["me@corp.example, you@corp.example.", "mailto:me@corp.example", "to:me@corp.example"] {
            let c = Call::new("send_email".into(), serde_json::json!({ "to": fine }));
            assert!(!targets_of(&c).0.iter().any(|(k, _)| *k == TargetKind::Unknown), "{fine}");
        }
    }

    #[test]
    fn targets_are_found_anywhere_in_the_arguments() {
        let c = parse_call(r#"{"tool":"send","args":{"to":["A@Evil.test"],"body":{"text":"see https://x.test/a?b=1 or call +1 415 555 0100","iban":"DE89 3704 0044 0532 0130 00"}}}"#).unwrap();
        let (t, _) = targets_of(&c);
        let kinds: Vec<(TargetKind, &str)> = t.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert!(kinds.contains(&(TargetKind::Email, "a@evil.test")), "{kinds:?}");
        assert!(kinds.contains(&(TargetKind::Url, "https://x.test/a?b=1")), "{kinds:?}");
        assert!(kinds.contains(&(TargetKind::Account, "DE89370400440532013000")), "{kinds:?}");
        assert!(kinds.iter().any(|(k, _)| *k == TargetKind::Phone), "{kinds:?}");
    }

    #[test]
    fn confusables_in_paths_are_folded_and_reported() {
        let (s, changed) = fold_confusables("/\u{430}pt/secret");
        assert_eq!(s, "/apt/secret");
        assert!(changed);
        let (s, changed) = fold_confusables("/home/müller/notes");
        assert_eq!(s, "/home/müller/notes");
        assert!(!changed);
    }

    #[test]
    fn email_scanner_agrees_with_the_regex() {
        let re = regex::Regex::new(
            r"[a-zA-Z0-9][a-zA-Z0-9._%+-]{0,63}@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?\.)+[a-zA-Z]{2,24}",
        )
        .unwrap();
        let bits = [
            "a",
            "Z",
            "9",
            "ab",
            "com",
            "x1",
            "-",
            "_",
            "%",
            "+",
            ".",
            "..",
            "@",
            "@",
            "@",
            " ",
            "é",
            "\u{2028}",
            "<",
            "b.test",
            "a-b",
            "-a",
            "mail.co.uk",
            "abcdefghijklm",
            "0123456789abcdef",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            "user@x.io",
            "@-",
            ".@",
        ];
        let mut rng = crate::testing::Lcg::new(11);
        let mut found = 0;
        for n in 0..100_000 {
            // Some texts with long runs (the 64-byte local part, 63-byte
            // labels and 24-letter top-level domains).
            let text = if n % 4 == 0 { rng.join(&bits, 40) } else { rng.join(&bits, 10) };
            let want: Vec<_> = re.find_iter(&text).map(|m| m.range()).collect();
            found += want.len();
            assert_eq!(emails_in(&text), want, "{text:?}");
        }
        assert!(found > 20_000, "{found}");
    }

    #[test]
    fn url_scanner_agrees_with_the_regex() {
        let re =
            regex::Regex::new(r#"(?-u:\b)(?:[hH][tT][tT][pP][sS]?|[fF][tT][pP]|[wW][sS][sS]?)://[^\s<>"'`]+"#).unwrap();
        let bits = [
            "http", "HTTPS", "s", "ftp", "ws", "wss", "x", "_", "é", "://", ":", "/", "//", " ", "\u{a0}", "\u{2028}",
            "<", ">", "\"", "'", "`", "a.test", "?q=1", "h", "tt", "p", "Ws", "1", "-", ".", "http://", "HTTPS://",
            "wss://", "ftp://", "x://",
        ];
        let mut rng = crate::testing::Lcg::new(5);
        let mut found = 0;
        for _ in 0..50_000 {
            let text = rng.join(&bits, 8);
            let want: Vec<_> = re.find_iter(&text).map(|m| m.range()).collect();
            found += want.len();
            assert_eq!(urls_in(&text), want, "{text:?}");
        }
        assert!(found > 5_000, "{found}");
    }
}
