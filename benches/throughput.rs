//! Throughput of the format passes against the SHA-256 floor.
//! Run: cargo bench --bench throughput

use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use sha2::{Digest, Sha256};

fn main() {
    divan::main();
}

/// Plain English-like text with the odd backtick and newline.
fn text(len: usize) -> Vec<u8> {
    let unit = b"The quick brown fox jumps over the lazy dog; run `cargo test` again.\n";
    unit.iter().copied().cycle().take(len).collect()
}

const SIZES: [usize; 3] = [1 << 10, 1 << 20, 16 << 20];

#[divan::bench(args = SIZES)]
fn sha256_floor(b: Bencher, len: usize) {
    let data = text(len);
    b.counter(BytesCount::new(len)).bench(|| Sha256::digest(black_box(&data)));
}

#[divan::bench(args = SIZES)]
fn wrap_stamp(b: Bencher, len: usize) {
    let data = text(len);
    b.counter(BytesCount::new(len)).bench(|| inertbox::format::stamp_bytes(black_box(&data)).unwrap());
}

#[divan::bench(args = SIZES)]
fn check_verify(b: Bencher, len: usize) {
    let data = text(len);
    let opts = inertbox::WrapOptions { source: "bench".into(), timestamp: None };
    let doc = inertbox::wrap_bytes(&data, &opts).unwrap().doc;
    b.counter(BytesCount::new(doc.len())).bench(|| {
        let r = inertbox::check_bytes(black_box(&doc));
        assert!(r.ok);
    });
}

/// English prose: the project's own documentation, repeated.
fn prose(len: usize) -> Vec<u8> {
    let mut unit = String::new();
    for f in ["README.md", "CHANGELOG.md"] {
        unit.push_str(
            &std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/", "README.md").replace("README.md", f))
                .unwrap_or_default(),
        );
    }
    unit.push_str(include_str!("../fixtures/scan/prose.txt"));
    unit.bytes().cycle().take(len).collect()
}

#[divan::bench(args = [64 << 10, 4 << 20])]
fn scan_prose(b: Bencher, len: usize) {
    let data = prose(len);
    inertbox::detect::rules::warm();
    b.counter(BytesCount::new(len)).bench(|| {
        let doc = inertbox::Document::load(black_box(data.clone()), inertbox::document::Kind::Text, "bench");
        inertbox::detect::scan(&doc, &inertbox::detect::Options::default())
    });
}
