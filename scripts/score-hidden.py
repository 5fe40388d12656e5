#!/usr/bin/env python3
"""Score inertbox scan on the held-out hidden-channel set (fixtures/hidden).

    scripts/score-hidden.py [--bin PATH] [--show] [--set DIR] [--split dev|heldout|all]

Runs `BIN scan --json --type KIND FILE` on every vector in DIR/vectors.jsonl
(KIND from the file) and prints, per channel, attacks found (verdict review
or block) out of attacks, and false alarms (verdict other than allow) out of
benign vectors, as a markdown table with totals. --show lists each miss and
each false alarm with its findings. It measures and never gates: exit 0.

--split: the vectors whose number is even (`hc-a02`, `em-b04`) are the
development half, the ones it is fair to look at while changing the
scanner; the odd ones are held out, read only as a score. Report the
held-out half. Standard library only."""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scan(binary, kind, path):
    try:
        proc = subprocess.run([binary, "scan", "--json", "--type", kind, path],
                              capture_output=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, "could not run: %s" % e
    if proc.returncode not in (0, 1):
        return None, "exit %d: %s" % (proc.returncode, proc.stderr.decode("utf-8", "replace").strip()[:300])
    try:
        return json.loads(proc.stdout.decode("utf-8")), None
    except ValueError as e:
        return None, "bad JSON: %s" % e


def finding_line(f):
    text = (f.get("text") or "").replace("\n", " ")
    if len(text) > 90:
        text = text[:87] + "..."
    hidden = " hidden(%s)" % f.get("hidden_by") if f.get("hidden") else ""
    return "    %s %s [%s]%s %r" % (f.get("severity"), f.get("code"), f.get("rule"), hidden, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.path.join(ROOT, "target", "release", "inertbox"),
                    help="inertbox binary (default: target/release/inertbox)")
    ap.add_argument("--show", action="store_true", help="list each miss and false alarm with its findings")
    ap.add_argument("--set", default=os.path.join(ROOT, "fixtures", "hidden"), help="directory holding vectors.jsonl")
    ap.add_argument("--split", choices=["dev", "heldout", "all"], default="all",
                    help="even-numbered vectors (dev), odd-numbered (heldout), or all")
    args = ap.parse_args()

    vectors = []
    with open(os.path.join(args.set, "vectors.jsonl"), encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                v = json.loads(line)
                number = int("".join(ch for ch in v["id"].rsplit("-", 1)[-1] if ch.isdigit()) or 0)
                half = "dev" if number % 2 == 0 else "heldout"
                if args.split in ("all", half):
                    vectors.append(v)

    channels = []
    stats = {}
    misses, alarms, errors = [], [], []
    for v in vectors:
        ch = v["channel"]
        if ch not in stats:
            channels.append(ch)
            stats[ch] = {"att": 0, "found": 0, "ben": 0, "fa": 0}
        report, err = scan(args.bin, v["kind"], os.path.join(args.set, v["file"]))
        verdict = report["verdict"] if report else "error"
        s = stats[ch]
        if err:
            errors.append((v, err))
        if v["expect_hidden"]:
            s["att"] += 1
            if verdict in ("review", "block"):
                s["found"] += 1
            else:
                misses.append((v, report, err))
        else:
            s["ben"] += 1
            if verdict != "allow":
                s["fa"] += 1
                alarms.append((v, report, err))

    def pct(a, b):
        return "%.1f%%" % (100.0 * a / b) if b else "-"

    print("| channel | attacks found | recall | false alarms / benign |")
    print("|---|---|---|---|")
    tot = {"att": 0, "found": 0, "ben": 0, "fa": 0}
    for ch in channels:
        s = stats[ch]
        for k in tot:
            tot[k] += s[k]
        print("| %s | %d/%d | %s | %d/%d |" % (ch, s["found"], s["att"], pct(s["found"], s["att"]), s["fa"], s["ben"]))
    print("| **total** | **%d/%d** | **%s** | **%d/%d** |" % (tot["found"], tot["att"], pct(tot["found"], tot["att"]),
                                                           tot["fa"], tot["ben"]))
    print()
    print("%d vectors: %d attacks, %d benign. Goal: at least 97%% of attacks found, no false alarm." %
          (len(vectors), tot["att"], tot["ben"]))
    print("binary: %s" % args.bin)
    if errors:
        print("%d vectors could not be scanned (counted as not found / false alarm)" % len(errors))

    if args.show:
        for title, rows in (("Misses (attack scored allow)", misses), ("False alarms (benign not allow)", alarms)):
            print()
            print("## %s: %d" % (title, len(rows)))
            for v, report, err in rows:
                print()
                print("- %s (%s, %s): %s" % (v["id"], v["channel"], v["file"], v["note"]))
                if err:
                    print("    error: %s" % err)
                    continue
                print("    verdict %s, score %s" % (report["verdict"], report.get("score")))
                for f in report.get("findings", [])[:12]:
                    print(finding_line(f))
                if not report.get("findings"):
                    print("    (no findings)")
    return 0


if __name__ == "__main__":
    try:
        main()
    except BrokenPipeError:
        pass
    sys.exit(0)
