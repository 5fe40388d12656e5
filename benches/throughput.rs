//! Throughput of the format passes against the SHA-256 floor.
//! Run: cargo bench --bench throughput

use divan::counter::BytesCount;
use divan::{Bencher, black_box};
use sha2::{Digest, Sha256};

#[path = "support/real_corpus.rs"]
mod real_corpus;

fn main() {
    divan::main();
}

/// One set of the real-text corpus (benches/support/real_corpus.rs), read once.
fn real_set(name: &str) -> real_corpus::Set {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    real_corpus::sets(root).into_iter().find(|s| s.name == name).expect("a set")
}

/// Every document of a real-text set (ten scripts, code, markdown, mail,
/// HTML, and the corpus split by whether a sample was picked for a trigger
/// word), each loaded and scanned on its own as a server does it. The
/// README's scan figures come from here.
#[divan::bench(args = real_corpus::NAMES)]
fn scan_real(b: Bencher, set: &str) {
    let set = real_set(set);
    inertbox::run_as_server();
    inertbox::detect::rules::warm();
    let opts = inertbox::detect::Options::default();
    b.counter(BytesCount::new(set.bytes())).bench(|| {
        for d in &set.docs {
            let doc = inertbox::Document::load(black_box(d.clone()), inertbox::document::Kind::Auto, "bench");
            black_box(inertbox::detect::scan(&doc, &opts));
        }
    });
}

/// 16 MiB of the whole real-text corpus (every set, repeated), and of
/// words that change script every few characters (accented Latin, Hangul,
/// kana, Cyrillic, Hebrew, emoji, backtick runs): the anchor tag's djb2
/// and the UTF-8 check read every character.
fn mixed_text(which: &str, len: usize) -> Vec<u8> {
    let unit: Vec<u8> = match which {
        "real" => {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            real_corpus::sets(root).into_iter().flat_map(|s| s.docs).collect::<Vec<_>>().join(&b"\n\n"[..])
        }
        _ => "naïve café Größe 한국어 문서를 `code` ``` 日本語の текст שלום ok the émoji😀 a``b ünïcode\n"
            .as_bytes()
            .to_vec(),
    };
    let mut out: Vec<u8> = unit.iter().copied().cycle().take(len).collect();
    // Cut at a character boundary.
    while std::str::from_utf8(&out).is_err() {
        out.pop();
    }
    out
}

#[divan::bench(args = ["real", "mixed"])]
fn wrap_stamp_text(b: Bencher, which: &str) {
    let data = mixed_text(which, 16 << 20);
    b.counter(BytesCount::new(data.len())).bench(|| inertbox::format::stamp_bytes(black_box(&data)).unwrap());
}

