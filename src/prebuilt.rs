//! The scanner's regexes (the rules, their context patterns and the fixed
//! patterns in `inertbox_rules::patterns`), compiled at build time and
//! rebuilt here.
//!
//! The build script writes each pattern's forward and reverse Thompson
//! NFA, state by state (for the rules, with `.` as a byte class of one
//! whole character, which is smaller), in the layout of
//! `inertbox_rules::blob`. Rebuilding an NFA from its states skips parsing
//! and UTF-8 compilation, about a fifth of the cost of compiling the
//! pattern; in a one-shot process the NFAs then run as lazy DFAs (the
//! engine the `regex` crate itself picks for these patterns), and a server
//! compiles the patterns with the `regex` crate instead (`SERVER` says
//! which, once per process). A pattern whose blob entry is missing or was
//! made from another pattern is compiled from its text instead, so a stale
//! blob can cost time, never a wrong answer. The tests check every entry
//! finds what the `regex` crate finds, both ways.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{LazyLock, OnceLock};

use inertbox_rules::blob;
use regex_automata::hybrid::dfa::{Cache as DfaCache, DFA};
use regex_automata::nfa::thompson::pikevm::{Cache as VmCache, PikeVM};
use regex_automata::util::captures::Captures;
use regex_automata::{Anchored, Input, Match, MatchError, MatchKind};

/// Is this process a server? Set once, before its first request, by the
/// servers (`hook serve`, `mcp`, `serve`: see `run_as_server`) and never
/// unset; a one-shot command (`scan`, `fence`, `gate`, `hook claude`)
/// leaves it unset. It decides, for the whole process, how every pattern
/// runs (docs/engines.md has the numbers):
///
/// - one-shot: each pattern's build-time NFAs, rebuilt when the pattern is
///   first needed and run as lazy DFAs; the rule keys found by their first
///   bytes; a woken rule's window dropped when it lacks the strings every
///   match needs. Nothing is built that the text does not need: a hook
///   answers in about a millisecond.
/// - server: each pattern compiled by the `regex` crate when first needed
///   (its literal prefilters search faster once built), the rule keys
///   found with an Aho-Corasick DFA (about 1.5 ms to build, then faster
///   than the first-bytes search), no required-strings check (with the
///   regexes compiled it costs more than the searches it saves). The
///   building is paid once, for many requests.
static SERVER: AtomicBool = AtomicBool::new(false);

/// Run every pattern as a server does, from now on (see `SERVER`).
pub(crate) fn run_as_server() {
    SERVER.store(true, Ordering::Relaxed);
}

/// Does this process run its patterns as a server does (see `SERVER`)?
pub(crate) fn serving() -> bool {
    SERVER.load(Ordering::Relaxed)
}

static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rules.nfa"));

include!(concat!(env!("OUT_DIR"), "/flat.rs"));

/// Blob entry `index`'s pattern as the `regex` crate compiles it (the build script
/// writes each out as its parsed syntax: no case-insensitive flag, no Perl
/// class, so the crate is built without its Unicode tables).
fn flat(index: usize) -> &'static str {
    let start = index.checked_sub(1).map_or(0, |i| FLAT_ENDS[i] as usize);
    &FLAT_TEXT[start..FLAT_ENDS[index] as usize]
}

/// One pattern's matcher: rebuilt from its blob entry (number `index`, its
/// lazy-DFA caches' slot), or the pattern compiled.
pub(crate) struct Matcher {
    index: usize,
    engine: Engine,
    fallback: OnceLock<regex::Regex>,
}

enum Engine {
    /// Rebuilt from the build-time NFAs.
    Lazy(Box<Lazy>),
    /// Compiled from the pattern at run time.
    Compiled(regex::Regex),
}

/// The forward lazy DFA, which says whether a text holds a match and where
/// the first one ends, and the reverse one, which finds where it starts.
/// The reverse DFA is rebuilt only when the forward one, run anchored from
/// each position before a match's end, has cost too much to find the
/// starts (most windows a rule is woken for hold no match, and a few
/// matches' starts cost less to find so than an automaton to rebuild).
struct Lazy {
    fwd: DFA,
    /// The reverse NFA's place in the blob.
    rev_nfa: &'static [u8],
    rev: OnceLock<Option<DFA>>,
}

