//! Compiles the scanner's rule patterns ahead of time.
//!
//! Parsing and compiling the rule regexes costs about 0.45 ms a rule, and a
//! hook or a gate is a fresh process on every tool call: an ordinary source
//! file wakes ten to twenty rules, which made a PostToolUse answer 10–45 ms.
//! Here each pattern the scanner runs (the rules, rewritten as
//! `inertbox_rules::text::final_pattern` says, their context patterns and
//! the fixed patterns in `inertbox_rules::patterns`) becomes a forward and
//! a reverse Thompson NFA, written state by state into `$OUT_DIR/rules.nfa`
//! (the layout is `inertbox_rules::blob`'s). At run time `src/prebuilt.rs`
//! rebuilds the NFAs from those states (no parsing, no UTF-8 compilation)
//! and runs them as lazy DFAs; a test checks every pattern finds what the
//! `regex` crate finds. Also written: each pattern as a server compiles it
//! (`flat.rs`) and the rule keys' tables (`rule_keys.rs`).

use inertbox_rules::{Rule, blob, keys, patterns, text};
use regex_automata::nfa::thompson::{self, NFA, WhichCaptures};
use regex_automata::util::syntax;

mod required;

fn main() {
    // The rule table and the blob's layout are a build-dependency: cargo
    // runs this again when they change.
    println!("cargo:rerun-if-changed=build");
    let rules = inertbox_rules::table();
    key_tables(&rules);
    lexicon_automaton();
    // The rules, their context patterns, then the fixed patterns.
    let patterns = rules
        .iter()
        .map(|r| (r.id, text::final_pattern(r.pattern)))
        .chain(text::CONTEXT.iter().map(|p| ("context pattern", text::context_pattern(p))))
        .chain(patterns::ALL.iter().map(|p| ("fixed pattern", patterns::blob_form(p))));
    let mut nfas = blob::Writer::default();
    let mut flat = Vec::new();
    for (n, (id, pattern)) in patterns.enumerate() {
        flat.push(flat_form(id, &pattern));
        // The rules (compiled with `.` matching a line break, no inline
        // flags) get the smaller any-character automaton; the others are
        // compiled as written.
        let source = if n < rules.len() { any_char_as_bytes(&pattern) } else { pattern.clone() };
        let [forward, reverse] =
            [false, true].map(|rev| compile(&source, rev).unwrap_or_else(|e| panic!("{id} does not compile: {e}")));
        nfas.add(&pattern, &forward, &reverse);
    }
    write("rules.nfa", nfas.finish());
    let mut ends = Vec::new();
    let mut end = 0;
    for f in &flat {
        end += f.len();
        ends.push(end.to_string());
    }
    let src = format!(
        "/// The blob's patterns as the `regex` crate compiles them in a long-running\n\
         /// process, end to end, in blob order (build/main.rs, `flat_form`).\n\
         static FLAT_TEXT: &str = {:?};\n\
         /// Where each pattern ends in `FLAT_TEXT`.\n\
         static FLAT_ENDS: [u32; {}] = [{}];\n",
        flat.concat(),
        ends.len(),
        ends.join(", ")
    );
    write("flat.rs", src.into_bytes());
}