#[divan::bench(args = ["real", "mixed"])]
fn check_verify_text(b: Bencher, which: &str) {
    let data = mixed_text(which, 16 << 20);
    let opts = inertbox::WrapOptions { source: "bench".into(), timestamp: None };
    let doc = inertbox::wrap_bytes(&data, &opts).unwrap().doc;
    b.counter(BytesCount::new(doc.len())).bench(|| {
        let r = inertbox::check_bytes(black_box(&doc));
        assert!(r.ok);
    });
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

/// Ordinary English prose (fixtures/scan/prose.txt), repeated. The scan
/// benchmarks run a server's engines (`inertbox::run_as_server`: each
/// pattern compiled once, the key DFA): a benchmark answers many calls in
/// one process, as a server does. A one-shot command's engines are timed
/// in fresh processes by scripts/bench.sh (docs/engines.md).
fn prose(len: usize) -> Vec<u8> {
    include_bytes!("../fixtures/scan/prose.txt").iter().copied().cycle().take(len).collect()
}

#[divan::bench(args = [64 << 10, 4 << 20])]
fn scan_prose(b: Bencher, len: usize) {
    let data = prose(len);
    inertbox::run_as_server();
    inertbox::detect::rules::warm();
    b.counter(BytesCount::new(len)).bench(|| {
        let doc = inertbox::Document::load(black_box(data.clone()), inertbox::document::Kind::Text, "bench");
        inertbox::detect::scan(&doc, &inertbox::detect::Options::default())
    });
}

/// A 65 KB HTML newsletter email (multipart/alternative), loaded and scanned,
/// as a server does it (the regexes compiled, the rule keys searched with
/// their DFA). 500 samples, so the median is not the noise of this shared
/// machine's moment. One email in a fresh process (a one-shot command's
/// engines, cold caches) is timed by scripts/bench.sh.
#[divan::bench(sample_count = 500)]
fn scan_email_50k(b: Bencher) {
    let data = include_bytes!("../fixtures/scan/newsletter-50k.eml").to_vec();
    inertbox::run_as_server();
    inertbox::detect::rules::warm();
    b.counter(BytesCount::new(data.len())).bench(|| {
        let doc = inertbox::Document::load(black_box(data.clone()), inertbox::document::Kind::Auto, "bench");
        inertbox::detect::scan(&doc, &inertbox::detect::Options::default())
    });
}

/// Adversarial inputs finish in linear time: 10 MB of one character, and
/// 100k tiny findings.
#[divan::bench(args = ["one_char", "tiny_findings"])]
fn scan_adversarial(b: Bencher, which: &str) {
    let data: Vec<u8> = match which {
        "one_char" => vec![b'a'; 10 << 20],
        _ => "x\u{200b}y ".repeat(100_000).into_bytes(),
    };
    inertbox::run_as_server();
    inertbox::detect::rules::warm();
    b.counter(BytesCount::new(data.len())).bench(|| {
        let doc = inertbox::Document::load(black_box(data.clone()), inertbox::document::Kind::Text, "bench");
        inertbox::detect::scan(&doc, &inertbox::detect::Options::default())
    });
}

/// The invisible-character scan (`invisible::find`) on 4 MiB of each kind
/// of text: ordinary text in three scripts, terminal output, and the runs an
/// attacker writes.
#[divan::bench(args = [
    "ascii", "cjk", "cyrillic", "coloured_log", "progress_redraws", "zwsp_between_letters",
    "one_long_zw_run", "rlo_each_char", "soft_hyphens", "clear_screens", "backspace_storms",
    "unterminated_annotations", "tags_run", "selectors_run", "fillers_run",
])]
fn invisible_find(b: Bencher, which: &str) {
    let unit = match which {
        "ascii" => "The quick brown fox jumps over the lazy dog, then files a report (ok=1; id=42).\n",
        "cjk" => "\u{65E5}\u{672C}\u{8A9E}\u{306E}\u{6587}\u{7AE0}\u{3002}\n",
        "cyrillic" => "\u{041F}\u{0440}\u{0438}\u{0432}\u{0435}\u{0442} \u{043C}\u{0438}\u{0440}\n",
        "coloured_log" => "\u{1b}[32mINFO\u{1b}[0m request served in 12ms path=/api\n",
        "progress_redraws" => "Downloading 10%\r\u{1b}[KDownloading 20%\r",
        "zwsp_between_letters" => "a\u{200B}",
        "one_long_zw_run" => "\u{200B}\u{200C}\u{200D}",
        "rlo_each_char" => "a\u{202E}",
        "soft_hyphens" => "ab\u{AD}",
        "clear_screens" => "\u{1b}[2J",
        "backspace_storms" => "abcdef\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}\u{8}",
        "unterminated_annotations" => "\u{FFFA}abc",
        "tags_run" => "\u{E0061}",
        "selectors_run" => "\u{E0151}",
        _ => "\u{3164}\u{115F}",
    };
    let text = unit.repeat((4 << 20) / unit.len());
    b.counter(BytesCount::new(text.len())).bench(|| inertbox::testing::invisible::find(black_box(&text)));
}

/// A 50 KB HTML email (multipart/alternative) parsed: headers, MIME walk,
/// decoding (`email::parse`, before rendering and scanning).
#[divan::bench]
fn email_parse_50k_html(b: Bencher) {
    let data = include_bytes!("../fixtures/scan/newsletter-50k.eml");
    b.counter(BytesCount::new(data.len())).bench(|| inertbox::testing::email::parse(black_box(data)));
}

/// MIME shapes an attacker writes, 4 MiB each: many empty parts, nesting,
/// boundary near misses, encoded words, header floods.
#[divan::bench(args = [
    "empty_parts", "nested_multiparts", "nested_messages", "boundary_near_misses",
    "encoded_words", "header_lines", "content_type_lines",
])]
fn email_parse_adversarial(b: Bencher, which: &str) {
    const SIZE: usize = 4 << 20;
    let fill = |head: &str, unit: &str| head.to_string() + &unit.repeat((SIZE - head.len()) / unit.len());
    let multipart = "From: a@b.c\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n";
    let raw = match which {
        "empty_parts" => fill(multipart, "--b\r\n\r\n"),
        "nested_multiparts" => {
            let mut nested = String::from("From: a@b.c\r\n");
            for i in 0.. {
                let unit = format!("Content-Type: multipart/mixed; boundary=b{i}\r\n\r\n--b{i}\r\n");
                if nested.len() + unit.len() > SIZE {
                    break;
                }
                nested.push_str(&unit);
            }
            nested
        }
        "nested_messages" => fill("From: a@b.c\r\n", "Content-Type: message/rfc822\r\n\r\n"),
        "boundary_near_misses" => fill(multipart, "-b-b-b-b-b-b-b-b-b-b-b-b-b-b-b-b-b\r\n"),
        "encoded_words" => fill("From: a@b.c\r\nSubject: ", "=?utf-8?q?a?= "),
        "header_lines" => fill("From: a@b.c\r\n", "X-A: b\r\n"),
        _ => fill("From: a@b.c\r\n", "Content-Type: message/rfc822; x=1\r\n"),
    };
    b.counter(BytesCount::new(raw.len())).bench(|| inertbox::testing::email::parse(black_box(raw.as_bytes())));
}