impl Lazy {
    fn rev(&self) -> Option<&DFA> {
        self.rev
            .get_or_init(|| {
                let rev = blob::Reader::new(self.rev_nfa).nfa()?;
                // As regex-automata's own lazy-DFA regex builds its reverse half.
                DFA::builder()
                    .configure(DFA::config().prefilter(None).specialize_start_states(false).match_kind(MatchKind::All))
                    .build_from_nfa(rev)
                    .ok()
            })
            .as_ref()
    }

    /// The leftmost-first match in `input`, as regex-automata's lazy-DFA
    /// `Regex::try_search` finds it, with the forward half's cache (and
    /// the states it holds) shared with the no-match checks. An error (the
    /// caller then asks the compiled pattern) when a DFA gives up or the
    /// reverse DFA cannot be rebuilt.
    fn search(&self, c: &mut Caches, input: &Input<'_>) -> Result<Option<Match>, MatchError> {
        let fwd = c.fwd.get_or_insert_with(|| self.fwd.create_cache());
        let Some(end) = self.fwd.try_search_fwd(fwd, input)? else { return Ok(None) };
        // An empty match where the search starts, or an anchored search:
        // the match starts where the search does.
        if input.start() == end.offset()
            || input.get_anchored() != Anchored::No
            || self.fwd.get_nfa().is_always_start_anchored()
        {
            return Ok(Some(Match::new(end.pattern(), input.start()..end.offset())));
        }
        // The match starts at the first position from which the forward
        // DFA, anchored, finds a match (it ends where this one does: the
        // leftmost start's leftmost-first match is the match). Each try
        // reads at most the bytes up to the end.
        let span = end.offset() - input.start();
        let cost = span.saturating_mul(span) / 2;
        if self.rev.get().is_none() && c.start_tries.saturating_add(cost) <= start_try_limit() {
            c.start_tries += cost;
            let fwd = c.fwd.as_mut().expect("made above");
            for at in input.start()..end.offset() {
                let from = input.clone().span(at..end.offset()).anchored(Anchored::Yes).earliest(false);
                match self.fwd.try_search_fwd(fwd, &from) {
                    Ok(Some(m)) if m.offset() == end.offset() => {
                        return Ok(Some(Match::new(end.pattern(), at..end.offset())));
                    }
                    Ok(None) => {}
                    // Not expected; the reverse DFA decides.
                    Ok(Some(_)) | Err(_) => break,
                }
            }
        }
        let rev = self.rev().ok_or(MatchError::gave_up(end.offset()))?;
        let cache = c.rev.get_or_insert_with(|| rev.create_cache());
        let back = input.clone().span(input.start()..end.offset()).anchored(Anchored::Yes).earliest(false);
        // A reverse search always matches where a forward one did.
        let start = rev.try_search_rev(cache, &back)?.ok_or(MatchError::gave_up(end.offset()))?;
        Ok(Some(Match::new(end.pattern(), start.offset()..end.offset())))
    }
}

/// The bytes the forward DFA may read finding match starts, per matcher and
/// thread, before the reverse DFA is rebuilt to find them (a rebuild costs
/// about as much as the forward DFA reading this many).
const START_TRIES: usize = 1 << 18;

#[cfg(not(test))]
fn start_try_limit() -> usize {
    START_TRIES
}

#[cfg(test)]
thread_local! {
    static START_TRY_LIMIT: std::cell::Cell<usize> = const { std::cell::Cell::new(START_TRIES) };
}

#[cfg(test)]
fn start_try_limit() -> usize {
    START_TRY_LIMIT.with(std::cell::Cell::get)
}

/// Runs `f` with match starts found only by the forward DFA (`usize::MAX`)
/// or only by the reverse one (0), so the tests check both ways.
#[cfg(test)]
pub(crate) fn with_start_try_limit<T>(limit: usize, f: impl FnOnce() -> T) -> T {
    let was = START_TRY_LIMIT.with(|l| l.replace(limit));
    let out = f();
    START_TRY_LIMIT.with(|l| l.set(was));
    out
}

