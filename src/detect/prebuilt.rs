//! The rule regexes, compiled at build time (build.rs) and rebuilt here.
//!
//! build.rs writes each rule's forward and reverse Thompson NFA, state by
//! state. Rebuilding an NFA from its states skips parsing and UTF-8
//! compilation, about a fifth of the cost of compiling the pattern; the
//! NFAs then run as lazy DFAs (the engine the `regex` crate itself picks
//! for these patterns). A rule whose blob entry is missing or was made
//! from another pattern is compiled from its text instead, so a stale
//! blob can cost time, never a wrong answer.

use std::cell::RefCell;
use std::ops::Range;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use regex_automata::hybrid::dfa::{Cache as DfaCache, DFA};
use regex_automata::hybrid::regex::{Cache, Regex as LazyRegex};
use regex_automata::nfa::thompson::{Builder, NFA, Transition};
use regex_automata::util::look::Look;
use regex_automata::util::primitives::StateID;
use regex_automata::{Input, MatchKind};

/// Bytes of text searched for rule keys in this process so far.
static SEARCHED: AtomicUsize = AtomicUsize::new(0);

/// After this many bytes a process counts as long-running (a server, a
/// batch scan): it then compiles patterns with the `regex` crate, whose
/// literal prefilters search faster, and builds the key DFA. A hook or a
/// one-file scan stays on the cheap-to-build path.
const LONG_RUNNING: usize = 2 << 20;

pub(crate) fn searched(bytes: usize) {
    SEARCHED.fetch_add(bytes, Ordering::Relaxed);
}

pub(crate) fn long_running() -> bool {
    SEARCHED.load(Ordering::Relaxed) >= LONG_RUNNING
}

static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rules.nfa"));
const MAGIC: &[u8; 8] = b"IBXNFA01";

/// One pattern's matcher: blob entry `index` (a rule, or after the rules a
/// context pattern), or the pattern compiled.
pub(crate) struct Matcher {
    index: usize,
    engine: Engine,
    pattern: String,
    fallback: OnceLock<regex::Regex>,
}

enum Engine {
    /// Rebuilt from the build-time NFAs.
    Lazy(Box<Lazy>),
    /// Compiled from the pattern at run time.
    Compiled(regex::Regex),
}

/// The forward lazy DFA, which says whether a text holds a match and where
/// the first one ends; the whole regex (with the reverse DFA that finds
/// where matches start) is rebuilt only once a text holds a match. Most
/// windows a rule is woken for hold none.
struct Lazy {
    fwd: DFA,
    /// The reverse NFA's place in the blob.
    rev: &'static [u8],
    whole: OnceLock<Option<LazyRegex>>,
}

impl Lazy {
    fn whole(&self) -> Option<&LazyRegex> {
        self.whole
            .get_or_init(|| {
                let rev = Reader { b: self.rev, at: 0 }.nfa()?;
                // As regex-automata's own lazy-DFA regex builds its reverse half.
                let rev = DFA::builder()
                    .configure(DFA::config().prefilter(None).specialize_start_states(false).match_kind(MatchKind::All))
                    .build_from_nfa(rev)
                    .ok()?;
                Some(LazyRegex::builder().build_from_dfas(self.fwd.clone(), rev))
            })
            .as_ref()
    }
}

/// A thread's caches for one matcher.
#[derive(Default)]
struct Caches {
    fwd: Option<DfaCache>,
    whole: Option<Cache>,
}

impl Matcher {
    /// Entry `index`'s matcher: from the blob when that entry was made from
    /// this pattern, else compiled now.
    pub(crate) fn new(index: usize, pattern: &str) -> Matcher {
        let engine = match from_blob(index, pattern) {
            Some(lazy) => Engine::Lazy(Box::new(lazy)),
            None => Engine::Compiled(compile(pattern)),
        };
        Matcher { index, engine, pattern: pattern.to_string(), fallback: OnceLock::new() }
    }

    /// Was this matcher rebuilt from the blob (not compiled at run time)?
    #[cfg(test)]
    pub(crate) fn is_prebuilt(&self) -> bool {
        matches!(self.engine, Engine::Lazy(_))
    }

    /// The pattern compiled now: once the process runs long, or when the
    /// blob's reverse NFA cannot be read or a lazy DFA stops (neither
    /// happens with these patterns).
    fn fallback(&self) -> &regex::Regex {
        self.fallback.get_or_init(|| compile(&self.pattern))
    }

    /// Leftmost-first matches, not overlapping, as `regex::Regex::find_iter`.
    pub(crate) fn find_iter(&self, text: &str, each: impl FnMut(Range<usize>)) {
        self.find_iter_on(text, long_running(), each)
    }

