#!/usr/bin/env python3
"""Prints the edges of a run's graph.csv between nodes with a source line,
one a line, sorted: "SRC_KIND DIRECTIVE@LINE -> DST_KIND DIRECTIVE@LINE
EDGE_KIND" (nodes.csv gives each node's kind, directive and line). For
FileCheck: what graph.csv says, by source construct rather than node id.

usage: csv-edges.py DIR
"""
import csv
import os
import sys


def main():
    d = sys.argv[1]
    nodes = {}
    with open(os.path.join(d, "nodes.csv"), newline="") as f:
        for row in csv.DictReader(f):
            if row["line"]:
                nodes[row["id"]] = "%s %s@%s" % (
                    row["kind"], row["directive"] or "?", row["line"])
    lines = []
    with open(os.path.join(d, "graph.csv"), newline="") as f:
        for row in csv.DictReader(f):
            s, t = nodes.get(row["source"]), nodes.get(row["target"])
            if s and t:
                lines.append("%s -> %s %s" % (s, t, row["kind"]))
    for line in sorted(lines):
        print(line)


if __name__ == "__main__":
    main()