/// A thread's caches for one matcher.
#[derive(Default)]
struct Caches {
    fwd: Option<DfaCache>,
    rev: Option<DfaCache>,
    /// Bytes (at most) the forward DFA has read finding match starts.
    start_tries: usize,
    vm: Option<(PikeVM, VmCache, Captures)>,
}

impl Matcher {
    /// The matcher for a pattern as the build script compiled it (a rule's
    /// `final_pattern`, a context pattern's `context_pattern`): from the
    /// blob entry made from it, else compiled now.
    pub(crate) fn new(pattern: &str) -> Matcher {
        let (index, engine) = match from_blob(pattern) {
            Some((index, lazy)) => (index, Engine::Lazy(Box::new(lazy))),
            None => (usize::MAX, Engine::Compiled(compile(pattern))),
        };
        Matcher { index, engine, fallback: OnceLock::new() }
    }

    /// A fixed pattern's matcher (one of `patterns::ALL`).
    pub(crate) fn by_pattern(pattern: &str) -> Matcher {
        let m = Matcher::new(&crate::patterns::blob_form(pattern));
        debug_assert!(m.is_prebuilt(), "add this pattern to patterns::ALL so the build script compiles it: {pattern}");
        m
    }

    /// Was this matcher rebuilt from the blob (not compiled at run time)?
    pub(crate) fn is_prebuilt(&self) -> bool {
        matches!(self.engine, Engine::Lazy(_))
    }

    /// The pattern compiled by the `regex` crate: a server's engine, and a
    /// one-shot process's when the blob's reverse NFA cannot be read or a
    /// lazy DFA stops (neither happens with these patterns).
    fn fallback(&self) -> &regex::Regex {
        self.fallback.get_or_init(|| compile(flat(self.index)))
    }

    /// Compile the pattern now, as a server runs it.
    pub(crate) fn compile_now(&self) {
        if self.is_prebuilt() {
            self.fallback();
        }
    }

    /// Leftmost-first matches, not overlapping, as `regex::Regex::find_iter`.
    pub(crate) fn for_each_match(&self, text: &str, each: impl FnMut(Range<usize>)) {
        self.find_iter_on(text, serving(), each)
    }

