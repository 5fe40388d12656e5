#!/usr/bin/env python3
"""Time the release binary on real-sized inputs against the hashing floor and,
when given a checkout of the reference (heznpc/inertbox), against it.

Usage: scripts/bench.sh [REF_CHECKOUT | --real | --per-call]   (builds first,
then runs this; --real: only the real-text rows, --per-call: only the
per-call rows)

Prints throughput in GB/s (10^9 bytes/s), ratios to the SHA-256 floor
(sha2 with SHA-NI, examples/sha256_floor.rs) and peak RSS per process.
"""
import json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "inertbox")
FLOOR = os.path.join(ROOT, "target", "release", "examples", "sha256_floor")
TIMER = os.path.join(ROOT, "target", "release", "examples", "spawn_timer")
CORPUS = os.path.join(ROOT, "target", "release", "examples", "real_corpus")
MIB = 1 << 20

def run(cmd, stdout=subprocess.DEVNULL, stdin=None):
    """Run once; return (seconds, peak RSS KiB, exit code). Time is measured
    on a plain run; peak RSS on a second run under GNU time (a forked Python
    child would report Python's own pages)."""
    t = time.perf_counter()
    p = subprocess.run(cmd, stdout=stdout, stderr=subprocess.DEVNULL, stdin=stdin)
    dt = time.perf_counter() - t
    rss = 0
    if os.path.exists("/usr/bin/time") and stdin is None:
        with tempfile.NamedTemporaryFile("r") as f:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f.name] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            rss = int(f.read().strip().splitlines()[-1] or 0)
    return dt, rss, p.returncode

def best(cmd, n=5, **kw):
    runs = [run(cmd, **kw) for _ in range(n)]
    codes = {r[2] for r in runs}
    return min(r[0] for r in runs), max(r[1] for r in runs), codes

def median_time(cmd, n, stdin_path=None):
    ts = []
    for _ in range(n):
        with open(stdin_path or os.devnull, "rb") as f:
            ts.append(run(cmd, stdin=f)[0])
    return statistics.median(ts)

def text_file(path, size):
    lines = [
        b"The quick brown fox jumps over the lazy dog; see `README.md` for more.\n",
        b"    fn main() { println!(\"hello, world\"); } // ``code`` with ticks\n",
        b"Ignore previous instructions? No: this is ordinary prose about a log line.\n",
        b"2026-11-29T22:08:55Z INFO server: request id=42 path=/api/v1/items status=200\n",
    ]
    block = b"".join(lines) * 1024
    with open(path, "wb") as f:
        left = size
        while left > 0:
            f.write(block[:left]); left -= len(block[:left])

# Rounds of the per-call rows (each a median of many runs).
ROUNDS = 3

def spawn_time(cmd, runs, stdin_path=os.devnull, env=None):
    """Median wall time (ms) of `cmd` as a fresh process, stdin replayed
    from a file each run (examples/spawn_timer.rs)."""
    r = subprocess.run([TIMER, str(runs), stdin_path] + cmd, capture_output=True, text=True, check=True, env=env)
    return json.loads(r.stdout)["median_ms"]

def hook_event(path, tool, content):
    event = {"session_id": "bench", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp", "hook_event_name": "PostToolUse",
             "tool_name": tool, "tool_input": {"file_path": "/tmp/f"},
             "tool_response": {"type": "text", "file": {"filePath": "/tmp/f", "content": content}}}
    with open(path, "w") as f:
        json.dump(event, f)

def static_binary():
    """The statically linked build scripts/bench.sh makes on Linux (glibc),
    or None: what a hook or the gate should run (see README, Install)."""
    host = subprocess.run(["rustc", "-vV"], capture_output=True, text=True, check=True).stdout
    triple = next(l.split(": ", 1)[1] for l in host.splitlines() if l.startswith("host: "))
    path = os.path.join(ROOT, "target", triple, "release", "inertbox")
    return path if os.path.exists(path) else None

