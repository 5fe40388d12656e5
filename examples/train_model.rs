//! Trains the scanner's word model (`src/detect/model.rs`) from labelled
//! samples; `scripts/train-model.py` picks the samples (the development
//! halves only) and runs this.
//!
//! Reads JSON lines `{"text": …, "attack": bool, "fold": 0..K}` on stdin and
//! writes the model to the path given. Logistic regression over the model's
//! own features (so training and scanning read words the same way), fitted
//! by AdaGrad in a fixed order: the same samples give the same bytes.
//!
//! Names (`name_buckets`) are not learned.
//!
//! The threshold is chosen on samples the model did not learn from: K
//! models, each fitted without one fold (folds are whole sources), score
//! the left-out fold a window at a time as a scan does; the threshold is
//! the score that `--benign-rate` of those benign samples pass.
//!
//! A second model, for windows read mostly as pairs of Han, kana or Thai
//! characters, is fitted the same way on the samples whose text is so
//! read (samples marked `"pairs_only": true` feed it alone) and written
//! beside OUT as `…-pairs.bin`.
//!
//!   cargo run --release --example train_model -- OUT [--benign-rate 0.001] [--names-in-every-cased-language]

use std::io::Read;

use inertbox::detect::model::{self, BUCKETS, Features};

struct Sample {
    x: Vec<(u32, f32)>,
    attack: bool,
    lang: String,
    fold: usize,
    text: String,
}

const EPOCHS: usize = 8;
const RATE: f32 = 0.5;
const L2: f32 = 1e-5;
const BIAS_RATE: f32 = 0.05;

struct Fit {
    w: Vec<f32>,
    bias: f32,
}

fn fit(samples: &[&Sample], masked: &[bool]) -> Fit {
    let mut w = vec![0f32; BUCKETS];
    let mut g2 = vec![1e-8f32; BUCKETS];
    let mut bias = 0f32;
    // Each class weighs half, and within each language too where the
    // language has both (else the model learns a language, not an
    // order: attacks translated into Thai, Thai documentation rare).
    let mut cells: std::collections::HashMap<(&str, bool), f32> = std::collections::HashMap::new();
    for s in samples {
        *cells.entry((s.lang.as_str(), s.attack)).or_default() += 1.0;
    }
    let attacks = samples.iter().filter(|s| s.attack).count().max(1) as f32;
    let benign = (samples.len() as f32 - attacks).max(1.0);
    let n = samples.len() as f32;
    let weight = |s: &Sample| {
        let own = cells[&(s.lang.as_str(), s.attack)];
        let other = cells.get(&(s.lang.as_str(), !s.attack)).copied().unwrap_or(0.0);
        if other == 0.0 { n / (2.0 * if s.attack { attacks } else { benign }) } else { (own + other) / (2.0 * own) }
    };
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let mut rng = inertbox::testing::Lcg::new(20);
    for _ in 0..EPOCHS {
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        for &i in &order {
            let s = samples[i];
            let z = bias + s.x.iter().map(|&(b, v)| w[b as usize] * v).sum::<f32>();
            let p = 1.0 / (1.0 + (-z.clamp(-30.0, 30.0)).exp());
            let y = if s.attack { 1.0 } else { 0.0 };
            let g = (p - y) * weight(s);
            for &(b, v) in &s.x {
                let b = b as usize;
                if masked[b] {
                    continue;
                }
                let gg = g * v + L2 * w[b];
                g2[b] += gg * gg;
                w[b] -= RATE * gg / g2[b].sqrt();
            }
            bias -= BIAS_RATE * g;
        }
    }
    Fit { w, bias }
}

/// A sample's score as a scan sees it: its highest-scoring window.
/// With `pairs`, the windows the pairs model reads (mostly pairs of Han,
/// kana or Thai), read with pairs.
fn scan_score(fit: &Fit, text: &str, f: &mut Features, pairs: bool) -> Option<f32> {
    model::windows(text)
        .into_iter()
        .filter_map(|r| {
            if pairs {
                if !f.of_pairs(&text[r]).unspaced() {
                    return None;
                }
            } else {
                f.of(&text[r]);
            }
            (f.words >= model::MIN_WORDS)
                .then(|| fit.bias + f.values().map(|(b, v)| fit.w[b as usize] * v).sum::<f32>())
        })
        .reduce(f32::max)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().expect("usage: train_model OUT [--benign-rate R]");
    let rate: f64 = args
        .iter()
        .position(|a| a == "--benign-rate")
        .and_then(|i| args.get(i + 1))
        .map_or(0.001, |r| r.parse().expect("--benign-rate takes a number"));
    let mut input = String::new();
    std::io::stdin().read_to_string(&mut input).expect("stdin");
    let mut f = Features::default();
    let (mut samples, mut paired): (Vec<Sample>, Vec<Sample>) = (Vec::new(), Vec::new());
    for l in input.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
        let text = v["text"].as_str().expect("text").to_string();
        let sample = |x: Vec<(u32, f32)>| Sample {
            x,
            attack: v["attack"].as_bool().expect("attack"),
            lang: v["lang"].as_str().unwrap_or("?").to_string(),
            fold: v["fold"].as_u64().expect("fold") as usize,
            text: text.clone(),
        };
        if f.of_pairs(&text).unspaced() {
            paired.push(sample(f.values().collect()));
        }
        if !v["pairs_only"].as_bool().unwrap_or(false) {
            samples.push(sample(f.of(&text).values().collect()));
        }
    }
    let masked = name_buckets(&samples, args.iter().any(|a| a == "--names-in-every-cased-language"));
    eprintln!("{} buckets masked as names", masked.iter().filter(|m| **m).count());
    std::fs::write(out, train(&samples, &masked, rate, false, &mut f)).expect("write the model");
    eprintln!("wrote {out}");
    let out_pairs = format!("{}-pairs.bin", out.strip_suffix(".bin").unwrap_or(out));
    std::fs::write(&out_pairs, train(&paired, &vec![false; BUCKETS], rate, true, &mut f)).expect("write the model");
    eprintln!("wrote {out_pairs}");
}

