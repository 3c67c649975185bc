#!/usr/bin/env python3
"""Prints a run's target nodes (target_*, kernel) from nodes.csv in node
order, one a line: "KIND DIRECTIVE@LINE to=BYTES from=BYTES parent=KIND"
(bytes "-": none for that node), then each kernel's scope successor
("KERNEL@LINE then KIND"). For FileCheck: what the graph says of offload,
by source construct rather than node id.

usage: target-nodes.py DIR
"""
import csv
import os
import sys


def main():
    d = sys.argv[1]
    with open(os.path.join(d, "nodes.csv"), newline="") as f:
        rows = {r["id"]: r for r in csv.DictReader(f)}
    succ = {}
    with open(os.path.join(d, "graph.csv"), newline="") as f:
        for e in csv.DictReader(f):
            if e["kind"] == "scope":
                succ.setdefault(e["source"], []).append(e["target"])
    for i, r in rows.items():
        if not (r["kind"].startswith("target_") or r["kind"] == "kernel"):
            continue
        parent = rows[r["parent"]]["kind"] if r["parent"] in rows else "-"
        print("%s %s@%s to=%s from=%s parent=%s" % (
            r["kind"], r["directive"] or "?", r["line"] or "?",
            r["bytes_to"] or "-", r["bytes_from"] or "-", parent))
        if r["kind"] == "kernel":
            for s in sorted(succ.get(i, []), key=int):
                print("kernel@%s then %s" % (r["line"] or "?",
                                             rows[s]["kind"]))


if __name__ == "__main__":
    main()