    /// The matches, as `regex::Regex::find_iter` gives them.
    pub(crate) fn find_iter<'t>(&self, text: &'t str) -> std::vec::IntoIter<Found<'t>> {
        let mut out = Vec::new();
        self.for_each_match(text, |range| out.push(Found { text, range }));
        out.into_iter()
    }

    /// `for_each_match` on the build-time automata, as a one-shot process
    /// runs them (the tests compare them with the `regex` crate).
    #[cfg(test)]
    pub(crate) fn find_iter_prebuilt(&self, text: &str, each: impl FnMut(Range<usize>)) {
        self.find_iter_on(text, false, each)
    }

    /// Matches as a server finds them (the written-out pattern compiled by
    /// the `regex` crate).
    #[cfg(test)]
    pub(crate) fn find_iter_server(&self, text: &str, each: impl FnMut(Range<usize>)) {
        self.find_iter_on(text, true, each)
    }

    #[cfg(test)]
    pub(crate) fn captures_iter_server(&self, text: &str, each: impl FnMut(&[Option<Range<usize>>])) {
        self.captures_iter_on(text, true, each)
    }

    #[cfg(test)]
    pub(crate) fn is_match_prebuilt(&self, text: &str) -> bool {
        self.is_match_on(text, false)
    }

    fn find_iter_on(&self, text: &str, compiled: bool, mut each: impl FnMut(Range<usize>)) {
        let lazy = match &self.engine {
            Engine::Compiled(re) => return re.find_iter(text).for_each(|m| each(m.range())),
            Engine::Lazy(_) if compiled => return self.fallback().find_iter(text).for_each(|m| each(m.range())),
            Engine::Lazy(lazy) => lazy,
        };
        let done = self.with_caches(|c| {
            let mut ranges = Vec::new();
            let mut it = regex_automata::util::iter::Searcher::new(Input::new(text));
            // A search that gives up goes to the compiled pattern (it does
            // not happen with these patterns).
            loop {
                match it.try_advance(|input| lazy.search(c, input)) {
                    Ok(Some(m)) => ranges.push(m.range()),
                    Ok(None) => break,
                    Err(_) => return false,
                }
            }
            ranges.into_iter().for_each(&mut each);
            true
        });
        if !done {
            self.fallback().find_iter(text).for_each(|m| each(m.range()));
        }
    }

    pub(crate) fn is_match(&self, text: &str) -> bool {
        self.is_match_on(text, serving())
    }

    /// Each match's capture groups (group 0 the whole match), as
    /// `regex::Regex::captures_iter` gives them.
    pub(crate) fn captures_iter<'t>(&self, text: &'t str) -> std::vec::IntoIter<Groups<'t>> {
        let mut out = Vec::new();
        self.captures_iter_on(text, serving(), |g| out.push(Groups { text, groups: g.to_vec() }));
        out.into_iter()
    }

    #[cfg(test)]
    pub(crate) fn captures_iter_prebuilt(&self, text: &str, each: impl FnMut(&[Option<Range<usize>>])) {
        self.captures_iter_on(text, false, each)
    }

    fn captures_iter_on(&self, text: &str, compiled: bool, mut each: impl FnMut(&[Option<Range<usize>>])) {
        let lazy = match &self.engine {
            Engine::Lazy(lazy) if !compiled => lazy,
            Engine::Compiled(re) => return captures_compiled(re, text, each),
            Engine::Lazy(_) => return captures_compiled(self.fallback(), text, each),
        };
        let mut matches = Vec::new();
        self.find_iter_on(text, false, |r| matches.push(r));
        if matches.is_empty() {
            return;
        }
        // A PikeVM on the forward NFA, run anchored on each match, finds
        // the groups (the lazy DFAs know only where a match starts and ends).
        let mut groups: Vec<Option<Range<usize>>> = Vec::new();
        self.with_caches(|c| {
            let (vm, cache, caps) = c.vm.get_or_insert_with(|| {
                let vm = PikeVM::new_from_nfa(lazy.fwd.get_nfa().clone()).expect("a PikeVM builds from any NFA");
                let cache = vm.create_cache();
                let caps = vm.create_captures();
                (vm, cache, caps)
            });
            for m in matches {
                vm.search(cache, &Input::new(text).span(m.clone()).anchored(Anchored::Yes), caps);
                groups.clear();
                groups.extend((0..caps.group_len()).map(|g| caps.get_group(g).map(|s| s.range())));
                // The PikeVM agrees with the DFAs on the whole match.
                if groups.first().cloned().flatten() != Some(m.clone()) {
                    groups.clear();
                    groups.push(Some(m));
                }
                each(&groups);
            }
        });
    }

    fn is_match_on(&self, text: &str, compiled: bool) -> bool {
        let lazy = match &self.engine {
            Engine::Compiled(re) => return re.is_match(text),
            Engine::Lazy(_) if compiled => return self.fallback().is_match(text),
            Engine::Lazy(lazy) => lazy,
        };
        let found = self.with_caches(|c| {
            let fwd = c.fwd.get_or_insert_with(|| lazy.fwd.create_cache());
            let input = Input::new(text).earliest(true);
            lazy.fwd.try_search_fwd(fwd, &input).map(|m| m.is_some())
        });
        found.unwrap_or_else(|_| self.fallback().is_match(text))
    }

    /// This matcher's lazy-DFA caches in the calling thread.
    fn with_caches<T>(&self, f: impl FnOnce(&mut Caches) -> T) -> T {
        CACHES.with(|caches| {
            let mut caches = caches.borrow_mut();
            if caches.len() <= self.index {
                caches.resize_with(self.index + 1, || None);
            }
            f(caches[self.index].get_or_insert_with(Box::default))
        })
    }
}