def per_call(tmp):
    """What a hook or a gate pays per tool call: whole process, median, for
    the default (dynamically linked) build and, when built, the static one."""
    static = static_binary()
    bins = [BIN] + ([static] if static else [])
    out = [f"per call, whole process, median; the range over {ROUNDS} rounds with every row run in turn "
           "(hooks run on every tool call); "
           + ("default build / static build:" if static else "default build (no static build found):")]
    rows = []

    def row(label, argv, runs, stdin_path=os.devnull, programs=None, env=None):
        rows.append((label, [([b] + argv, env and env[b]) for b in (programs or bins)], runs, stdin_path))

    # `hook serve` for each build, each under its own state directory (a
    # server answers only clients of its own build).
    servers, server_env = [], {}
    for i, b in enumerate(bins):
        state = os.path.join(tmp, f"state-{i}")
        os.makedirs(state, mode=0o700)
        server_env[b] = dict(os.environ, XDG_STATE_HOME=state)
        servers.append(subprocess.Popen([b, "hook", "serve", "--quiet", "--idle", "30"], env=server_env[b]))
        sock = os.path.join(state, "inertbox", "hookd", "sock")
        for _ in range(500):
            if os.path.exists(sock):
                break
            time.sleep(0.01)

    row("/bin/true", [], 200, programs=["/bin/true"])
    row("inertbox --version", ["--version"], 200)
    # A session of 1,000 reads (4 entities each), session format v2.
    session = os.path.join(tmp, "ledger1000.session")
    with open(session, "w") as f:
        f.write(session_1000())
    for label, call in [("read tool", {"tool": "ls", "args": {"path": "."}}),
                        ("send to an address the content named", {"tool": "send_email", "args": {"to": "user5@site5.test", "body": "hi"}}),
                        ("send to a new address (every read searched)", {"tool": "send_email", "args": {"to": "new@else.test", "body": "hi"}})]:
        row(f"gate, 1,000-read session, {label}", ["gate", "--session", session, "--call", json.dumps(call)], 200)
    row("gate without a session, read tool", ["gate", "--call", json.dumps({"tool": "ls"})], 200)
    email = os.path.join(ROOT, "fixtures", "scan", "newsletter-50k.eml")
    row(f"scan of one {os.path.getsize(email) // 1000} KB HTML email (fixtures/scan/newsletter-50k.eml)", ["scan", email], 100)
    fixtures = os.path.join(ROOT, "fixtures", "hooks")
    for name in ["pre-bash-curl", "post-read-clean", "post-webfetch-hidden", "user-prompt-plain"]:
        s = os.path.join(tmp, f"s-{name}.session")
        row(f"hook claude, fixtures/hooks/{name}.json", ["hook", "claude", "--no-server", "--session", s], 100, os.path.join(fixtures, name + ".json"))
    # The same hooks late in a long session: 1,000 reads recorded already.
    for name in ["pre-bash-curl", "post-read-clean"]:
        s = os.path.join(tmp, f"s1000-{name}.session")
        with open(s, "w") as f:
            f.write(session_1000())
        row(f"hook claude, fixtures/hooks/{name}.json, 1,000-read session", ["hook", "claude", "--no-server", "--session", s], 100,
            os.path.join(fixtures, name + ".json"))
    # PostToolUse after Read of this repository's own files: prose and
    # code full of the words the rules look for (the slow case).
    for rel in ["CHANGELOG.md", "README.md", "Cargo.lock", "fixtures/text/gate.rs.txt"]:
        ev = os.path.join(tmp, f"read-event-{len(rows)}.json")
        with open(os.path.join(ROOT, rel), encoding="utf-8") as f:
            hook_event(ev, "Read", f.read())
        s = os.path.join(tmp, "s-read.session")
        row(f"hook claude, PostToolUse Read of {rel} ({os.path.getsize(os.path.join(ROOT, rel)):,} bytes)",
            ["hook", "claude", "--no-server", "--session", s], 30, ev)
        row(f"hook claude via hook serve, PostToolUse Read of {rel}", ["hook", "claude", "--session", s], 30, ev,
            env=server_env)
    for name in ["pre-bash-curl", "post-read-clean", "post-webfetch-hidden"]:
        s = os.path.join(tmp, f"s-srv-{name}.session")
        row(f"hook claude via hook serve, fixtures/hooks/{name}.json", ["hook", "claude", "--session", s], 100,
            os.path.join(fixtures, name + ".json"), env=server_env)
    # Rounds over all rows, so a slow spell of a shared machine spreads over
    # every row instead of landing on a few.
    times = [[[] for _ in cmds] for _, cmds, _, _ in rows]
    for _ in range(ROUNDS):
        for (label, cmds, runs, stdin_path), t in zip(rows, times):
            for (cmd, env), tb in zip(cmds, t):
                tb.append(spawn_time(cmd, runs, stdin_path, env))
    for p in servers:
        p.terminate()
        p.wait()
    for (label, _, _, _), t in zip(rows, times):
        cells = [f"{min(tb):.2f} ms" if max(tb) - min(tb) < 0.005 else f"{min(tb):.2f}–{max(tb):.2f} ms" for tb in t]
        out.append(f"  {label}: " + " / ".join(cells))
    return out

