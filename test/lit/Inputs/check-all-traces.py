#!/usr/bin/env python3
"""check-all-traces.py [--since FILE] [--list OPEN_LIST] [-j N] LIT_OUT

The balance check of check-trace.py (docs/trace.md, "Balanced regions") over
EVERY OTF2 archive the lit tests wrote under LIT_OUT (build/test/lit-out),
not only those a test checks itself: per location every Leave closes the
innermost open region, time never goes back, no region is left open at the
end, and otf2-print reads the archive. ctest runs it after the lit tests
(test/CMakeLists.txt, test lit/all-traces-balanced).

Archives a test makes incomplete on purpose are listed in OPEN_LIST (default:
open-traces.txt next to this script), one per line: a glob of the anchor's
path relative to LIT_OUT, what is allowed, and why:
    open    regions may be left open (the run was cut off: SIGKILL, a full
            disk); everything else is still checked
    skip    not checked at all (an archive damaged on purpose)
Every listed pattern must match an archive; one that matches nothing is
reported (the list must not rot), but only fails with --strict-list.

--since FILE: archives older than FILE (the libotter.so under test) are
stale (written by an earlier build, or by a test since removed) and skipped.

Exits 0 when every archive passes; else prints one line per problem and
exits 1.
"""
import argparse
import concurrent.futures
import fnmatch
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_list(path):
    rules = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[1] not in ("open", "skip"):
                sys.exit(f"{path}:{n}: expected 'GLOB open|skip REASON'")
            rules.append((parts[0], parts[1]))
    return rules


def anchors(root):
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = [d for d in dirnames if d != ".checkpoint"]
        if "traces.otf2" in filenames:
            yield os.path.join(dirpath, "traces.otf2")


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("lit_out")
    ap.add_argument("--checker", required=True)
    ap.add_argument("--since")
    ap.add_argument("--list", default=os.path.join(HERE, "open-traces.txt"))
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--strict-list", action="store_true")
    a = ap.parse_args(argv)
    rules = read_list(a.list)
    used = set()
    since = os.path.getmtime(a.since) if a.since else 0
    jobs, stale = [], 0
    for anchor in sorted(anchors(a.lit_out)):
        if os.path.getmtime(anchor) < since:
            stale += 1
            continue
        rel = os.path.relpath(anchor, a.lit_out)
        mode = "check"
        for glob, m in rules:
            if fnmatch.fnmatch(rel, glob):
                mode = m
                used.add(glob)
                break
        if mode != "skip":
            jobs.append((anchor, rel, mode == "open"))
    # A few invocations of the checker, each over many archives.
    batches = []
    for allow in (False, True):
        group = [anchor for anchor, _, a in jobs if a == allow]
        n = max(1, a.j)
        for k in range(n):
            part = group[k::n]
            if part:
                batches.append((["--allow-open"] if allow else []) + part)
    # A checker that does not finish (OTF2's own reader can loop on an
    # archive damaged on purpose that the list forgot) is a problem named
    # here, not a test that hangs until ctest's time limit.
    def check(batch):
        try:
            return subprocess.run([a.checker] + batch, capture_output=True,
                                  text=True, timeout=300).stdout
        except subprocess.TimeoutExpired:
            files = [f for f in batch if f.startswith("/")]
            return (f"{files[0]}: the checker did not finish within 300 s "
                    f"(on this archive or one of the {len(files) - 1} after "
                    "it in its batch)\n")
    lines = []
    with concurrent.futures.ThreadPoolExecutor(max(1, a.j)) as ex:
        for out in ex.map(check, batches):
            lines += out.splitlines()
    bad = len({l.split(": ", 1)[0] for l in lines})
    for l in lines:
        print("check-all-traces: " + os.path.relpath(l, a.lit_out)
              if l.startswith("/") else "check-all-traces: " + l)
    unused = [g for g, _ in rules if g not in used]
    for g in unused:
        print(f"check-all-traces: note: '{g}' in {os.path.basename(a.list)} "
              "matches no archive")
    print(f"check-all-traces: {len(jobs)} archives checked, {bad} with "
          f"problems; {len(used)} listed patterns used, {stale} stale "
          "archives skipped")
    return 1 if bad or (a.strict_list and unused) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