    /// `find_iter` on the build-time automata even in a long-running
    /// process (the tests compare them with the `regex` crate).
    #[cfg(test)]
    pub(crate) fn find_iter_prebuilt(&self, text: &str, each: impl FnMut(Range<usize>)) {
        self.find_iter_on(text, false, each)
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
            // Once the whole regex exists, it alone searches (one pass).
            if lazy.whole.get().is_none() {
                let fwd = c.fwd.get_or_insert_with(|| lazy.fwd.create_cache());
                match lazy.fwd.try_search_fwd(fwd, &Input::new(text)) {
                    Ok(None) => return true,
                    Ok(Some(_)) => {}
                    Err(_) => return false,
                }
            }
            let Some(whole) = lazy.whole() else { return false };
            let cache = c.whole.get_or_insert_with(|| whole.create_cache());
            let mut ranges = Vec::new();
            let mut it = regex_automata::util::iter::Searcher::new(Input::new(text));
            loop {
                match it.try_advance(|input| whole.try_search(cache, input)) {
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
        self.is_match_on(text, long_running())
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
                caches.resize_with(self.index + 1, Caches::default);
            }
            f(&mut caches[self.index])
        })
    }
}

thread_local! {
    /// Lazy-DFA caches, per matcher, per thread (a cache keeps the DFA
    /// states built so far).
    static CACHES: RefCell<Vec<Caches>> = const { RefCell::new(Vec::new()) };
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

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// Rule `rule`'s regex from the blob, when its entry was made from `pattern`.
/// The blob: magic, a u32 rule count, then per rule a u64 pattern hash and
/// the u32 start and end of its NFAs in the data that follows.
fn from_blob(rule: usize, pattern: &str) -> Option<Lazy> {
    let rest = BLOB.strip_prefix(MAGIC)?;
    let count = u32::from_le_bytes(rest.get(..4)?.try_into().ok()?) as usize;
    if rule >= count {
        return None;
    }
    let entry = rest.get(4 + rule * 16..4 + rule * 16 + 16)?;
    let hash = u64::from_le_bytes(entry[..8].try_into().ok()?);
    if hash != fnv1a(pattern.as_bytes()) {
        return None;
    }
    let start = u32::from_le_bytes(entry[8..12].try_into().ok()?) as usize;
    let end = u32::from_le_bytes(entry[12..16].try_into().ok()?) as usize;
    let data: &'static [u8] = rest.get(4 + count * 16..)?.get(start..end)?;
    let mut r = Reader { b: data, at: 0 };
    let fwd = DFA::builder().build_from_nfa(r.nfa()?).ok()?;
    Some(Lazy { fwd, rev: &data[r.at..], whole: OnceLock::new() })
}

/// Reads what build.rs's `encode` writes.
struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.at)?;
        self.at += 1;
        Some(v)
    }

    fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b < 0x80 {
                return Some(v);
            }
        }
        None
    }

    fn usize(&mut self) -> Option<usize> {
        usize::try_from(self.varint()?).ok()
    }

    fn id(&mut self) -> Option<StateID> {
        StateID::new(self.usize()?).ok()
    }

    /// A state id written as a distance from state `from`.
    fn target(&mut self, from: usize) -> Option<StateID> {
        let z = self.varint()?;
        let d = (z >> 1) as i64 ^ -((z & 1) as i64);
        StateID::new(usize::try_from(i64::try_from(from).ok()? + d).ok()?).ok()
    }

    fn transition(&mut self, from: usize) -> Option<Transition> {
        let start = self.byte()?;
        let end = self.byte()?;
        Some(Transition { start, end, next: self.target(from)? })
    }

    /// One NFA, its states added to a builder in their original order, so
    /// every state keeps its id.
    fn nfa(&mut self) -> Option<NFA> {
        let states = self.usize()?;
        let anchored = self.id()?;
        let unanchored = self.id()?;
        let pattern_start = self.id()?;
        let reverse = self.byte()? == 1;
        let mut b = Builder::new();
        b.set_utf8(true);
        b.set_reverse(reverse);
        b.start_pattern().ok()?;
        for i in 0..states {
            let added = match self.byte()? {
                0 => {
                    let t = self.transition(i)?;
                    b.add_range(t)
                }
                1 => {
                    let n = self.usize()?;
                    let ts = (0..n).map(|_| self.transition(i)).collect::<Option<Vec<_>>>()?;
                    b.add_sparse(ts)
                }
                2 => {
                    let look = Look::from_repr(u32::try_from(self.varint()?).ok()?)?;
                    let next = self.target(i)?;
                    b.add_look(next, look)
                }
                3 => {
                    let n = self.usize()?;
                    let alts = (0..n).map(|_| self.target(i)).collect::<Option<Vec<_>>>()?;
                    b.add_union(alts)
                }
                5 => b.add_fail(),
                6 => b.add_match(),
                _ => return None,
            }
            .ok()?;
            if added.as_usize() != i {
                return None;
            }
        }
        b.finish_pattern(pattern_start).ok()?;
        b.build(anchored, unanchored).ok()
    }
}
