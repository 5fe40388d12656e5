#!/usr/bin/env python3
"""Score `inertbox scan` on the second corpus (fixtures/corpus-2), split by
source so rules written while reading one part are measured on another.

Usage:
  scripts/score-unseen.py [--bin PATH] [--split dev|heldout|all]
                          [--by family|lang|source] [--show] [--file NAME]

Every sample belongs to a group: the package it came from (`pypi:spikee`,
`debian:manpages-de`...) or, for text written for the corpus, its idea
(`written: override/future-conditional`). A group is in the development
half when the first byte of the MD5 of its name is even, else held out: a
whole package or idea is on one side, so a rule fitted to one idea's
wording is scored on other ideas. Read the misses and false alarms of the
development half only (`--show` refuses the held-out half); quote the
held-out half's totals.

A sample counts as flagged when the verdict is review or block (exit 1).
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "fixtures", "corpus-2")
FILES = ["attacks.jsonl", "hard-benign.jsonl", "benign.jsonl"]
# Sets written blind later, scored only when asked for (`--file`) and
# never read to fit the word model: Part 4 split into halves as the rest,
# Part 5 held out whole (fixtures/corpus-2/README.md).
BLIND = ["written-blind.jsonl", "written-blind-2.jsonl"]
# Part 7: translated program messages in Japanese, Chinese, Korean and
# Thai (ordinary text only), split into halves as the rest; the word
# model fits its development half.
LOCALE = ["locale-strings.jsonl"]


def group(source):
    """The sample's group: a package (name without version) or a written idea."""
    if source.startswith("written:"):
        return source.split("#")[0].strip()
    m = re.match(r"([a-z.]+):(@?[^:@=]+?)(?:(?:==|=|@)[^:]*|-\d[^:]*)?:([^#]*)", source)
    if not m:
        return source.split(":")[0]
    # An attack suite's data files are its templates: each file is a group.
    # Real text is grouped by package (its pages share one style).
    if m.group(1) in ("pypi", "npm") and re.search(r"datasets|payloads|attacks|injection", m.group(3)):
        return f"{m.group(1)}:{m.group(2)}:{m.group(3).split('/')[-2]}/{m.group(3).split('/')[-1]}"
    return f"{m.group(1)}:{m.group(2)}"


def half(g):
    return "dev" if hashlib.md5(g.encode()).digest()[0] % 2 == 0 else "heldout"


def verdict(args):
    binary, text = args
    p = subprocess.run([binary, "scan", "--json", "-"], input=text.encode("utf-8"), capture_output=True)
    if p.returncode == 2:
        return "error", p.stderr.decode(errors="replace")
    rep = json.loads(p.stdout)
    return rep["verdict"], sorted({f["rule"] for f in rep["findings"]})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bin", default=os.path.join(HERE, "..", "target", "release", "inertbox"))
    ap.add_argument("--split", choices=["dev", "heldout", "all"], default="heldout")
    ap.add_argument("--by", choices=["family", "lang", "source"], default="family")
    ap.add_argument("--show", action="store_true", help="list misses and false alarms (development half only)")
    ap.add_argument("--file", choices=FILES + BLIND + LOCALE, help="score one of the corpus's files alone")
    a = ap.parse_args()
    if a.show and a.split != "dev":
        sys.exit("--show reads misses: only with --split dev (the held-out half is read as totals)")
    rows = []
    for f in [a.file] if a.file else FILES:
        path = os.path.join(CORPUS, f)
        if os.path.exists(path):
            rows += [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
    rows = [r for r in rows if a.split == "all" or half(group(r["source"])) == a.split]
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        results = list(pool.map(verdict, [(a.bin, r["text"]) for r in rows]))
    per = collections.defaultdict(lambda: [0, 0])
    totals = {"attack": [0, 0], "benign": [0, 0]}
    shown = []
    for r, (v, rules) in zip(rows, results):
        if v == "error":
            sys.exit(f"error on {r['id']}: {rules}")
        flagged = v != "allow"
        key = (r["label"], {"family": r["family"], "lang": r["lang"], "source": group(r["source"])}[a.by])
        per[key][0] += 1
        per[key][1] += flagged
        totals[r["label"]][0] += 1
        totals[r["label"]][1] += flagged
        if a.show and flagged != (r["label"] == "attack"):
            shown.append((r, v, rules))
    print(f"| {a.by} | samples | flagged | rate |")
    print("|---|---|---|---|")
    for (label, k), (n, f) in sorted(per.items()):
        rate = f"{100 * f / n:.0f}% recall" if label == "attack" else f"{100 * f / n:.1f}% false alarms"
        print(f"| {label}: {k} | {n} | {f} | {rate} |")
    (na, fa), (nb, fb) = totals["attack"], totals["benign"]
    print()
    print(f"split {a.split}: attacks found {fa}/{na} = {100 * fa / max(na, 1):.1f}%; "
          f"benign flagged {fb}/{nb} = {100 * fb / max(nb, 1):.2f}%")
    print(f"binary: {a.bin}")
    for r, v, rules in shown:
        kind = "MISS" if r["label"] == "attack" else f"FALSE ALARM ({v}: {', '.join(rules)})"
        print(f"\n{kind} {r['id']} [{r['family']}/{r['lang']}] {group(r['source'])}\n  {r['text'][:400]!r}")


if __name__ == "__main__":
    main()
