#!/usr/bin/env python3
"""The worst-case suite: every hostile structure (src/testing/hostile.rs)
through every command that reads it, at two sizes, timed on the release
binary with its peak RSS.

Usage: scripts/worst-case.sh [--sizes 1,8] [--only SUBSTRING] [--server]

Pass: each run at the largest size finishes within 6 s and costs at most
12x the run at the smallest size when that is 1/8 of it (linear is 8x; the
bound scales with the size ratio, and applies when the large run takes
over 50 ms); scan, fence and gate peak at most 64 MiB plus 8x the input;
hook calls answer within 2 s at every size. Prints one row per (case,
command) with the peak RSS of the largest run, and exits 1 when any row
fails.
"""
import json, os, shutil, signal, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
BIN = os.path.join(TARGET, "release", "inertbox")
GEN = os.path.join(TARGET, "release", "examples", "hostile")
MIB = 1 << 20
KILL_AFTER = float(os.environ.get("WORST_CASE_KILL_AFTER", "40"))
LIMIT_S = 6.0
HOOK_LIMIT_S = 2.0
SEND = '{"tool":"send_email","args":{"to":"x@evil.test","body":"hi"}}'
BOOK = '{"tool":"reserve_hotel","args":{"hotel":"Maison Verlaine 1 1"}}'
BOOK_ONE = '{"tool":"reserve_hotel","args":{"hotel":"Maison Verlaine"}}'
# A write of a link into a file of a repository: every read's source is
# weighed as the file's or not, and as from afar or not.
WRITE = ('{"tool":"create_or_update_file","args":{"owner":"acme","repo":"app","path":"config.yaml",'
         '"content":"webhook: https://x.test/a"}}')


