//! What `mcp proxy` adds to a message: its rules in process (a ping and
//! its answer, a call judged and its clean result scanned), and a ping's
//! round trip through the real binary, straight to `inertbox mcp` and
//! through `inertbox mcp proxy -- inertbox mcp` (the difference is the
//! proxy's cost per round trip: two messages, two extra pipe hops).
//! Run: cargo bench --bench proxy

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use divan::{Bencher, black_box};
use inertbox::mcp::proxy::{Options, Out, Proxy};
use inertbox::serve::Line;
use serde_json::json;

fn main() {
    divan::main();
}

fn proxy() -> Proxy {
    inertbox::run_as_server();
    Proxy::new(Options {
        policy: inertbox::Policy::default(),
        session: None,
        pins: None,
        max_bytes: inertbox::input::DEFAULT_MAX_BYTES,
        max_frame: inertbox::mcp::MAX_MESSAGE,
    })
    .unwrap()
}

/// A message from the client and the server's answer, each passed on.
fn exchange(p: &mut Proxy, from_client: &str, from_server: &str) {
    let a = p.from_client(Line::Text(black_box(from_client)));
    let z = p.from_server(Line::Text(black_box(from_server)));
    assert!(matches!((&a[0], &z[0]), (Out::Server(_), Out::Client(_))));
}

/// A ping from the client and the server's answer: parsed, classified,
/// passed on as they came.
#[divan::bench(sample_count = 2000)]
fn ping_in_process(b: Bencher) {
    let mut p = proxy();
    let ping = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n";
    let pong = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n";
    b.bench_local(|| exchange(&mut p, ping, pong));
}

/// A small tools/call judged by the gate, and its clean result scanned and
/// recorded in the session.
#[divan::bench(sample_count = 2000)]
fn call_and_result_in_process(b: Bencher) {
    let mut p = proxy();
    let tools = json!({"jsonrpc":"2.0","id":0,"result":{"tools":[{"name":"get_weather","description":"The weather in a city.","inputSchema":{"type":"object"}}]}});
    p.from_client(Line::Text("{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}\n"));
    p.from_server(Line::Text(&format!("{tools}\n")));
    let call = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"get_weather\",\"arguments\":{\"city\":\"Lisbon\"}}}\n";
    let result = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Lisbon: sunny, 24 degrees.\"}],\"isError\":false}}\n";
    b.bench_local(|| exchange(&mut p, call, result));
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    line: String,
}

impl Running {
    fn start(args: &[&str]) -> Running {
        let mut child = Command::new(env!("CARGO_BIN_EXE_inertbox"))
            .args(args)
            .env("XDG_STATE_HOME", std::env::temp_dir().join("inertbox-bench-state"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Running { child, stdin, stdout, line: String::new() }
    }

    fn ping(&mut self) {
        self.stdin.write_all(b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n").unwrap();
        self.stdin.flush().unwrap();
        self.line.clear();
        self.stdout.read_line(&mut self.line).unwrap();
        assert!(self.line.contains("\"result\":{}"), "{}", self.line);
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A ping's round trip to `inertbox mcp`, straight.
#[divan::bench(sample_count = 2000)]
fn ping_round_trip_direct(b: Bencher) {
    let mut s = Running::start(&["mcp"]);
    s.ping();
    b.bench_local(|| s.ping());
}

/// The same round trip through `inertbox mcp proxy`.
#[divan::bench(sample_count = 2000)]
fn ping_round_trip_through_the_proxy(b: Bencher) {
    let bin = env!("CARGO_BIN_EXE_inertbox");
    let mut s = Running::start(&["mcp", "proxy", "--", bin, "mcp"]);
    s.ping();
    b.bench_local(|| s.ping());
}
