#!/usr/bin/env python3
"""Score `inertbox scan` on a labelled corpus (JSON lines: id, label, category,
lang, source, text), e.g. the project's scan-dev.jsonl.

Usage: scripts/score-corpus.py CORPUS.jsonl [--bin PATH] [--show-misses] [--show-fp]

Each sample's text goes to `inertbox scan --json -`. Attack recall counts a
sample as caught when the verdict is review or block (exit 1). The false-
positive rate counts benign samples flagged (review or block); samples in
category `quoted_attack` (security writing that quotes attacks) are reported
apart: review is fine for them, block is not.
"""
import argparse, collections, json, os, subprocess, sys

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("corpus")
    ap.add_argument("--bin", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "inertbox"))
    ap.add_argument("--show-misses", action="store_true")
    ap.add_argument("--show-fp", action="store_true")
    a = ap.parse_args()
    rows = [json.loads(l) for l in open(a.corpus, encoding="utf-8") if l.strip()]
    per = collections.defaultdict(lambda: [0, 0, 0])  # category -> [n, flagged, blocked]
    misses, fps = [], []
    for r in rows:
        p = subprocess.run([a.bin, "scan", "--json", "-"], input=r["text"].encode("utf-8"), capture_output=True)
        if p.returncode == 2:
            print(f"error on {r['id']}: {p.stderr.decode()}", file=sys.stderr)
            sys.exit(2)
        rep = json.loads(p.stdout)
        flagged = rep["verdict"] != "allow"
        key = (r["label"], r["category"])
        per[key][0] += 1
        per[key][1] += flagged
        per[key][2] += rep["verdict"] == "block"
        if r["label"] == "attack" and not flagged:
            misses.append((r, rep))
        if r["label"] == "benign" and (flagged if r["category"] != "quoted_attack" else rep["verdict"] == "block"):
            fps.append((r, rep))
    att = [(k, v) for k, v in per.items() if k[0] == "attack"]
    ben = [(k, v) for k, v in per.items() if k[0] == "benign" and k[1] != "quoted_attack"]
    n_att = sum(v[0] for _, v in att); c_att = sum(v[1] for _, v in att)
    n_ben = sum(v[0] for _, v in ben); f_ben = sum(v[1] for _, v in ben)
    print(f"| category | samples | flagged | rate |")
    print(f"|---|---|---|---|")
    for (label, cat), v in sorted(att):
        print(f"| attack: {cat} | {v[0]} | {v[1]} | {100*v[1]/v[0]:.0f}% recall |")
    for (label, cat), v in sorted(ben):
        print(f"| benign: {cat} | {v[0]} | {v[1]} | {100*v[1]/v[0]:.1f}% false positives |")
    q = per.get(("benign", "quoted_attack"))
    print()
    print(f"attacks: recall {c_att}/{n_att} = {100*c_att/max(n_att,1):.1f}%")
    print(f"benign: false positives {f_ben}/{n_ben} = {100*f_ben/max(n_ben,1):.1f}%")
    if q:
        print(f"quoted_attack: {q[0]} samples, {q[1]} reviewed or blocked, {q[2]} blocked (block is a failure)")
    if a.show_misses:
        for r, rep in misses:
            print(f"\nMISS {r['id']} [{r['category']}/{r['lang']}]: {r['text'][:300]!r}")
    if a.show_fp:
        for r, rep in fps:
            print(f"\nFP {r['id']} [{r['category']}] {rep['verdict']}: {[f['rule'] + ':' + f['text'][:60] for f in rep['findings']]}\n   {r['text'][:200]!r}")

main()
