#!/usr/bin/env python3
"""check-all-labels.py [--since FILE] [--list LIST] LIT_OUT

No node without a label (issue 25, docs/graph.md "Labels"), over EVERY task
graph the lit tests wrote under LIT_OUT (build/test/lit-out), not only those
a test checks itself: in each nodes.csv, every node but a root (the
program's initial task, which no construct creates) names a source file, a
function or a code location (`binary+0xOFFSET`). ctest runs it after the
lit tests (test/CMakeLists.txt, test lit-traces/labelled).

Graphs a test leaves unlabelled on purpose are listed in LIST (default:
unlabelled-graphs.txt next to this script): a glob of the nodes.csv path
relative to LIT_OUT, then why. Every listed pattern must match a graph.

--since FILE: graphs older than FILE (the libotter.so under test) were
written by an earlier build and are skipped.

Exits 0 when every graph passes; else prints one line per graph with the
count and the first unlabelled nodes, and exits 1.
"""
import argparse
import csv
import fnmatch
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LABEL_COLUMNS = ("file", "function", "location")


def read_list(path):
    rules = []
    if not os.path.exists(path):
        return rules
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 1)
            if len(parts) < 2:
                sys.exit(f"{path}:{n}: expected 'GLOB REASON'")
            rules.append(parts[0])
    return rules


def unlabelled(path):
    """The nodes of one nodes.csv with a parent and no label, as 'id kind';
    None when the file is not a node table (no label columns)."""
    with open(path, newline="") as f:
        rows = csv.DictReader(f)
        if not rows.fieldnames or not all(
                c in rows.fieldnames for c in LABEL_COLUMNS + ("parent",)):
            return None
        return [f"{r['id']} {r['kind']}" for r in rows
                if r["parent"] and not any(r[c] for c in LABEL_COLUMNS)]


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("lit_out")
    ap.add_argument("--since")
    ap.add_argument("--list", default=os.path.join(HERE,
                                                   "unlabelled-graphs.txt"))
    a = ap.parse_args(argv)
    rules = read_list(a.list)
    used = set()
    since = os.path.getmtime(a.since) if a.since else 0
    checked = stale = bad = nodes = 0
    for dirpath, dirnames, filenames in sorted(os.walk(a.lit_out)):
        dirnames.sort()
        if "nodes.csv" not in filenames:
            continue
        path = os.path.join(dirpath, "nodes.csv")
        if os.path.getmtime(path) < since:
            stale += 1
            continue
        rel = os.path.relpath(path, a.lit_out)
        listed = [g for g in rules if fnmatch.fnmatch(rel, g)]
        if listed:
            used.update(listed)
            continue
        missing = unlabelled(path)
        if missing is None:
            continue
        checked += 1
        nodes += len(missing)
        if missing:
            bad += 1
            print(f"check-all-labels: {rel}: {len(missing)} nodes without a "
                  f"label (first: {', '.join(missing[:5])})")
    for g in rules:
        if g not in used:
            print(f"check-all-labels: note: '{g}' in "
                  f"{os.path.basename(a.list)} matches no graph")
    print(f"check-all-labels: {checked} graphs checked, {bad} with unlabelled "
          f"nodes ({nodes} nodes); {len(used)} listed patterns used, {stale} "
          "stale graphs skipped")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
