//! What every match of a pattern must hold, worked out from its syntax tree
//! by the build script: a few sets of strings, and every match holds a
//! string of each set (with its line breaks read as spaces). A window a key
//! woke that holds no string of one of the sets cannot hold a match, so the
//! rule's automaton is neither built nor run there (see `rules::matches` in
//! the library, and its test that every match holds its rule's strings).

use regex_syntax::hir::{Class, Hir, HirKind};

/// A set of strings (one of which every match holds).
type Set = Vec<Vec<u8>>;

/// A set grows no larger than this (strings spelled with a few character
/// choices, `[ \n]` spaces, case-insensitive letters).
const MAX_SET: usize = 64;
/// A class adds its characters as choices when it has at most this many.
const MAX_CLASS: usize = 4;
/// Sets kept per pattern, the most selective first.
const KEEP: usize = 3;

/// The sets for a pattern (as the rules compile it: lowercase text, `.`
/// matching newlines); empty when nothing is required.
pub(super) fn required_sets(pattern: &str) -> Vec<Set> {
    let Ok(hir) = regex_syntax::ParserBuilder::new().dot_matches_new_line(true).build().parse(pattern) else {
        return Vec::new();
    };
    let mut sets: Vec<Set> = required(&hir)
        .into_iter()
        .map(|s| {
            minimal(s.into_iter().map(|x| x.iter().map(|&b| if b == b'\n' { b' ' } else { b }).collect()).collect())
        })
        .filter(|s| score(s) >= 3)
        .collect();
    sets.sort_by_key(|s| std::cmp::Reverse(score(s)));
    sets.dedup();
    sets.truncate(KEEP);
    sets
}

/// How selective a set is: its shortest string's length.
fn score(s: &Set) -> usize {
    s.iter().map(Vec::len).min().unwrap_or(0)
}

/// Without strings that hold another of the set (one found means both).
fn minimal(mut s: Set) -> Set {
    s.sort_by_key(Vec::len);
    s.dedup();
    let mut out: Set = Vec::new();
    for x in s {
        if !out.iter().any(|y| contains(&x, y)) {
            out.push(x);
        }
    }
    out
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

/// Every string `h` matches, when there are few (None when too many or
/// unbounded).
fn exact(h: &Hir) -> Option<Set> {
    match h.kind() {
        HirKind::Empty | HirKind::Look(_) => Some(vec![Vec::new()]),
        HirKind::Literal(l) => Some(vec![l.0.to_vec()]),
        HirKind::Class(Class::Unicode(c)) => {
            let n: usize = c.ranges().iter().map(|r| r.end() as usize - r.start() as usize + 1).sum();
            if n > MAX_CLASS {
                return None;
            }
            let chars = c.ranges().iter().flat_map(|r| r.start()..=r.end());
            Some(chars.map(|ch| ch.to_string().into_bytes()).collect())
        }
        HirKind::Class(Class::Bytes(c)) => {
            let n: usize = c.ranges().iter().map(|r| r.end() as usize - r.start() as usize + 1).sum();
            if n > MAX_CLASS {
                return None;
            }
            Some(c.ranges().iter().flat_map(|r| r.start()..=r.end()).map(|b| vec![b]).collect())
        }
        HirKind::Capture(c) => exact(&c.sub),
        HirKind::Repetition(r) => {
            let max = r.max?;
            if max > 3 {
                return None;
            }
            let one = exact(&r.sub)?;
            let mut all: Set = Vec::new();
            for n in r.min..=max {
                let mut s: Set = vec![Vec::new()];
                for _ in 0..n {
                    s = product(&s, &one)?;
                }
                all.extend(s);
                if all.len() > MAX_SET {
                    return None;
                }
            }
            Some(all)
        }
        HirKind::Concat(xs) => {
            let mut s: Set = vec![Vec::new()];
            for x in xs {
                s = product(&s, &exact(x)?)?;
            }
            Some(s)
        }
        HirKind::Alternation(xs) => {
            let mut s: Set = Vec::new();
            for x in xs {
                s.extend(exact(x)?);
                if s.len() > MAX_SET {
                    return None;
                }
            }
            Some(s)
        }
    }
}

fn product(a: &Set, b: &Set) -> Option<Set> {
    if a.len() * b.len() > MAX_SET {
        return None;
    }
    Some(a.iter().flat_map(|x| b.iter().map(move |y| [x.as_slice(), y].concat())).collect())
}

/// Sets every match of `h` holds a string of (each set on its own).
fn required(h: &Hir) -> Vec<Set> {
    if let Some(s) = exact(h) {
        return if s.iter().any(Vec::is_empty) { Vec::new() } else { vec![s] };
    }
    match h.kind() {
        HirKind::Capture(c) => required(&c.sub),
        HirKind::Repetition(r) if r.min >= 1 => required(&r.sub),
        HirKind::Concat(xs) => {
            // Runs of children with few strings are joined into longer
            // strings ("ignore" + "[ \n]" + "previous"); a run too large
            // to join is cut and a new one begun.
            let mut out = Vec::new();
            let mut run: Set = vec![Vec::new()];
            let flush = |run: &mut Set, out: &mut Vec<Set>| {
                if !run.iter().any(Vec::is_empty) {
                    out.push(std::mem::take(run));
                }
                *run = vec![Vec::new()];
            };
            for x in xs {
                match exact(x) {
                    Some(s) => match product(&run, &s) {
                        Some(p) => run = p,
                        None => {
                            flush(&mut run, &mut out);
                            run = s;
                        }
                    },
                    None => {
                        flush(&mut run, &mut out);
                        out.extend(required(x));
                    }
                }
            }
            flush(&mut run, &mut out);
            out
        }
        HirKind::Alternation(xs) => {
            // One set for the whole: each branch's most selective set, joined.
            let mut s: Set = Vec::new();
            for x in xs {
                let Some(best) = required(x).into_iter().map(minimal).max_by_key(score) else {
                    return Vec::new();
                };
                s.extend(best);
            }
            vec![s]
        }
        _ => Vec::new(),
    }
}