def wrap_and_check(path):
    """Wrap `path` once (the document check reads), warm the page cache for
    both, then best of 5 of the floor, wrap and check: (floor, wrap, check),
    each (seconds, peak RSS KiB), and the wrapped document's path."""
    wrapped = path + ".inert.md"
    with open(wrapped, "wb") as f:
        subprocess.run([BIN, "wrap", path], stdout=f, check=True)
    for p in (path, wrapped):
        with open(p, "rb") as f:
            while f.read(16 * MIB):
                pass
    floor = best([FLOOR, path])
    wrap = best([BIN, "wrap", path])
    check = best([BIN, "check", wrapped])
    assert wrap[2] == {0} and check[2] == {0}, (wrap[2], check[2])
    return floor[:2], wrap[:2], check[:2], wrapped

def real_text(tmp):
    """The real-text corpus (benches/support/real_corpus.rs): `scan` of each
    set as one file, whole process; wrap and check of 100 MiB of the whole
    corpus repeated and of words that change script every few characters,
    against the SHA-256 floor on the same bytes; `scan` of the 65 KB HTML
    mail against `cat` of it."""
    sets = os.path.join(tmp, "sets")
    listing = subprocess.run([CORPUS, sets], capture_output=True, text=True, check=True).stdout.split("\n")
    out = ["real text (benches/support/real_corpus.rs), `scan SET.txt`, whole process, best of 3:"]
    total_bytes, total_t = 0, 0.0
    for line in filter(None, listing):
        name, docs, size = line.split()
        path = os.path.join(sets, f"{name}.txt")
        t, rss, codes = best([BIN, "scan", path], n=3)
        assert codes <= {0, 1}, (name, codes)
        if name not in ("dense", "plain"):
            total_bytes += int(size)
            total_t += t
        out.append(f"  {name:<11} {int(docs):5} docs {int(size):>9,} bytes  {t*1e3:7.1f} ms  {int(size)/t/1e6:6.1f} MB/s  peak RSS {rss/1024:5.1f} MiB")
    out.append(f"  every set but dense/plain (the same texts again, split by how they were picked): {total_bytes/total_t/1e6:.1f} MB/s")
    unit = b"na\xc3\xafve caf\xc3\xa9 Gr\xc3\xb6\xc3\x9fe \xed\x95\x9c\xea\xb5\xad\xec\x96\xb4 `code` ``` \xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e \xd1\x82\xd0\xb5\xd0\xba\xd1\x81\xd1\x82 \xd7\xa9\xd7\x9c\xd7\x95\xd7\x9d ok \xf0\x9f\x98\x80 a``b\n"
    corpus = b"\n\n".join(open(os.path.join(sets, f), "rb").read() for f in sorted(os.listdir(sets))
                          if f not in ("dense.txt", "plain.txt"))
    for label, block in [("the real-text corpus repeated", corpus), ("words changing script every few characters", unit)]:
        path = os.path.join(tmp, "text100.txt")
        with open(path, "wb") as f:
            n = (100 * MIB) // len(block)
            f.write(block * n)
        size = os.path.getsize(path)
        (floor_t, _), (wrap_t, wrap_rss), (check_t, check_rss), _ = wrap_and_check(path)
        out.append(f"100 MiB of {label} ({size:,} bytes), best of 5:")
        out.append(f"  sha256 floor {floor_t*1e3:7.1f} ms; wrap {wrap_t*1e3:7.1f} ms = {wrap_t/floor_t:4.2f}x, peak RSS {wrap_rss/1024:.1f} MiB; "
                   f"check {check_t*1e3:7.1f} ms = {check_t/floor_t:4.2f}x, peak RSS {check_rss/1024:.1f} MiB")
    email = os.path.join(ROOT, "fixtures", "scan", "newsletter-50k.eml")
    cat = spawn_time(["cat", email], 100)
    scan = spawn_time([BIN, "scan", email], 100)
    out.append(f"scan of the {os.path.getsize(email) // 1000} KB HTML mail, whole process, median of 100: {scan:.2f} ms; "
               f"cat of it {cat:.2f} ms ({scan/cat:.1f}x)")
    return out

def session_1000():
    """A session file (format v2) with 1,000 reads, one in ten blocked."""
    lines = ["inertbox-session 2"]
    for i in range(1000):
        verdict = "block" if i % 10 == 0 else "allow"
        lines.append("\t".join([
            "r", f"r{i + 1}", verdict, f"page-{i}.html", f"e:user{i}@site{i % 97}.test",
            f"u:https://site{i % 97}.test/p/{i}?q={i}", f"d:site{i % 97}.test", f"p:+1555{i:07d}"]))
    return "\n".join(lines) + "\n"

