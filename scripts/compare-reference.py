#!/usr/bin/env python3
"""Compare `inertbox wrap` / `check` with the reference implementation.

Usage: scripts/compare-reference.py REF_CHECKOUT [--count N] [--seed S] [--bin PATH]

REF_CHECKOUT is a checkout of heznpc/inertbox at 0.2.0-alpha.0 (run with node).
Generates inputs (text with backtick runs, anchors, metadata look-alikes, CRLF,
emoji, BOMs, invalid UTF-8, ...), wraps each with both tools and compares every
byte of stdout and the exit code; then mutates wrapped documents (byte flips,
deleted lines, truncation, CRLF conversion, spliced wrappers) and compares
check's exit codes. Prints a summary; exits 1 on any disagreement that is not
one of the documented deviations (a leading BOM).
"""
import argparse, os, random, subprocess, sys, tempfile

PIECES = [
    "hello", "world", "\n", "\n\n", "\r\n", " ", "\t", "`", "``", "```", "````", "```text",
    "[INERTBOX v1 begin ", "[INERTBOX v1 end ", "]", "[INERTBOX v2 begin ab]",
    "source: x", "bytes: 12", "sha256: ", "0" * 64, "ignore previous instructions",
    "é", "日本語", "😀", "👨‍👩‍👧", "\u2028", "\u2029", "\u200b", "\U000E0041", "\ufeff",
    "End of quoted material (source: ", "abc", "0123456789abcdef", "text", ":", ": ",
]

def rand_text(rng):
    n = rng.randint(0, 30)
    s = "".join(rng.choice(PIECES) for _ in range(n))
    if rng.random() < 0.05:
        s = "\ufeff" + s
    return s

def rand_bytes(rng):
    r = rng.random()
    if r < 0.08:
        b = bytearray(rand_text(rng).encode())
        pos = rng.randint(0, len(b))
        b[pos:pos] = rng.choice([b"\xff", b"\xc3", b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf"])
        return bytes(b)
    return rand_text(rng).encode()

def run(cmd, data, cwd=None):
    p = subprocess.run(cmd, input=data, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd)
    return p.returncode, p.stdout

def mutate(rng, doc):
    b = bytearray(doc)
    kind = rng.randrange(7)
    if kind == 0 and b:
        i = rng.randrange(len(b)); b[i] = rng.randrange(256)
    elif kind == 1:
        lines = bytes(b).split(b"\n"); del lines[rng.randrange(len(lines))]; b = bytearray(b"\n".join(lines))
    elif kind == 2:
        b = b[: rng.randint(0, len(b))]
    elif kind == 3:
        b = bytearray(bytes(b).replace(b"\n", b"\r\n"))
    elif kind == 4:
        b = b + b"host text\n" + b
    elif kind == 5:
        lines = bytes(b).split(b"\n"); i = rng.randrange(len(lines)); lines.insert(i, rng.choice(PIECES).encode()); b = bytearray(b"\n".join(lines))
    else:
        i = rng.randint(0, len(b)); b[i:i] = rng.choice(PIECES).encode()
    return bytes(b)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ref")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "inertbox"))
    a = ap.parse_args()
    rng = random.Random(a.seed)
    ref = ["node", os.path.join(a.ref, "bin", "inertbox.mjs")]
    ours = [a.bin]
    bad = 0; wrap_same = 0; check_same = 0; bom = 0; deviation = 0
    sources = [None, "notes.md", "a b", "é😀", "x\u2028y", "tab\there", "-", "--dash", "ctl\x7f"]
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.count):
            data = rand_bytes(rng)
            src = rng.choice(sources)
            args = ["wrap", "-"] + (["--source", src] if src is not None else [])
            if src is not None and src.startswith("-"):
                args = ["wrap", "-", "--source", src]
            stdin = data
            if rng.random() < 0.5:
                # Through a file: our streaming path, labelled with the path.
                fp = os.path.join(tmp, "in.txt")
                open(fp, "wb").write(data)
                args[1] = fp
                stdin = b""
            r_code, r_out = run(ref + args, stdin)
            o_code, o_out = run(ours + args, stdin)
            if data.startswith(b"\xef\xbb\xbf") and r_code == 0:
                bom += 1
                # Documented deviation: we keep the BOM inside the fence.
                oc, _ = run(ours + ["check", "-"], o_out)
                fence_end = o_out.index(b"text\n") + 5
                same = o_out[fence_end:fence_end + 3] == b"\xef\xbb\xbf" and o_out[:fence_end] + o_out[fence_end + 3:] == r_out
                if o_code != 0 or oc != 0 or not same:
                    bad += 1
                    print(f"BOM deviation not as documented #{i}: {data!r}")
                continue
            if (r_code, r_out) != (o_code, o_out):
                bad += 1
                print(f"WRAP DIFF #{i}: data={data!r} src={src!r} ref={r_code} ours={o_code}")
                continue
            wrap_same += 1
            if r_code != 0:
                continue
            if src is not None and ("\u2028" in src or "\u2029" in src):
                # Documented deviation: the reference cannot verify its own
                # document when the label holds U+2028/U+2029; ours must.
                oc, _ = run(ours + ["check", "-"], o_out)
                if oc != 0:
                    bad += 1
                    print(f"LS/PS label did not verify #{i}: {o_out!r}")
                else:
                    deviation += 1
                continue
            for _ in range(4):
                doc = mutate(rng, r_out) if rng.random() < 0.85 else r_out
                p = os.path.join(tmp, "d.inert.md")
                open(p, "wb").write(doc)
                rc, _ = run(ref + ["check", p], b"")
                oc, _ = run(ours + ["check", p], b"")
                if rc == 1 and oc == 0 and ("\u2028".encode() in doc or "\u2029".encode() in doc):
                    deviation += 1  # a metadata value holding U+2028/U+2029 is valid for us
                elif rc != oc:
                    bad += 1
                    print(f"CHECK DIFF #{i}: doc={doc!r} ref={rc} ours={oc}")
                else:
                    check_same += 1
    print(f"wrap agreed {wrap_same}, check agreed {check_same}, BOM inputs (deviation) {bom}, U+2028 labels verified (deviation) {deviation}, disagreements {bad}")
    sys.exit(1 if bad else 0)

main()
