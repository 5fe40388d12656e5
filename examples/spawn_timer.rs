//! Times a command run as a separate process, many times, each with the same
//! stdin file: what a hook or a shell script pays per call. Used by
//! scripts/bench.py for the gate and hook numbers (perf stat -r cannot
//! replay stdin).
//!
//! Usage: spawn_timer RUNS STDIN_FILE CMD [ARGS...]
//! Prints one JSON line: {"runs", "median_ms", "p90_ms", "min_ms", "cpu_ms"}
//! where cpu_ms is user+system time per run from /proc/self/stat's
//! children fields (clock ticks summed over all runs, so it is only
//! meaningful for many runs).
use std::process::{Command, Stdio};
use std::time::Instant;

fn children_cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at ") ".
    let rest = stat.rsplit_once(") ").map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    // cutime and cstime are fields 16 and 17 (1-based) of the whole line,
    // 14 and 15 counting from the state field.
    let get = |i: usize| f.get(i).and_then(|v| v.parse::<u64>().ok()).unwrap_or(0);
    get(13) + get(14)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: spawn_timer RUNS STDIN_FILE CMD [ARGS...]");
        std::process::exit(2);
    }
    let runs: usize = args[0].parse().expect("RUNS is a number");
    let input = &args[1];
    let mut times = Vec::with_capacity(runs);
    let before = children_cpu_ticks();
    for _ in 0..runs {
        let stdin = std::fs::File::open(input).expect("stdin file opens");
        let t = Instant::now();
        let status = Command::new(&args[2])
            .args(&args[3..])
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("command runs");
        times.push(t.elapsed().as_secs_f64() * 1e3);
        if status.code().is_none() {
            eprintln!("the command was killed by a signal");
            std::process::exit(2);
        }
    }
    let ticks = children_cpu_ticks() - before;
    // Linux reports these in USER_HZ, 100 per second on every common build.
    let cpu_ms = ticks as f64 * 10.0 / runs as f64;
    times.sort_by(|a, b| a.total_cmp(b));
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    println!(
        "{{\"runs\": {runs}, \"median_ms\": {:.3}, \"p90_ms\": {:.3}, \"min_ms\": {:.3}, \"cpu_ms\": {cpu_ms:.3}}}",
        at(0.5),
        at(0.9),
        times[0]
    );
}
