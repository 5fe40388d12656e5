#!/usr/bin/env python3
"""Train the scanner's word models (src/detect/model.bin, and beside it
model-pairs.bin for windows read as pairs of Han, kana or Thai characters)
from the development halves alone.

Usage:
  scripts/train-model.py [--out src/detect/model.bin] [--benign-rate 0.001] [--with-blind]

Samples: the tool outputs of the gate's development replay splits
(fixtures/replay/dev*.jsonl, benign), Part 6 of fixtures/corpus-2
(`written-train.jsonl`, written to be fitted on, all of it),
fixtures/corpus/scan-dev.jsonl (the first corpus, all of it
development data), the development half of fixtures/corpus-2 (the
groups `scripts/score-unseen.py` puts there; its held-out half is never
read here). With `--with-blind`, also the development half of its Part 4
(`written-blind.jsonl`), each attack of which is split into its planted
text (an attack) and the content it was planted in (benign), as
`written-blind-spans.jsonl` marks them, and no names are learned in any
language written with capitals but German and Luxembourgish: a model
measured and not shipped (docs/quality.md). Part 5
(`written-blind-2.jsonl`) is never read here. Each sample's fold is its package's or written idea's, so the
threshold is chosen on sources the model did not learn from. The fitting is `examples/train_model.rs` (the scanner's own
word reading); the same samples give the same bytes. The pairs model is
fitted on those samples whose text is mostly Han, kana or Thai, and on
Part 8 (`written-train-2.jsonl`: Japanese, Chinese and Thai written to be
fitted on), which the other model does not read.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
FOLDS = 5

spec = importlib.util.spec_from_file_location("score_unseen", os.path.join(HERE, "score-unseen.py"))
unseen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(unseen)


def replay_outputs():
    """The tool outputs of the gate's development replay splits, as the
    benign runs read them (no injection): benign text of the kind a gate's
    session scans."""
    for split in ("dev", "dev2", "dev3", "dev4"):
        for line in open(os.path.join(ROOT, "fixtures", "replay", split + ".jsonl"), encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            for st in r["steps"]:
                out = st.get("output") or ""
                if len(out.split()) >= 12:
                    yield out.replace("{injection}", ""), False, "replay:" + split, "en"


def written_train(name="written-train.jsonl"):
    """Part 6 of corpus-2 (`written-train.jsonl`): attacks and look-alikes
    written to fit on, in 35 languages; or Part 8 (`written-train-2.jsonl`):
    Japanese, Chinese and Thai written to fit the pairs model on (it fits
    nothing else). One fold per writer and language, so the threshold is
    chosen on writers' languages the model did not learn."""
    for line in open(os.path.join(unseen.CORPUS, name), encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            g = "written-train:" + r["source"].split("/", 1)[1].split("#")[0]
            yield r["text"], r["label"] == "attack", g, r["lang"]


def rows(with_blind):
    yield from replay_outputs()
    yield from written_train()
    for line in open(os.path.join(ROOT, "fixtures", "corpus", "scan-dev.jsonl"), encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            yield r["text"], r["label"] == "attack", "corpus-1:" + unseen.group(r["source"]), r.get("lang", "?")
    for f in unseen.FILES:
        for line in open(os.path.join(unseen.CORPUS, f), encoding="utf-8"):
            if not line.strip():
                continue
            r = json.loads(line)
            g = unseen.group(r["source"])
            if unseen.half(g) == "dev":
                yield r["text"], r["label"] == "attack", g, r.get("lang", "?")
    if not with_blind:
        return
    # Part 4's development half, each attack split where its planted text
    # is marked (written-blind-spans.jsonl): the planted text is the
    # attack, the mail or page it sits in is benign text of the same kind
    # (fitted whole, the carriers' words weighed as an attack's).
    spans = {}
    path = os.path.join(unseen.CORPUS, "written-blind-spans.jsonl")
    for line in open(path, encoding="utf-8"):
        if line.strip():
            r = json.loads(line)
            spans[r["id"]] = r["spans"]
    for line in open(os.path.join(unseen.CORPUS, "written-blind.jsonl"), encoding="utf-8"):
        if not line.strip():
            continue
        r = json.loads(line)
        g = unseen.group(r["source"])
        if unseen.half(g) != "dev":
            continue
        lang = r.get("lang", "?")
        if r["label"] != "attack":
            yield r["text"], False, g, lang
            continue
        marked = spans[r["id"]]
        carrier = r["text"]
        for m in marked:
            carrier = carrier.replace(m, "\n\n")
        yield "\n\n".join(marked), True, g, lang
        if len(carrier.split()) >= 12:
            yield carrier, False, g, lang


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=os.path.join(ROOT, "src", "detect", "model.bin"))
    ap.add_argument("--benign-rate", default="0.001")
    ap.add_argument("--with-blind", action="store_true",
                    help="also fit Part 4's development half, planted text and carriers apart (not shipped)")
    a = ap.parse_args()
    lines = []
    for text, attack, g, lang in written_train("written-train-2.jsonl"):
        fold = hashlib.sha256(":".join(g.split(":")[:2]).encode()).digest()[0] % FOLDS
        lines.append(json.dumps({"text": text, "attack": attack, "fold": fold, "lang": lang, "pairs_only": True},
                                ensure_ascii=False))
    for text, attack, g, lang in rows(a.with_blind):
        # A package's attack files and its benign texts share one fold: an
        # attack suite often plants its payloads in its own benign
        # documents, and a fold that held only those documents would
        # measure how well the model knows the suite, not the payloads.
        fold = hashlib.sha256(":".join(g.split(":")[:2]).encode()).digest()[0] % FOLDS
        lines.append(json.dumps({"text": text, "attack": attack, "fold": fold, "lang": lang}, ensure_ascii=False))
    cmd = ["cargo", "run", "--quiet", "--release", "--example", "train_model", "--",
           os.path.abspath(a.out), "--benign-rate", a.benign_rate] + (
               ["--names-in-every-cased-language"] if a.with_blind else [])
    p = subprocess.run(cmd, input="\n".join(lines).encode(), cwd=ROOT)
    sys.exit(p.returncode)


if __name__ == "__main__":
    main()
