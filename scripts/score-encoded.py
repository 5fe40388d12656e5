#!/usr/bin/env python3
"""Score `inertbox scan` on the blind encoded-injection set (fixtures/encoded).

    scripts/score-encoded.py [--bin PATH] [--split dev|heldout|all] [--show]

An attack counts as found, and a benign text as a false alarm, when the
verdict is review or block (exit 1). Items whose number is odd are the
development half, the even ones held out (`--show` lists the development
half's misses and false alarms only; report the held-out totals). Prints a
markdown table per family. It measures and never gates: exit 0. Standard
library only."""

import argparse
import collections
import concurrent.futures
import json
import os
import subprocess

SET = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "fixtures", "encoded")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/inertbox")
    ap.add_argument("--split", choices=["dev", "heldout", "all"], default="heldout")
    ap.add_argument("--show", action="store_true")
    a = ap.parse_args()
    if a.show and a.split != "dev":
        ap.error("--show lists the development half only (--split dev)")
    items = []
    for name, attack in [("attacks.jsonl", True), ("benign.jsonl", False)]:
        with open(os.path.join(SET, name), encoding="utf-8") as f:
            for line in f:
                d = json.loads(line)
                half = "dev" if int(d["id"].rsplit("-", 1)[1]) % 2 == 1 else "heldout"
                if a.split in ("all", half):
                    items.append((d, attack))

    def flagged(item):
        p = subprocess.run([a.bin, "scan", "-"], input=item[0]["text"].encode("utf-8"), capture_output=True)
        if p.returncode == 2:
            raise SystemExit("scan failed on %s: %s" % (item[0]["id"], p.stderr.decode(errors="replace")))
        return p.returncode == 1

    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 2) as ex:
        results = list(ex.map(flagged, items))
    fam = collections.defaultdict(lambda: [0, 0, 0, 0])
    for (d, attack), hit in zip(items, results):
        row = fam[d["family"]]
        k = 0 if attack else 2
        row[k] += hit
        row[k + 1] += 1
        if a.show and hit != attack:
            print("%s %s %s: %s" % ("MISS" if attack else "FALSE ALARM", d["id"], d["family"], d["text"][:300]))
    print("| family | attacks found | false alarms |")
    print("|---|---|---|")
    for f in sorted(fam):
        r = fam[f]
        print("| %s | %d/%d | %d/%d |" % (f, r[0], r[1], r[2], r[3]))
    t = [sum(r[i] for r in fam.values()) for i in range(4)]
    print("| **total** | **%d/%d** (%.1f%%) | **%d/%d** |" % (t[0], t[1], 100.0 * t[0] / max(t[1], 1), t[2], t[3]))
    print("split %s, binary %s" % (a.split, a.bin))


if __name__ == "__main__":
    main()