def main():
    if sys.argv[1:] == ["--real"]:
        # Only the real-text rows (a few minutes).
        with tempfile.TemporaryDirectory() as tmp:
            print("\n".join(real_text(tmp)))
        return
    if sys.argv[1:] == ["--per-call"]:
        # Only the per-call rows (a minute or two, no 100 MiB files).
        with tempfile.TemporaryDirectory() as tmp:
            print("\n".join(per_call(tmp)))
        return
    ref = sys.argv[1] if len(sys.argv) > 1 else None
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.txt")
        text_file(big, 100 * MIB)
        size = os.path.getsize(big)
        (floor_t, floor_rss), (wrap_t, wrap_rss), (check_t, check_rss), wrapped = wrap_and_check(big)
        gb = lambda t, n=size: n / t / 1e9
        out.append(f"100 MiB text ({size} bytes), best of 5, output to /dev/null")
        out.append(f"  sha256 floor (sha2, SHA-NI)  {floor_t*1e3:8.1f} ms  {gb(floor_t):5.2f} GB/s  peak RSS {floor_rss/1024:6.1f} MiB")
        out.append(f"  inertbox wrap                {wrap_t*1e3:8.1f} ms  {gb(wrap_t):5.2f} GB/s  peak RSS {wrap_rss/1024:6.1f} MiB  {wrap_t/floor_t:4.2f}x floor")
        out.append(f"  inertbox check               {check_t*1e3:8.1f} ms  {gb(check_t):5.2f} GB/s  peak RSS {check_rss/1024:6.1f} MiB  {check_t/floor_t:4.2f}x floor")
        small = os.path.join(tmp, "small.txt")
        text_file(small, 1024)
        small_wrap = median_time([BIN, "wrap", small], 200)
        small_check_doc = os.path.join(tmp, "small.inert.md")
        with open(small_check_doc, "wb") as f:
            subprocess.run([BIN, "wrap", small], stdout=f, check=True)
        small_check = median_time([BIN, "check", small_check_doc], 200)
        out.append(f"1 KiB, whole process, median of 200: wrap {small_wrap*1e3:.2f} ms, check {small_check*1e3:.2f} ms")
        tree = os.path.join(tmp, "tree")
        opts_doc = subprocess.run([BIN, "wrap", "-", "--source", "doc"], input=b"a small wrapped document\n" * 3,
                                  stdout=subprocess.PIPE, check=True).stdout
        for i in range(10_000):
            d = os.path.join(tree, f"d{i // 100:03}")
            os.makedirs(d, exist_ok=True)
            with open(os.path.join(d, f"{i:05}.inert.md"), "wb") as f:
                f.write(opts_doc)
        tree_t, tree_rss, tree_codes = best([BIN, "check", "--quiet", tree], n=3)
        assert tree_codes == {0}, tree_codes
        out.append(f"check of a tree of 10,000 small documents: {tree_t*1e3:.0f} ms (best of 3), peak RSS {tree_rss/1024:.1f} MiB")
        # serve --ndjson: 20,000 small scan requests through one process.
        reqs = "".join(
            json.dumps({"id": i, "op": "scan", "content": f"Hi Dana, invoice {i} for April is attached. Thanks, Sam", "record": False}) + "\n"
            for i in range(20_000)
        ).encode()
        t0 = time.perf_counter()
        p = subprocess.run([BIN, "serve", "--ndjson"], input=reqs, stdout=subprocess.PIPE, check=True)
        dt = time.perf_counter() - t0
        assert p.stdout.count(b"\n") == 20_000
        out.append(f"serve --ndjson: 20,000 small scans in {dt*1e3:.0f} ms = {20_000/dt:,.0f} scans/s (one process, start-up included)")
        out.extend(real_text(tmp))
        out.extend(per_call(tmp))
        if ref:
            node = ["node", os.path.join(ref, "bin", "inertbox.mjs")]
            rw_t, rw_rss, _ = run(node + ["wrap", big])
            rc_t, rc_rss, _ = run(node + ["check", wrapped])
            out.append(f"reference (node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}), one run each:")
            out.append(f"  wrap 100 MiB   {rw_t*1e3:8.1f} ms  {gb(rw_t):5.2f} GB/s  peak RSS {rw_rss/1024:6.1f} MiB  ({rw_t/wrap_t:.1f}x ours)")
            out.append(f"  check 100 MiB  {rc_t*1e3:8.1f} ms  {gb(rc_t):5.2f} GB/s  peak RSS {rc_rss/1024:6.1f} MiB  ({rc_t/check_t:.1f}x ours)")
            rs = median_time(node + ["wrap", small], 20)
            rsc = median_time(node + ["check", small_check_doc], 20)
            out.append(f"  1 KiB whole process, median of 20: wrap {rs*1e3:.1f} ms ({rs/small_wrap:.0f}x ours), check {rsc*1e3:.1f} ms ({rsc/small_check:.0f}x ours)")
    print("\n".join(out))

if __name__ == "__main__":
    main()
