#!/usr/bin/env python3
"""check-trace.py [--allow-open] TRACE

Checks that an OTF2 archive OTTER wrote is well formed for other OTF2 tools
(docs/trace.md, "Balanced regions"): per location, every Leave closes the
innermost open region (same region ref), timestamps never go back, and --
unless --allow-open (a run cut off by a crash, SIGKILL or a full disk) --
no region is left open at the end. otf2-print must read it without an
error, and otf2-snapshots (on a copy: it appends to the archive) must not
refuse it for unbalanced region events. Tests call it as %check-trace, and
%check-rebuild runs it on every archive it rebuilds a graph from.

TRACE is a run's OTTER_OUTPUT_DIR, its trace/ directory or traces.otf2.
Exits 0 when all holds; otherwise prints one line per problem (at most 20)
and exits 1.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

LINE = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+(\d+)\s+Region: "(.*)" <(\d+)>')
EVENT = re.compile(r'^[A-Z_0-9]+\s+(\d+)\s+(\d+)\s')


def anchor_of(path):
    for cand in (path, os.path.join(path, "traces.otf2"),
                 os.path.join(path, "trace", "traces.otf2")):
        if os.path.isfile(cand) and cand.endswith(".otf2"):
            return cand
    return None


def check(anchor, allow_open=False, snapshots=True):
    """The problems of the archive whose anchor is ANCHOR, one line each."""
    problems = []
    p = subprocess.run(["otf2-print", anchor], capture_output=True, text=True)
    if p.returncode != 0 or p.stderr.strip():
        problems.append(f"otf2-print failed (rc {p.returncode}): "
                        f"{p.stderr.strip()[:300]}")
    stacks, last = {}, {}
    for line in p.stdout.splitlines():
        m = EVENT.match(line)
        if not m:
            continue
        loc, t = int(m.group(1)), int(m.group(2))
        if t < last.get(loc, 0):
            problems.append(f"location {loc}: time goes back at {t}")
        last[loc] = t
        m = LINE.match(line)
        if not m:
            continue
        kind, name, ref = m.group(1), m.group(4), int(m.group(5))
        st = stacks.setdefault(loc, [])
        if kind == "ENTER":
            st.append((ref, name))
        elif not st:
            problems.append(f"location {loc}: Leave of '{name}' at {t} "
                            "with no open region")
        elif st[-1][0] != ref:
            problems.append(f"location {loc}: Leave of '{name}' at {t} "
                            f"while '{st[-1][1]}' is the innermost open "
                            "region")
            st.pop()
        else:
            st.pop()
    if not allow_open:
        for loc, st in sorted(stacks.items()):
            if st:
                problems.append(f"location {loc}: {len(st)} region(s) left "
                                f"open at the end: "
                                f"{', '.join(n for _, n in st[-3:])}")
    if not snapshots:
        return problems

    # otf2-snapshots appends snapshot files to the archive it reads: a copy.
    # It checks region nesting itself ("unbalanced region events"). (OTF2
    # 3.0's otf2-snapshots crashes with SIGSEGV on any archive holding
    # ParameterUnsignedInt records, OTTER's or not: a crash is reported as
    # a note, a refusal as a problem.)
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "trace")
        shutil.copytree(os.path.dirname(anchor), copy,
                        ignore=shutil.ignore_patterns(".checkpoint"))
        s = subprocess.run(["otf2-snapshots", os.path.join(
            copy, os.path.basename(anchor))], capture_output=True, text=True)
        if "unbalanced" in s.stderr or (s.returncode > 0):
            why = (s.stderr.strip().splitlines() or [""])[0]
            problems.append(f"otf2-snapshots refuses it (rc {s.returncode}): "
                            f"{why[:200]}")
    return problems


def main(argv):
    allow_open = "--allow-open" in argv
    args = [a for a in argv if not a.startswith("--")]
    if len(args) != 1:
        sys.exit("usage: check-trace.py [--allow-open] TRACE")
    anchor = anchor_of(args[0])
    if not anchor:
        sys.exit(f"check-trace: no OTF2 archive (traces.otf2) in '{args[0]}'")
    problems = check(anchor, allow_open)
    for pr in problems[:20]:
        print("check-trace: " + anchor + ": " + pr, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
