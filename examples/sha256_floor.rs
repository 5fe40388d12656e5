//! The hashing floor for scripts/bench.sh: SHA-256 of a file with sha2
//! (SHA-NI picked at run time), read in 1 MiB chunks like `wrap` reads.
//! Usage: cargo run --release --example sha256_floor FILE

use std::io::Read;

use sha2::{Digest, Sha256};

fn main() {
    let path = std::env::args_os().nth(1).expect("usage: sha256_floor FILE");
    let mut f = std::fs::File::open(path).expect("readable file");
    let mut buf = vec![0u8; 1 << 20];
    let mut h = Sha256::new();
    loop {
        let n = f.read(&mut buf).expect("read");
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    println!("{}", hex::encode(h.finalize()));
}