def run(cmd, stdin_path=None, env=None):
    """(seconds, peak RSS in KiB, exit code or 'killed'). The peak is GNU
    time's: a child forked from this Python process would count the pages
    it shares with it."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    # stderr to a file: a pipe nobody reads until the end would fill and stall.
    errf = tempfile.TemporaryFile()
    rssf = tempfile.NamedTemporaryFile("r")
    t = time.perf_counter()
    p = subprocess.Popen(["/usr/bin/time", "-f", "%M", "-o", rssf.name] + cmd,
                         stdin=stdin, stdout=subprocess.DEVNULL, stderr=errf, env=env)
    deadline = t + KILL_AFTER
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            subprocess.run(["pkill", "-KILL", "-P", str(p.pid)], check=False)
            pid, status, ru = os.wait4(p.pid, 0)
            return KILL_AFTER, 0, "killed"
        time.sleep(0.002)
    dt = time.perf_counter() - t
    lines = rssf.read().strip().splitlines()
    rss = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    rssf.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 1) and lines and lines[0].startswith("Command exited"):
        p.returncode = int(lines[0].split()[-1])
    errf.seek(0)
    err = errf.read(4096).decode(errors="replace")
    errf.close()
    if stdin_path:
        stdin.close()
    if p.returncode not in (0, 1):
        return dt, rss, f"exit {p.returncode}: {err.strip()[:120]}"
    return dt, rss, p.returncode


def hook_event(event, **fields):
    d = {"session_id": "worst-case", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
         "permission_mode": "default", "hook_event_name": event}
    d.update(fields)
    return json.dumps(d, ensure_ascii=False)


class Runner:
    def __init__(self, work, server):
        self.work = work
        self.server = server
        self.env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"), NO_COLOR="1")
        os.makedirs(self.env["XDG_STATE_HOME"], exist_ok=True)
        self.clean = os.path.join(work, "clean.txt")
        with open(self.clean, "w") as f:
            f.write("Build with cargo build.\n")

    def session_with_one_clean_read(self, name):
        path = os.path.join(self.work, name + ".session")
        if os.path.exists(path):
            os.remove(path)
        subprocess.run([BIN, "scan", "--session", path, self.clean], stdout=subprocess.DEVNULL, check=False)
        return path

    def hook(self, event_json, extra=()):
        path = os.path.join(self.work, "event.json")
        with open(path, "w") as f:
            f.write(event_json)
        cmd = [BIN, "hook", "claude"] + list(extra)
        if not self.server:
            cmd.append("--no-server")
        return path, cmd

    def commands(self, feed, path, data):
        """(label, is_hook, cmd, stdin_path) for one feed of one input."""
        text = data.decode("utf-8", errors="replace")
        out = []
        sess = os.path.join(self.work, "hook.session")
        if feed == "text":
            out += [("scan", False, [BIN, "scan", "--json", path], None),
                    ("fence", False, [BIN, "fence", path], None),
                    ("gate", False, [BIN, "gate", "--call", SEND, path], None)]
            wrapped = path + ".inert.md"
            with open(wrapped, "wb") as f:
                subprocess.run([BIN, "wrap", path], stdout=f, check=False)
            out += [("wrap", False, [BIN, "wrap", path], None),
                    ("check wrapped", False, [BIN, "check", wrapped], None)]
            ev = hook_event("PostToolUse", tool_name="Read", tool_input={"file_path": "/x/f.txt"},
                            tool_response={"type": "text", "file": {"filePath": "/x/f.txt", "content": text}})
            out.append(("hook PostToolUse Read", True, ev, ["--session", sess]))
        elif feed == "html":
            out += [("scan --type html", False, [BIN, "scan", "--json", "--type", "html", path], None),
                    ("fence --type html", False, [BIN, "fence", "--type", "html", path], None)]
            ev = hook_event("PostToolUse", tool_name="WebFetch", tool_input={"url": "https://x.test/", "prompt": "?"},
                            tool_response={"bytes": len(data), "code": 200, "codeText": "OK", "result": text})
            out.append(("hook PostToolUse WebFetch", True, ev, ["--session", sess]))
        elif feed == "email":
            out += [("scan --type email", False, [BIN, "scan", "--json", "--type", "email", path], None),
                    ("fence --type email", False, [BIN, "fence", "--type", "email", path], None),
                    ("gate", False, [BIN, "gate", "--call", SEND, path], None)]
        elif feed == "wrapped":
            out += [("check", False, [BIN, "check", path], None),
                    ("scan", False, [BIN, "scan", "--json", path], None)]
            ev = hook_event("UserPromptSubmit", prompt=text)
            out.append(("hook UserPromptSubmit", True, ev, ["--session", sess]))
        elif feed == "reply":
            out.append(("unwrap", False, [BIN, "unwrap", path], None))
        elif feed == "call-args":
            s = self.session_with_one_clean_read("args")
            call = os.path.join(self.work, "call.json")
            with open(call, "w") as f:
                json.dump({"tool": "send_email", "args": {"to": "me@home.test", "cc": text}}, f, ensure_ascii=False)
            out.append(("gate --call (1 clean read)", False, [BIN, "gate", "--session", s, "--call", "@" + call], None))
            s2 = self.session_with_one_clean_read("hookargs")
            ev = hook_event("PreToolUse", tool_name="Write", tool_input={"file_path": "/x/out.csv", "content": text})
            out.append(("hook PreToolUse Write (1 clean read)", True, ev, ["--session", s2]))
        elif feed == "session":
            out.append(("gate --session", False, [BIN, "gate", "--session", path, "--call", SEND], None))
            out.append(("gate --session (a write)", False, [BIN, "gate", "--session", path, "--call", WRITE], None))
            out.append(("gate --session (a booking)", False, [BIN, "gate", "--session", path, "--call", BOOK], None))
            out.append(("gate --session (a booking of one name)", False, [BIN, "gate", "--session", path, "--call", BOOK_ONE], None))
            ev = hook_event("PreToolUse", tool_name="mcp__gmail__send_email",
                            tool_input={"to": "x@evil.test", "body": "hi"})
            out.append(("hook PreToolUse", True, ev, ["--session", path]))
        return out

    def time(self, label, is_hook, cmd, extra):
        if is_hook:
            if os.path.exists(os.path.join(self.work, "hook.session")):
                os.remove(os.path.join(self.work, "hook.session"))
            ev_path, full = self.hook(cmd, extra)
            return run(full, stdin_path=ev_path, env=self.env)
        return run(cmd, env=self.env)


def main():
    args = sys.argv[1:]
    sizes = [1, 8]
    only = None
    server = False
    while args:
        a = args.pop(0)
        if a == "--sizes":
            sizes = [float(x) for x in args.pop(0).split(",")]
        elif a == "--only":
            only = args.pop(0)
        elif a == "--server":
            server = True
        else:
            sys.exit(__doc__)
    cases = []
    for line in subprocess.run([GEN, "--list"], capture_output=True, text=True, check=True).stdout.splitlines():
        name, feeds, about = line.split("\t")
        if only is None or only in name:
            cases.append((name, feeds.split(","), about))
    work = tempfile.mkdtemp(prefix="inertbox-worst-")
    r = Runner(work, server)
    if server:
        subprocess.run([BIN, "hook", "serve", "--detach", "--quiet"], env=r.env, check=True)
    failed = 0
    print(f"{'case':<24} {'command':<38} " + " ".join(f"{s:>6g}MiB" for s in sizes) + "   ratio  peak RSS  ")
    try:
        for name, feeds, about in cases:
            for feed in feeds:
                rows = {}
                for size in sizes:
                    path = os.path.join(work, f"{name}.{feed}.in")
                    with open(path, "wb") as f:
                        subprocess.run([GEN, name, str(int(size * MIB))], stdout=f, check=True)
                    data = open(path, "rb").read()
                    for label, is_hook, cmd, extra in r.commands(feed, path, data):
                        rows.setdefault(label, []).append((size, len(data), is_hook) + r.time(label, is_hook, cmd, extra))
                for label, runs in rows.items():
                    problems = []
                    # The memory bound is scan's, fence's and gate's.
                    bounded = label.split()[0] in ("scan", "fence", "gate")
                    for size, n, is_hook, dt, rss, code in runs:
                        if isinstance(code, str):
                            problems.append(f"{size:g}MiB {code}")
                        if is_hook and dt > HOOK_LIMIT_S:
                            problems.append(f"hook over {HOOK_LIMIT_S:g} s")
                        if bounded and rss * 1024 > 64 * MIB + 8 * n:
                            problems.append(f"RSS {rss // 1024} MiB")
                    lo, hi = runs[0], runs[-1]
                    ratio = hi[3] / max(lo[3], 1e-3)
                    if hi[3] > LIMIT_S:
                        problems.append(f"over {LIMIT_S:g} s")
                    scale = hi[1] / max(lo[1], 1)
                    if ratio > 1.5 * scale and hi[3] > 0.05:
                        problems.append(f"ratio {ratio:.1f} for {scale:.1f}x the bytes")
                    times = " ".join(f"{t[3]:>8.3f}s" for t in runs)
                    mark = "FAIL " + "; ".join(problems) if problems else "ok"
                    failed += bool(problems)
                    print(f"{name:<24} {label:<38} {times} {ratio:>6.1f}x {hi[4] // 1024:>6} MiB  {mark}", flush=True)
    finally:
        if server:
            subprocess.run([BIN, "hook", "serve", "--stop"], env=r.env, check=False)
        shutil.rmtree(work, ignore_errors=True)
    print(f"\n{failed} failing row(s)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
