//! The real-text benchmark corpus, built from files the repository ships:
//! `fixtures/corpus-2/benign.jsonl` (4,127 texts people wrote, 85
//! languages; sources in `fixtures/corpus-2/BENIGN-SOURCES.md`), Django's
//! translations for the scripts that set has little of
//! (`fixtures/bench/po/`, made by `scripts/bench-po.py`), and the HTML
//! newsletter mail in `fixtures/scan/`. Shared by `benches/throughput.rs`
//! and `examples/real_corpus.rs` (which writes the sets out for
//! `scripts/bench.sh`).

use std::path::Path;

/// One set of documents, each scanned on its own.
pub struct Set {
    pub name: &'static str,
    pub docs: Vec<Vec<u8>>,
}

impl Set {
    pub fn bytes(&self) -> usize {
        self.docs.iter().map(Vec::len).sum()
    }
}

/// The sets' names, in the order `sets` returns them: ten scripts, then
/// kinds of text, then the whole corpus-2 set split by whether a sample was
/// picked for a word injection scanners look for (`dense`) or at random.
pub const NAMES: [&str; 18] = [
    "english",
    "latin",
    "cyrillic",
    "greek",
    "arabic",
    "hebrew",
    "devanagari",
    "thai",
    "han",
    "kana",
    "hangul",
    "code",
    "markdown",
    "mail",
    "html",
    "html_mail",
    "dense",
    "plain",
];

/// The dominant script of a text's letters outside ASCII, when they are at
/// least a twentieth of its letters; Latin for the rest.
fn script(text: &str) -> &'static str {
    let mut counts = [0usize; 11];
    let mut letters = 0usize;
    for c in text.chars() {
        if !c.is_alphabetic() {
            continue;
        }
        letters += 1;
        let i = match u32::from(c) {
            0..=0x7f => continue,
            0xc0..=0x24f | 0x1e00..=0x1eff => 1,
            0x400..=0x52f => 2,
            0x370..=0x3ff | 0x1f00..=0x1fff => 3,
            0x600..=0x6ff | 0x750..=0x77f | 0xfb50..=0xfdff | 0xfe70..=0xfeff => 4,
            0x590..=0x5ff => 5,
            0x900..=0x97f => 6,
            0xe00..=0xe7f => 7,
            0x3040..=0x30ff => 9,
            0x3400..=0x4dbf | 0x4e00..=0x9fff => 8,
            0xac00..=0xd7af | 0x1100..=0x11ff | 0x3130..=0x318f => 10,
            _ => 0,
        };
        counts[i] += 1;
    }
    let foreign: usize = counts.iter().sum();
    if foreign * 20 < letters.max(1) {
        return "english";
    }
    // Japanese mixes kana into Han: any real share of kana is Japanese.
    if counts[9] * 20 >= letters {
        return "kana";
    }
    let (i, _) = counts.iter().enumerate().max_by_key(|&(_, n)| *n).unwrap();
    ["other", "latin", "cyrillic", "greek", "arabic", "hebrew", "devanagari", "thai", "han", "kana", "hangul"][i]
}

/// Every set, read from the repository at `root`.
pub fn sets(root: &Path) -> Vec<Set> {
    let mut sets: Vec<Set> = NAMES.iter().map(|&name| Set { name, docs: Vec::new() }).collect();
    let mut add = |name: &str, doc: Vec<u8>| {
        if let Some(s) = sets.iter_mut().find(|s| s.name == name) {
            s.docs.push(doc);
        }
    };
    let jsonl = std::fs::read_to_string(root.join("fixtures/corpus-2/benign.jsonl")).expect("corpus-2");
    for line in jsonl.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let text = v["text"].as_str().expect("text").to_string();
        let source = v["source"].as_str().unwrap_or("");
        add(if source.contains("(match: ") { "dense" } else { "plain" }, text.clone().into_bytes());
        let kind = match v["family"].as_str().unwrap_or("") {
            "code" => "code",
            "readme" => "markdown",
            "mail" | "mailing_list" => "mail",
            "web" => "html",
            _ => script(&text),
        };
        add(kind, text.into_bytes());
    }
    for (file, name) in [("he", "hebrew"), ("th", "thai"), ("deva", "devanagari"), ("ko", "hangul"), ("el", "greek")] {
        let po = std::fs::read(root.join(format!("fixtures/bench/po/{file}.txt"))).expect("fixtures/bench/po");
        add(name, po);
    }
    for file in ["newsletter-50k.eml", "invoice-hidden.eml"] {
        add("html_mail", std::fs::read(root.join("fixtures/scan").join(file)).expect("fixtures/scan"));
    }
    sets
}