/// A model's bytes, fitted on `samples`, its threshold chosen on their
/// folds left out in turn.
fn train(samples: &[Sample], masked: &[bool], rate: f64, pairs: bool, f: &mut Features) -> Vec<u8> {
    let folds = samples.iter().map(|s| s.fold).max().map_or(0, |m| m + 1);
    // Scores of samples the model did not learn from.
    let mut held: Vec<(bool, Option<f32>)> = Vec::new();
    for k in 0..folds {
        let train: Vec<&Sample> = samples.iter().filter(|s| s.fold != k).collect();
        let m = fit(&train, masked);
        for s in samples.iter().filter(|s| s.fold == k) {
            held.push((s.attack, scan_score(&m, &s.text, f, pairs)));
        }
    }
    let mut benign: Vec<f32> = held.iter().filter(|h| !h.0).map(|h| h.1.unwrap_or(f32::MIN)).collect();
    benign.sort_by(|a, b| b.total_cmp(a));
    let at = ((benign.len() as f64) * rate) as usize;
    let threshold = benign.get(at).copied().unwrap_or(0.0).max(0.0);
    let found = held.iter().filter(|h| h.0 && h.1.is_some_and(|s| s > threshold)).count();
    let attacks = held.iter().filter(|h| h.0).count();
    let flagged = benign.iter().filter(|&&s| s > threshold).count();
    eprintln!(
        "{}{} samples, {folds} folds; threshold {threshold:.3}: left-out attacks found {found}/{attacks}, benign \
         flagged {flagged}/{}",
        if pairs { "pairs model: " } else { "" },
        samples.len(),
        benign.len()
    );
    let all: Vec<&Sample> = samples.iter().collect();
    let m = fit(&all, masked);
    let most = m.w.iter().fold(0f32, |a, w| a.max(w.abs())).max(f32::MIN_POSITIVE);
    let scale = most / f32::from(i16::MAX);
    let mut bytes = model::MAGIC.to_vec();
    for x in [scale, m.bias, threshold] {
        bytes.extend(x.to_le_bytes());
    }
    for w in &m.w {
        bytes.extend(((w / scale).round() as i16).to_le_bytes());
    }
    bytes
}

/// The buckets of words that read as people's and places' names, which
/// keep a weight of 0: a word written with a capital inside a sentence at
/// least once, never in lower case (addresses and hosts aside), in English
/// samples (German capitalises every noun), or with `every_cased` in any
/// language but German and Luxembourgish (a word met in them counts as met
/// in lower case). A name says whom a
/// sample's author made up, and an author reuses them: the written attacks
/// named one customer so often that `lukas` weighed as much as `ignore`,
/// and a bill to him read as an attack. Pairs holding a name are masked
/// too.
fn name_buckets(samples: &[Sample], every_cased: bool) -> Vec<bool> {
    use std::collections::HashMap;
    #[derive(Default)]
    struct Seen {
        title_inside: usize,
        other: usize,
    }
    let mut seen: HashMap<u32, Seen> = HashMap::new();
    for s in samples {
        let t = &s.text;
        model::words(t, |h, r| {
            let w = &t[r.clone()];
            let mut cs = w.chars();
            let first = cs.next().unwrap_or(' ');
            let title = first.is_uppercase() && cs.clone().any(char::is_lowercase) && !cs.any(char::is_uppercase);
            let before = t[..r.start].trim_end_matches([' ', '\t', '"', '\'', '(', '*', '_', '#', '-', '>']);
            let inside = !before.is_empty() && !before.ends_with(['.', '!', '?', ':', '\n', ';']);
            // Part of an address or a host (`lukas@…`, `a.Lukas`): not a
            // use of the word.
            if t[r.end..].starts_with(['@', '.'])
                && t[r.end..].len() > 1
                && !t[r.end + 1..].starts_with(char::is_whitespace)
                || t[..r.start].ends_with(['@', '.'])
            {
                return;
            }
            let e = seen.entry(h).or_default();
            let capital = first.is_uppercase();
            let cased = if every_cased { !matches!(s.lang.as_str(), "de" | "lb") } else { s.lang == "en" };
            if !cased || !capital {
                e.other += 1;
            } else if title && inside {
                e.title_inside += 1;
            }
        });
    }
    let names: std::collections::HashSet<u32> =
        seen.iter().filter(|(_, e)| e.title_inside >= 1 && e.other == 0).map(|(h, _)| *h).collect();
    let mut masked = vec![false; BUCKETS];
    for s in samples {
        let mut prev: Option<u32> = None;
        model::words(&s.text, |h, _| {
            if names.contains(&h) {
                masked[model::word_bucket(h) as usize] = true;
            }
            if let Some(p) = prev
                && (names.contains(&p) || names.contains(&h))
            {
                masked[model::pair_bucket(p, h) as usize] = true;
            }
            prev = Some(h);
        });
    }
    masked
}
