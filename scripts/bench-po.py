#!/usr/bin/env python3
"""Write fixtures/bench/po/<name>.txt: the translated strings (msgstr) of
Django 5.2.19's catalogues for the scripts fixtures/corpus-2 has little of
(Hebrew, Thai, Devanagari, Hangul, Greek), so the real-text benchmarks have
at least 48 KiB of each script. Django is BSD-3-Clause; its catalogues are
translations made by people (Transifex), not generated.

Usage: scripts/bench-po.py   (downloads the wheel with pip into a temp dir;
nothing downloaded is committed, only the extracted text)
"""
import ast, os, subprocess, sys, tempfile, zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "fixtures", "bench", "po")
WHEEL = "Django==5.2.19"
LANGS = {"he": ["he"], "th": ["th"], "deva": ["hi", "mr", "ne"], "ko": ["ko"], "el": ["el"]}
LIMIT = 48 << 10


def msgstrs(po):
    """Each entry's msgstr (joined continuation lines), in file order."""
    out, cur, on = [], [], False
    for line in po.splitlines():
        if line.startswith("msgstr"):
            on, cur = True, [line.split(" ", 1)[1]]
        elif on and line.startswith('"'):
            cur.append(line)
        else:
            if on:
                out.append("".join(ast.literal_eval(s) for s in cur))
            on = False
    if on:
        out.append("".join(ast.literal_eval(s) for s in cur))
    # The header entry (msgid "") is metadata, not a translation.
    return [s for s in out if s.strip() and "Project-Id-Version:" not in s]


def main():
    os.makedirs(OUT, exist_ok=True)
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", WHEEL, "-d", d], check=True)
        wheel = zipfile.ZipFile(os.path.join(d, next(f for f in os.listdir(d) if f.endswith(".whl"))))
        names = sorted(n for n in wheel.namelist() if n.endswith("/LC_MESSAGES/django.po"))
        for out, langs in LANGS.items():
            texts, size = [], 0
            for n in names:
                if not any(f"/locale/{lang}/LC_MESSAGES/" in n for lang in langs):
                    continue
                for s in msgstrs(wheel.read(n).decode("utf-8")):
                    if size >= LIMIT:
                        break
                    texts.append(s)
                    size += len(s.encode()) + 1
            with open(os.path.join(OUT, f"{out}.txt"), "w", encoding="utf-8") as f:
                f.write("\n".join(texts) + "\n")
            print(out, len(texts), size)


if __name__ == "__main__":
    main()