/// `serve --ndjson`: one small scan request answered, in process (the bar is
/// 20,000 a second on one core).
#[divan::bench]
fn serve_small_scan(b: Bencher) {
    let mut server = inertbox::serve::Server::new(inertbox::gate::Policy::default(), 1 << 20).unwrap();
    let line =
        r#"{"id":1,"op":"scan","content":"Hi Dana, the invoice for April is attached. Thanks, Sam","record":false}"#;
    inertbox::run_as_server();
    server.handle_line(line);
    inertbox::detect::rules::warm();
    b.bench_local(|| server.handle_line(black_box(line)));
}

fn ledger_1000() -> inertbox::gate::Ledger {
    use inertbox::document::{Entity, EntityKind};
    let mut ledger = inertbox::gate::Ledger::default();
    for i in 0..1000 {
        let e = |kind, value: String| Entity { kind, value, hidden: false };
        ledger.add_read(
            &format!("email {i}"),
            if i % 10 == 0 { inertbox::detect::Verdict::Block } else { inertbox::detect::Verdict::Allow },
            vec![
                e(EntityKind::Email, format!("user{i}@vendor{}.test", i % 50)),
                e(EntityKind::Url, format!("https://site{i}.test/p?q={i}")),
                e(EntityKind::Domain, format!("vendor{}.test", i % 50)),
            ],
            vec![format!("user{i}@vendor{}.test", i % 50)],
        );
    }
    ledger
}

/// A gate decision against a 1,000-entry ledger, in process: check and
/// index a session file's text (`gate_session_open`, format v2; the v1 JSON
/// parse is kept for comparison) and decide against it (`gate_decide`).
#[divan::bench]
fn gate_session_open_1000(b: Bencher) {
    let text = session_text_1000();
    b.bench(|| inertbox::session::SessionFile::from_text(black_box(text.clone())).unwrap());
}

#[divan::bench]
fn gate_ledger_parse_v1_json_1000(b: Bencher) {
    let json = serde_json::to_string(&ledger_1000()).unwrap();
    b.bench(|| serde_json::from_str::<inertbox::gate::Ledger>(black_box(&json)).unwrap());
}

/// The 1,000-read ledger as session text (format v2).
fn session_text_1000() -> String {
    use inertbox::gate::Recorder;
    let mut file = inertbox::session::SessionFile::from_text(String::new()).unwrap();
    for r in ledger_1000().reads {
        file.add_read(&r.source, r.verdict, r.entities, r.sender);
    }
    file.text().to_string()
}

#[divan::bench]
fn gate_decide_1000(b: Bencher) {
    let file = inertbox::session::SessionFile::from_text(session_text_1000()).unwrap();
    // An address nobody gave: the whole session is searched.
    let call =
        inertbox::gate::parse_call(r#"{"tool":"send_email","args":{"to":"new@elsewhere.test","body":"hi"}}"#).unwrap();
    let policy = inertbox::gate::Policy::default();
    inertbox::gate::decide(&call, &file, &policy);
    b.bench(|| inertbox::gate::decide(black_box(&call), &file, &policy));
}

/// What `gate --session FILE` and a PreToolUse hook do: decide in the
/// 1,000-read session file as it is read 16 KB at a time (lock, read,
/// check every line, match the call's address against every item), page
/// cache warm.
#[divan::bench]
fn gate_decide_in_file_1000(b: Bencher) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.session");
    std::fs::write(&path, session_text_1000()).unwrap();
    let call =
        inertbox::gate::parse_call(r#"{"tool":"send_email","args":{"to":"new@elsewhere.test","body":"hi"}}"#).unwrap();
    let policy = inertbox::gate::Policy::default();
    b.bench(|| inertbox::session::decide_in(black_box(&path), black_box(&call), &policy).unwrap());
}

/// What `hook serve` does per call for a PostToolUse Read of src/gate.rs as
/// it was before it split into src/gate/ (fixtures/text/gate.rs.txt: 49 KB of
/// code full of the words the rules look for), warm: the answer's work
/// without the client process (`scripts/bench.sh --per-call` times the whole
/// call).
#[cfg(unix)]
#[divan::bench(sample_count = 200)]
fn hook_serve_read_gate_rs(b: Bencher) {
    inertbox::hookd::warm();
    let dir = tempfile::tempdir().unwrap();
    let event = serde_json::json!({
        "session_id": "bench", "hook_event_name": "PostToolUse", "tool_name": "Read",
        "tool_input": {"file_path": "src/gate.rs"},
        "tool_response": {"type": "text", "file": {"filePath": "src/gate.rs", "content": include_str!("../fixtures/text/gate.rs.txt")}},
    });
    let req = inertbox::hookd::Request {
        identity: inertbox::hookd::identity(),
        event: None,
        session: Some(dir.path().join("s.session")),
        policy: None,
        input: event.to_string().into_bytes(),
    };
    b.counter(BytesCount::new(req.input.len())).bench(|| {
        let out = inertbox::hookd::handle(black_box(&req));
        assert!(!out.is_empty());
    });
}
