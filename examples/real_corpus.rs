//! Writes the real-text benchmark sets (benches/support/real_corpus.rs) to a
//! directory, one file per set (its documents joined by blank lines), and
//! prints each set's size, for `scripts/bench.sh` to time the binary on.
//!
//! Usage: cargo run --release --example real_corpus -- DIR [--time] [--set NAME]
//!
//! With `--time`, also scans every document of each set in this process,
//! with a server's engines, and prints MB/s per set (a quick look; the
//! benchmark is `cargo bench --bench throughput -- scan_real`).

#[path = "../benches/support/real_corpus.rs"]
mod real_corpus;

use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first().filter(|a| !a.starts_with('-')) else {
        eprintln!("usage: real_corpus DIR [--time]");
        std::process::exit(2);
    };
    let time = args.iter().any(|a| a == "--time");
    let only = args.iter().position(|a| a == "--set").and_then(|i| args.get(i + 1));
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::create_dir_all(dir).expect("create the output directory");
    if time {
        inertbox::run_as_server();
        inertbox::detect::rules::warm();
    }
    for set in real_corpus::sets(root) {
        if only.is_some_and(|o| o != set.name) {
            continue;
        }
        let joined = set.docs.join(&b"\n\n"[..]);
        std::fs::write(Path::new(dir).join(format!("{}.txt", set.name)), &joined).expect("write a set");
        if !time {
            println!("{} {} {}", set.name, set.docs.len(), set.bytes());
            continue;
        }
        let opts = inertbox::detect::Options::default();
        let scan_all = || {
            for d in &set.docs {
                let doc = inertbox::Document::load(d.clone(), inertbox::document::Kind::Auto, "bench");
                std::hint::black_box(inertbox::detect::scan(&doc, &opts));
            }
        };
        scan_all();
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = Instant::now();
            scan_all();
            best = best.min(t.elapsed().as_secs_f64());
        }
        println!(
            "{:<11} {:>5} docs {:>8} bytes {:>7.1} MB/s",
            set.name,
            set.docs.len(),
            set.bytes(),
            set.bytes() as f64 / best / 1e6
        );
    }
}