/// The matches of a pattern that never matches a line break, whose every
/// match holds a needle, and whose look-around sees a line break as it sees
/// the edge of a text (`(?-u:\b)`): searched only in the lines that hold a
/// needle, they are the matches a search of the whole text finds (none can
/// cross a line). A needle starts with one of the bytes `first` (one to
/// three), and `holds(rest)` says whether one starts at `rest[0]`. The
/// pattern's matcher is built only once a line holds a needle.
pub(crate) fn matches_in_lines(
    m: &LazyLock<Matcher>,
    text: &str,
    first: &[u8],
    holds: impl Fn(&[u8]) -> bool,
) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let next_needle = |from: usize| -> Option<usize> {
        let hay = &b[from..];
        let found = match *first {
            [x] => memchr::memchr_iter(x, hay).find(|&i| holds(&hay[i..])),
            [x, y] => memchr::memchr2_iter(x, y, hay).find(|&i| holds(&hay[i..])),
            [x, y, z] => memchr::memchr3_iter(x, y, z, hay).find(|&i| holds(&hay[i..])),
            _ => (0..hay.len()).find(|&i| first.contains(&hay[i]) && holds(&hay[i..])),
        };
        found.map(|i| from + i)
    };
    let mut out = Vec::new();
    let mut search =
        |l: Range<usize>| m.for_each_match(&text[l.clone()], |r| out.push(l.start + r.start..l.start + r.end));
    // The stretch of lines with a needle not searched yet.
    let mut lines: Option<Range<usize>> = None;
    let mut from = 0;
    while let Some(at) = (from < b.len()).then(|| next_needle(from)).flatten() {
        let start = b[from..at].iter().rposition(|&c| c == b'\n').map_or(from, |i| from + i + 1);
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i);
        // Lines next to each other are searched as one stretch.
        match &mut lines {
            Some(l) if start == l.end + 1 => l.end = end,
            _ => {
                if let Some(l) = lines.replace(start..end) {
                    search(l);
                }
            }
        }
        from = end;
    }
    if let Some(l) = lines {
        search(l);
    }
    out
}

/// A match in a text.
#[derive(Debug, Clone)]
pub(crate) struct Found<'t> {
    text: &'t str,
    range: Range<usize>,
}

impl<'t> Found<'t> {
    pub(crate) fn range(&self) -> Range<usize> {
        self.range.clone()
    }

    pub(crate) fn start(&self) -> usize {
        self.range.start
    }

    pub(crate) fn end(&self) -> usize {
        self.range.end
    }

    pub(crate) fn as_str(&self) -> &'t str {
        &self.text[self.range.clone()]
    }
}

/// A match's capture groups.
#[derive(Debug, Clone)]
pub(crate) struct Groups<'t> {
    text: &'t str,
    groups: Vec<Option<Range<usize>>>,
}

impl<'t> Groups<'t> {
    pub(crate) fn get(&self, i: usize) -> Option<Found<'t>> {
        let range = self.groups.get(i).cloned().flatten()?;
        Some(Found { text: self.text, range })
    }
}

impl std::ops::Index<usize> for Groups<'_> {
    type Output = str;

    /// Group `i`'s text; panics when the group did not take part (as
    /// `regex::Captures` does).
    fn index(&self, i: usize) -> &str {
        let r = self.groups.get(i).cloned().flatten().unwrap_or_else(|| panic!("no group {i}"));
        &self.text[r]
    }
}

thread_local! {
    /// Lazy-DFA caches, per matcher, per thread (a cache keeps the DFA
    /// states built so far), boxed when a matcher is first used: the slots
    /// of matchers a process never uses stay one word each.
    static CACHES: RefCell<Vec<Option<Box<Caches>>>> = const { RefCell::new(Vec::new()) };
}

/// The pattern compiled by the `regex` crate (the blob's fallback, and
/// what the tests compare the blob with).
pub(crate) fn compile(pattern: &str) -> regex::Regex {
    regex::RegexBuilder::new(pattern)
        .dot_matches_new_line(true)
        .size_limit(32 << 20)
        .build()
        .unwrap_or_else(|e| panic!("a rule does not compile: {e}"))
}

