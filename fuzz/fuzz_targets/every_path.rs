#![no_main]
//! Any bytes through everything the binary does with them, chosen by the
//! first byte (scan, fence, wrap and check, the hooks, the gate's arguments
//! and session files, unwrap): never a panic. Run with a per-input time
//! limit (`-timeout=2`) to find slow inputs as well.

use inertbox::testing::hostile::{self, Feed};
use libfuzzer_sys::fuzz_target;

const FEEDS: [Feed; 7] =
    [Feed::Text, Feed::Html, Feed::Email, Feed::Wrapped, Feed::Reply, Feed::CallArgs, Feed::Session];

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else { return };
    let dir = std::env::temp_dir().join(format!("inertbox-fuzz-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    hostile::run(FEEDS[usize::from(first) % FEEDS.len()], rest, &dir);
});
