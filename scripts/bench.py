#!/usr/bin/env python3
"""Time the release binary on real-sized inputs against the hashing floor and,
when given a checkout of the reference (heznpc/inertbox), against it.

Usage: scripts/bench.sh [REF_CHECKOUT]   (builds first, then runs this)

Prints throughput in GB/s (10^9 bytes/s), ratios to the SHA-256 floor
(sha2 with SHA-NI, examples/sha256_floor.rs) and peak RSS per process.
"""
import json, os, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.join(ROOT, "target", "release", "inertbox")
FLOOR = os.path.join(ROOT, "target", "release", "examples", "sha256_floor")
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

def main():
    ref = sys.argv[1] if len(sys.argv) > 1 else None
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        big = os.path.join(tmp, "big.txt")
        text_file(big, 100 * MIB)
        size = os.path.getsize(big)
        wrapped = os.path.join(tmp, "big.inert.md")
        with open(wrapped, "wb") as f:
            subprocess.run([BIN, "wrap", big], stdout=f, check=True)
        # Warm the page cache for both files.
        for p in (big, wrapped):
            with open(p, "rb") as f:
                while f.read(16 * MIB):
                    pass
        floor_t, floor_rss, _ = best([FLOOR, big])
        wrap_t, wrap_rss, wrap_codes = best([BIN, "wrap", big])
        check_t, check_rss, check_codes = best([BIN, "check", wrapped])
        assert wrap_codes == {0} and check_codes == {0}, (wrap_codes, check_codes)
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

main()