fn captures_compiled(re: &regex::Regex, text: &str, mut each: impl FnMut(&[Option<Range<usize>>])) {
    let mut groups = Vec::new();
    for c in re.captures_iter(text) {
        groups.clear();
        groups.extend(c.iter().map(|g| g.map(|m| m.range())));
        each(&groups);
    }
}

/// The blob entry made from this pattern (its number, and the forward
/// lazy DFA with the reverse NFA's bytes kept for later), if any.
fn from_blob(pattern: &str) -> Option<(usize, Lazy)> {
    let (i, data) = blob::entry(BLOB, pattern)?;
    let mut r = blob::Reader::new(data);
    let fwd = DFA::builder().build_from_nfa(r.nfa()?).ok()?;
    Some((i, Lazy { fwd, rev_nfa: r.rest(), rev: OnceLock::new() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Texts for the fixed patterns: corpus samples as written, and random
    /// strings of the pieces those patterns look for.
    fn texts() -> Vec<String> {
        let corpus = include_str!("../fixtures/corpus/scan-dev.jsonl");
        let mut out: Vec<String> = corpus
            .lines()
            .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
            .filter_map(|v| v.get("text").and_then(|t| t.as_str()).map(str::to_string))
            .collect();
        let bits = [
            "![alt](",
            "[text](",
            "](",
            "][",
            "]: ",
            "[ref]",
            ")",
            " \"title\"",
            "<img src=\"",
            "<IMG alt=x SRC=",
            ">",
            "https://",
            "HTTP://",
            "www.",
            "a.test",
            "/p?q=",
            "{{history}}",
            "${x}",
            "$(cmd)",
            "[[x]]",
            "<user_data>",
            "INSERT_USER_EMAIL_HERE",
            "your_password",
            "USER_ID",
            "me@corp.test",
            "+1 415 555 0100",
            "(415) 555-0100",
            "12345678901",
            "DE89 3704 0044 0532 0130 00",
            "%41%42%43%44",
            "\\u0041",
            "\\x41",
            "&#65;&#x42;",
            "<~",
            "~>",
            "87cURD]i,\"Ebo80",
            "vtaber",
            "CEBZCG",
            " ",
            "\n",
            "é",
            "日本",
            "_",
            "-",
            ".",
            "word",
            "<|im_start|>",
            "[INST]",
            "[/inst ]",
            "<<SYS>>",
            "< /Untrusted_Content",
            "＜untrusted content",
            "<system ",
            "</ASSISTANT>",
            "\"role\" :",
            "[INERTBOX v1 begin 0af]",
        ];
        let mut rng = crate::testing::Lcg::new(23);
        for _ in 0..4000 {
            out.push(rng.join(&bits, 12));
        }
        out
    }

    #[test]
    fn fixed_patterns_come_from_the_blob_and_agree_with_the_regex_crate() {
        // Match starts found by the forward DFA run anchored, then by the
        // reverse DFA.
        for limit in [usize::MAX, 0] {
            with_start_try_limit(limit, fixed_patterns_agree_with_the_regex_crate);
        }
    }

    fn fixed_patterns_agree_with_the_regex_crate() {
        let texts = texts();
        let mut found = 0;
        for p in crate::patterns::ALL {
            let ours = Matcher::by_pattern(p);
            assert!(ours.is_prebuilt(), "compiled at run time: {p}");
            let theirs = regex::Regex::new(p).unwrap();
            for t in &texts {
                let mut got = Vec::new();
                ours.captures_iter_prebuilt(t, |g| got.push(g.to_vec()));
                let want: Vec<Vec<Option<Range<usize>>>> =
                    theirs.captures_iter(t).map(|c| c.iter().map(|g| g.map(|m| m.range())).collect()).collect();
                assert_eq!(got, want, "{p} on {t:?}");
                assert_eq!(ours.is_match_prebuilt(t), !want.is_empty(), "{p} on {t:?}");
                found += want.len();
            }
        }
        assert!(found > 5000, "too few matches to compare: {found}");
    }

    #[test]
    fn line_searches_find_what_a_whole_text_search_finds() {
        // The patterns searched line by line (only the lines with a needle)
        // find what a search of the whole text finds; a mutation that
        // starts the search at the needle instead of the line fails this.
        use crate::patterns::*;
        type Holds = fn(&[u8]) -> bool;
        let cases: [(&LazyLock<Matcher>, &str, &[u8], Holds); 4] = [
            (&crate::detect::decode::PERCENT_RUN, DECODE_PERCENT_RUN, b"%", |_| true),
            (&crate::detect::decode::ESCAPE_RUN, DECODE_ESCAPE_RUN, b"\\", crate::detect::decode::escape_at),
            (&crate::entities::URL, ENTITIES_URL, crate::entities::URL_FIRST, crate::entities::url_at),
            (&crate::entities::EMAIL, ENTITIES_EMAIL, b"@", |_| true),
        ];
        let mut texts = texts();
        let mut rng = crate::testing::Lcg::new(41);
        let bits = [
            "%41",
            "%41%42%43",
            "\\u0041",
            "\\x4",
            "WwW.",
            "www.a.b",
            "ftp://",
            "x@y.test",
            "a",
            "é",
            " ",
            "\n",
            "\r\n",
            ".",
            "-",
        ];
        texts.extend((0..20_000).map(|_| rng.join(&bits, 24)));
        for (m, p, first, holds) in cases {
            let mut found = 0;
            for t in &texts {
                let mut whole = Vec::new();
                m.for_each_match(t, |r| whole.push(r));
                assert_eq!(matches_in_lines(m, t, first, holds), whole, "{p} on {t:?}");
                found += whole.len();
            }
            assert!(found > 1_000, "too few matches of {p} to compare: {found}");
        }
    }

    #[test]
    fn the_iterator_forms_agree_with_the_closure_form() {
        let m = Matcher::by_pattern(crate::patterns::LINKS_MD_LINK);
        let text = "see [a](https://x.test/a) and [b](<https://y.test/b> \"t\")";
        let urls: Vec<&str> = m.captures_iter(text).map(|c| c.get(1).unwrap().as_str()).collect();
        assert_eq!(urls, ["https://x.test/a", "https://y.test/b"]);
        assert_eq!(&m.captures_iter(text).next().unwrap()[1], "https://x.test/a");
        let first = m.find_iter(text).next().unwrap();
        assert_eq!((first.start(), first.end()), (3, 25));
        assert_eq!(first.as_str(), " [a](https://x.test/a)");
        assert!(m.find_iter("no links here").next().is_none());
    }

    /// No rule's lazy DFA builds more states than its cache holds on real
    /// mail: a pattern that lets counts overlap (a bounded gap after a
    /// start that text is full of, such as an apostrophe) makes the DFA
    /// tell apart every set of counts in flight, and a scan of the mail
    /// set spent a quarter of its time building the states of one rule
    /// (`addressed_to_ai.heading_multilingual`, docs/performance.md). A
    /// cache cleared while scanning is that sign. The mail set of the
    /// real-text benchmark (corpus-2's mail), scanned text by text in this
    /// thread, as a command does.
    #[test]
    fn no_rules_automaton_outgrows_its_cache_on_real_mail() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let jsonl = std::fs::read_to_string(root.join("fixtures/corpus-2/benign.jsonl")).expect("corpus-2");
        let mut bytes = 0;
        for line in jsonl.lines() {
            let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
            if !matches!(v["family"].as_str(), Some("mail" | "mailing_list")) {
                continue;
            }
            let text = v["text"].as_str().expect("text");
            bytes += text.len();
            let doc = crate::Document::load(text.as_bytes().to_vec(), crate::document::Kind::Auto, "mail");
            crate::detect::scan(&doc, &crate::detect::Options::default());
        }
        assert!(bytes > 100_000, "the mail set is {bytes} bytes");
        CACHES.with(|caches| {
            for (index, slot) in caches.borrow().iter().enumerate() {
                let cleared = slot.as_ref().and_then(|c| c.fwd.as_ref()).map_or(0, DfaCache::clear_count);
                assert_eq!(cleared, 0, "the lazy DFA of blob entry {index} filled its cache {cleared} times");
            }
        });
    }
}
