//! No input can stall it: every hostile structure (src/testing/hostile.rs)
//! through everything that reads it (`hostile::run`), at a size and at twice
//! that size. Linear work doubles; work per pair of items quadruples. Timed,
//! so `.ci/run` runs it alone; `scripts/worst-case.sh` does the same on the
//! release binary at 1 and 8 MiB.

use std::time::{Duration, Instant};

use inertbox::testing::hostile::{self, Feed};

/// Twice the input may cost at most this many times the time (linear is 2).
const MOST: f64 = 3.0;
/// The smaller size is the first, doubling from 8 KiB, that takes this long
/// (so the timer's noise is small against it).
const AT_LEAST: Duration = Duration::from_millis(30);
const LARGEST: usize = 1 << 20;

fn best_of(rounds: usize, feed: Feed, bytes: &[u8], dir: &std::path::Path) -> Duration {
    (0..rounds)
        .map(|_| {
            let t = Instant::now();
            hostile::run(feed, bytes, dir);
            t.elapsed()
        })
        .min()
        .expect("at least one round")
}

/// The best time of each size over `rounds` interleaved rounds: a busy
/// moment of the machine costs both sizes alike.
fn pair(feed: Feed, small: &[u8], large: &[u8], rounds: usize, dir: &std::path::Path) -> (Duration, Duration) {
    let (mut a, mut b) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        a = a.min(best_of(1, feed, small, dir));
        b = b.min(best_of(1, feed, large, dir));
    }
    (a, b)
}

/// How many times the time the larger input took, for twice the bytes
/// (the sizes are near but not exactly a doubling).
fn ratio(a: Duration, b: Duration, small: &[u8], large: &[u8]) -> f64 {
    let scale = large.len() as f64 / small.len() as f64;
    b.as_secs_f64() / a.as_secs_f64().max(1e-6) * 2.0 / scale
}

#[test]
#[ignore = "timed: .ci/run runs it alone (cargo test --test cli linear -- --ignored --test-threads=1)"]
fn doubling_a_hostile_input_at_most_triples_the_time() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let mut slow = Vec::new();
    let mut rows = 0;
    let mut worst: f64 = 0.0;
    for case in hostile::cases() {
        for &feed in case.feeds {
            let mut n = 8 << 10;
            while n < LARGEST && best_of(1, feed, &case.make(n), dir.path()) < AT_LEAST {
                n *= 2;
            }
            let (mut small, mut large) = (case.make(n), case.make(2 * n));
            let (mut a, mut b) = pair(feed, &small, &large, 3, dir.path());
            // A busy moment on a shared machine can cost one size more than
            // the other. What looks more than linear is timed again at twice
            // the sizes with more rounds: work per pair of items still shows
            // four times the time there; noise does not repeat.
            if ratio(a, b, &small, &large) > MOST {
                (small, large) = (case.make(2 * n), case.make(4 * n));
                (a, b) = pair(feed, &small, &large, 5, dir.path());
            }
            let r = ratio(a, b, &small, &large);
            rows += 1;
            worst = worst.max(r);
            if r > MOST {
                slow.push(format!(
                    "{} ({}): {} bytes {a:?}, {} bytes {b:?}: {:.1}x",
                    case.name,
                    feed.as_str(),
                    small.len(),
                    large.len(),
                    r * large.len() as f64 / small.len() as f64 / 2.0
                ));
            }
        }
    }
    eprintln!("{rows} structures and feeds; the largest ratio for twice the input: {worst:.2}");
    assert!(rows > 80, "only {rows} structures and feeds were timed");
    assert!(slow.is_empty(), "more than linear:\n{}", slow.join("\n"));
}