/// Write a file into `$OUT_DIR`.
fn write(name: &str, bytes: Vec<u8>) {
    let path = std::path::Path::new(&std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join(name);
    std::fs::write(path, bytes).expect("OUT_DIR is writable");
}

/// A pattern written out as its syntax tree after parsing (the `Display`
/// of regex-syntax's `Hir`, parsed as `prebuilt::compile` parses, with `.`
/// matching a line break): case-insensitive letters become classes of
/// their case variants and `\w`, `\d`, `\s` the classes they name. A
/// long-running process compiles this form with the `regex` crate, which is
/// then built without its Unicode tables: case folding and the Perl and
/// property classes are about 5,600 pointers (28 pages) that every process
/// would relocate at start-up (copied on write, 2.5 µs a page on the
/// development machine), and the scanner needs none of them at run time.
/// The written form must parse back to the same tree and name no class or
/// flag that needs the tables.
fn flat_form(id: &str, pattern: &str) -> String {
    use regex_syntax::ast::{self, Ast, ClassSetItem};
    let parse = |p: &str| regex_syntax::ParserBuilder::new().dot_matches_new_line(true).build().parse(p).ok();
    let hir = parse(pattern).unwrap_or_else(|| panic!("{id} does not parse"));
    let flat = hir.to_string();
    assert!(parse(&flat) == Some(hir.clone()), "{id}: its written-out form parses to another tree: {flat}");
    assert!(
        !hir.properties().look_set().contains_word_unicode(),
        "{id}: a Unicode word boundary needs the Unicode word table at run time; write (?-u:\\b)"
    );
    struct NeedsTables;
    impl ast::Visitor for NeedsTables {
        type Output = ();
        type Err = String;
        fn finish(self) -> Result<(), String> {
            Ok(())
        }
        fn visit_pre(&mut self, a: &Ast) -> Result<(), String> {
            let case = |f: &ast::Flags| f.flag_state(ast::Flag::CaseInsensitive) == Some(true);
            match a {
                Ast::ClassPerl(_) | Ast::ClassUnicode(_) => Err("a Perl or Unicode class".into()),
                Ast::Flags(f) if case(&f.flags) => Err("a case-insensitive flag".into()),
                Ast::Group(g) if g.flags().is_some_and(case) => Err("a case-insensitive group".into()),
                _ => Ok(()),
            }
        }
        fn visit_class_set_item_pre(&mut self, item: &ClassSetItem) -> Result<(), String> {
            match item {
                ClassSetItem::Perl(_) | ClassSetItem::Unicode(_) => Err("a Perl or Unicode class".into()),
                _ => Ok(()),
            }
        }
    }
    let tree = ast::parse::Parser::new().parse(&flat).expect("the written-out form parses");
    if let Err(why) = ast::visit(&tree, NeedsTables) {
        panic!("{id}: its written-out form has {why}: {flat}");
    }
    flat
}

/// The rule keys' search tables (`inertbox_rules::keys` works them out)
/// and the strings each rule's every match holds (`required.rs`): `$OUT_DIR/rule_keys.rs`, integers and
/// strings, so the loader relocates nothing in them.
fn key_tables(rules: &[Rule]) {
    let rule_keys: Vec<&[&str]> = rules.iter().map(|r| r.keys).collect();
    let (all, key_rules) = keys::keys_and_rules(&rule_keys);
    assert!(all.len() < usize::from(u16::MAX) && rules.len() < 256, "the tables' integers are too small");
    let woken = keys::woken(&all, &key_rules);
    // Every key in one leftmost-longest automaton, valued by its index: how
    // a process that runs once finds them.
    let keys_automaton = daachorse::DoubleArrayAhoCorasickBuilder::new()
        .match_kind(daachorse::MatchKind::LeftmostLongest)
        .use_prefilter(false)
        .build_with_values(all.iter().enumerate().map(|(i, k)| (k.as_bytes(), u32::try_from(i).expect("few keys"))))
        .expect("the keys' automaton builds");
    write("keys.daac", keys_automaton.serialize());
    let mut out = String::new();
    let list = |v: &mut dyn Iterator<Item = String>| v.collect::<Vec<_>>().join(", ");
    out.push_str(&format!("/// The rule table's length.\nconst RULE_COUNT: usize = {};\n", rules.len()));
    out.push_str(&format!(
        "/// Every key once, in order of first appearance, end to end.\nstatic KEY_TEXT: &str = {:?};\n",
        all.concat()
    ));
    // A table of where each item ends in the text or table the items are
    // laid end to end in.
    let ends = |out: &mut String, doc: &str, name: &str, lens: &mut dyn Iterator<Item = usize>| {
        let mut end = 0;
        let items: Vec<String> = lens
            .map(|n| {
                end += n;
                end.to_string()
            })
            .collect();
        out.push_str(&format!("/// {doc}\nstatic {name}: [u32; {}] = [{}];\n", items.len(), items.join(", ")));
    };
    ends(&mut out, "Where each key ends in `KEY_TEXT`.", "KEY_ENDS", &mut all.iter().map(|k| k.len()));
    let restarts = keys::restarts(&all);
    out.push_str(&format!(
        "/// Where the key search goes on after a hit of each key (`keys::restarts`).\nstatic KEY_RESTART: [u8; {}] = [{}];\n",
        restarts.len(),
        list(&mut restarts.iter().map(|r| r.to_string()))
    ));
    ends(&mut out, "Where each key's woken rules end in `WOKEN`.", "WOKEN_ENDS", &mut woken.iter().map(Vec::len));
    out.push_str(&format!(
        "/// The rules each key wakes, key after key.\nstatic WOKEN: [u8; {}] = [{}];\n",
        woken.iter().map(Vec::len).sum::<usize>(),
        list(&mut woken.iter().flatten().map(|r| r.to_string()))
    ));
    // The strings every match of each rule holds (`required.rs`): all the
    // strings end to end, where each ends, where each set's strings end,
    // where each rule's sets end.
    let sets: Vec<Vec<Vec<String>>> = rules
        .iter()
        .map(|r| {
            required::required_sets(&text::final_pattern(r.pattern))
                .into_iter()
                .filter_map(|set| set.into_iter().map(|s| String::from_utf8(s).ok()).collect::<Option<Vec<_>>>())
                .collect()
        })
        .collect();
    let strings: Vec<&String> = sets.iter().flatten().flatten().collect();
    out.push_str(&format!(
        "/// The strings rules' matches must hold, end to end.\nstatic REQ_TEXT: &str = {:?};\n",
        strings.iter().map(|s| s.as_str()).collect::<String>()
    ));
    ends(&mut out, "Where each string ends in `REQ_TEXT`.", "REQ_STR_ENDS", &mut strings.iter().map(|s| s.len()));
    ends(
        &mut out,
        "Where each set's strings end in `REQ_STR_ENDS`.",
        "REQ_SET_ENDS",
        &mut sets.iter().flatten().map(Vec::len),
    );
    ends(&mut out, "Where each rule's sets end in `REQ_SET_ENDS`.", "REQ_RULE_ENDS", &mut sets.iter().map(Vec::len));
    for (name, t) in [("ASCII", keys::tables(&all, |k| k.is_ascii())), ("OTHER", keys::tables(&all, |k| !k.is_ascii()))]
    {
        let words = |bits: &[u64]| list(&mut bits.iter().map(|b| format!("{b:#x}")));
        out.push_str(&format!(
            "static {name}_INDEX: [u16; {}] = [{}];\nstatic {name}_TRIPLES: [u64; {}] = [{}];\nstatic {name}_TWO: [u64; {}] = [{}];\nstatic {name}_RUNS: [(u32, u16, u16); {}] = [{}];\nstatic {name}_ORDER: [u16; {}] = [{}];\n",
            t.index.len(),
            list(&mut t.index.iter().map(|i| i.to_string())),
            t.triples.len(),
            words(&t.triples),
            t.two.len(),
            words(&t.two),
            t.runs.len(),
            list(&mut t.runs.iter().map(|r| format!("({}, {}, {})", r.0, r.1, r.2))),
            t.order.len(),
            list(&mut t.order.iter().map(|i| i.to_string())),
        ));
    }
    out.push_str(&format!(
        "/// The most ASCII bytes a non-ASCII key starts with.\nconst OTHER_LEAD: usize = {};\n",
        keys::non_ascii_lead(&all)
    ));
    write("rule_keys.rs", out.into_bytes());
}

/// The NFA the `regex` crate would build for the pattern (dot matches a
/// line break, as `rules.rs` asks). The forward NFA keeps its capture
/// groups (a PikeVM on it finds them inside a match); the reverse one only
/// finds where a match starts.
fn compile(pattern: &str, reverse: bool) -> Result<NFA, Box<thompson::BuildError>> {
    // utf8(false) only lets `any_char_as_bytes`'s byte classes through;
    // every match still starts and ends on a character boundary (see there).
    thompson::Compiler::new()
        .syntax(syntax::Config::new().dot_matches_new_line(true).utf8(false))
        .configure(
            thompson::Config::new()
                .utf8(false)
                .reverse(reverse)
                .which_captures(if reverse { WhichCaptures::None } else { WhichCaptures::All })
                .nfa_size_limit(Some(32 << 20)),
        )
        .build(pattern)
        .map_err(Box::new)
}

/// The bytes after a character's first byte: UTF-8 continuation bytes.
/// On valid UTF-8 (every haystack is a `&str`), a byte that is not one of
/// these starts a character, and the character runs on through every
/// continuation byte that follows it. So "one character" is written as a
/// first byte (ASCII or a lead byte) and then any number of continuation
/// bytes: 3 NFA states, where `.` as a validating UTF-8 automaton takes 8
/// and a lead byte with exactly as many continuation bytes as it announces
/// took 11. A rule gap like `.{0,200}` is 200 copies, and every
/// hook call rebuilds the rules' automata from these states, so the gap
/// rules' automata are a third to two thirds smaller.
const CONTINUATION: &str = r"[\x80-\xBF]*";

/// A rule pattern with `.` and negated classes of ASCII characters (such
/// as `[^\n|;]`) written as byte classes that match one whole character.
/// A match can begin only where a character does (every element of a
/// pattern starts with a byte that is not a continuation byte), and ends
/// where one does: a character's continuation bytes are taken greedily,
/// and no element after it can begin with a continuation byte. So the
/// matches are the same; the tests check them against the `regex` crate on
/// the original patterns.
fn any_char_as_bytes(p: &str) -> String {
    let mut out = String::with_capacity(p.len() * 2);
    let chars: Vec<char> = p.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\\' {
            out.push(c);
            if let Some(&n) = chars.get(i + 1) {
                out.push(n);
            }
            i += 2;
            continue;
        }
        if c == '.' {
            out.push_str(&format!("(?-u:[\\x00-\\x7F\\xC0-\\xF7]{CONTINUATION})"));
            i += 1;
            continue;
        }
        if c == '[' {
            // The class's extent: up to the first unescaped `]` after its
            // first member.
            let mut j = i + 1;
            if chars.get(j) == Some(&'^') {
                j += 1;
            }
            if chars.get(j) == Some(&']') {
                j += 1;
            }
            while j < chars.len() && chars[j] != ']' {
                j += if chars[j] == '\\' { 2 } else { 1 };
            }
            let class: String = chars[i..=j.min(chars.len() - 1)].iter().collect();
            let body = &class[1..class.len() - 1];
            // Only a negated class of plain ASCII members: no nested class,
            // no escapes that name a Unicode class.
            let simple = body.starts_with('^')
                && body.is_ascii()
                && !body.contains('[')
                && !body.contains(':')
                && !body.contains("&&")
                && body.split('\\').skip(1).all(|e| {
                    e.starts_with(['n', 't', 'r', '|', ';', ']', '>', '<', '"', '\'', '`', ')', '(', '.', '-'])
                });
            if simple {
                out.push_str(&format!("(?-u:[[\\x00-\\x7F&&{class}]\\xC0-\\xF7]{CONTINUATION})"));
            } else {
                out.push_str(&class);
            }
            i = j + 1;
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// The lexicons' folded forms in one Aho-Corasick automaton (a double
/// array), each distinct form's value its first entry in `FOLDED` (sorted
/// by form) times 256 plus how many entries it has: src/detect/lexicon.rs
/// reads it back, with each entry's kind, edges and lexicon as four bytes
/// (`lexicon.entries`): the library needs no folded form at run time, and
/// a table of them is a pointer each for the loader to relocate.
fn lexicon_automaton() {
    use inertbox_rules::lexicon_folded::FOLDED;
    let mut forms: Vec<(&str, u32)> = Vec::new();
    for (i, &(form, ..)) in FOLDED.iter().enumerate() {
        match forms.last_mut() {
            Some((last, value)) if *last == form => *value += 1,
            Some((last, _)) if *last > form => panic!("FOLDED is not sorted at {form:?}"),
            _ => forms.push((form, u32::try_from(i).expect("few entries") << 8 | 1)),
        }
    }
    assert!(forms.iter().all(|f| f.1 & 0xff != 0), "a form with 256 entries");
    // The override verbs', addressees' and standing orders' forms alone, for visible text's first search
    // (leftmost-longest, so a longer verb is not cut by a shorter one).
    // (English's are left out: its rules read English.)
    // Kind::Over's and Kind::Address's indexes in KINDS (src/detect/lexicon.rs),
    // and those of Kind::Become and Kind::Remember (a new role, a request to
    // remember: visible text is read for them too).
    let (over_kind, address_kind) = (4, 0);
    let standing = [12, 13];
    let english = inertbox_rules::lexicon::LEXICONS.iter().position(|l| l.lang == "en");
    let over: Vec<(&str, u32)> = forms
        .iter()
        .filter(|&&(_, v)| {
            let first = (v >> 8) as usize;
            let entries = &FOLDED[first..first + (v & 0xff) as usize];
            entries.iter().any(|e| {
                (e.1 == over_kind || e.1 == address_kind || standing.contains(&e.1))
                    && Some(usize::from(e.4)) != english
            })
        })
        .copied()
        .collect();
    let visible_automaton = daachorse::DoubleArrayAhoCorasickBuilder::new()
        .match_kind(daachorse::MatchKind::LeftmostLongest)
        .use_prefilter(false)
        .build_with_values(over.iter().copied())
        .expect("the visible-text automaton builds");
    write("lexicon-visible.daac", visible_automaton.serialize());
    let automaton = daachorse::DoubleArrayAhoCorasickBuilder::new()
        .use_prefilter(false)
        .build_with_values(forms.iter().copied())
        .expect("the lexicon builds");
    write("lexicon.daac", automaton.serialize());
    let entries: Vec<u8> = FOLDED.iter().flat_map(|&(_, kind, left, right, lang)| [kind, left, right, lang]).collect();
    write("lexicon.entries", entries);
    write("lexicon.forms", sorted_forms(&forms, &over));
}

/// The forms as a sorted table a short text is looked up in directly (a
/// process that tests a short hidden string then does not read back an
/// automaton of 1.2 MB): where the forms of each first byte begin (257
/// numbers), the form count, each form's start in the form bytes, its
/// value (bit 31 set when it is also in the visible-text automaton), one
/// more start, then the forms' bytes. Little-endian u32s.
fn sorted_forms(forms: &[(&str, u32)], visible: &[(&str, u32)]) -> Vec<u8> {
    assert!(forms.windows(2).all(|w| w[0].0 < w[1].0), "forms are sorted and distinct");
    let visible: std::collections::HashSet<&str> = visible.iter().map(|v| v.0).collect();
    let mut out = Vec::new();
    let n = u32::try_from(forms.len()).expect("few forms");
    for b in 0..=256usize {
        let first = forms.partition_point(|f| usize::from(f.0.as_bytes()[0]) < b);
        out.extend(u32::try_from(first).expect("few forms").to_le_bytes());
    }
    out.extend(n.to_le_bytes());
    let mut at = 0u32;
    for &(form, value) in forms {
        assert!(value >> 31 == 0, "a value with bit 31 set");
        out.extend(at.to_le_bytes());
        out.extend((value | u32::from(visible.contains(form)) << 31).to_le_bytes());
        at += u32::try_from(form.len()).expect("a short form");
    }
    out.extend(at.to_le_bytes());
    for &(form, _) in forms {
        out.extend(form.as_bytes());
    }
    out
}
