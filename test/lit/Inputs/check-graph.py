#!/usr/bin/env python3
# check-graph.py GRAPH_TXT
#
# Structural validity of a canonical graph (graph.txt, the runtime's canon
# format): no cycle; every node is reachable from its root (an initial task:
# a node with parent=-), and reaches the root's end (the one node of its
# component with no outgoing edge). Filtering must keep this true
# (docs/filter.md). Tests call it as %check-graph (test/lit.cfg.py).
#
# Prints "check-graph: ok, N nodes, R roots" and exits 0; otherwise one line
# per problem and exit 1.
import sys


def main(path):
    nodes, parent, edges = [], {}, {}
    with open(path) as f:
        for line in f:
            if line.startswith("#"):
                continue
            if line.startswith("  -> "):
                edges[nodes[-1]].append(line.split()[1])
            elif line.strip():
                fields = line.split()
                n = fields[0]
                nodes.append(n)
                edges[n] = []
                parent[n] = fields[2][len("parent="):]
    problems = []
    roots = [n for n in nodes if parent[n] == "-"]
    if not roots:
        problems.append("no root (initial task)")
    preds = {n: [] for n in nodes}
    for s, ts in edges.items():
        for t in ts:
            if t not in preds:
                problems.append(f"edge {s} -> {t}: no such node")
                continue
            preds[t].append(s)
    # Acyclic (Kahn).
    indeg = {n: len(preds[n]) for n in nodes}
    ready = [n for n in nodes if indeg[n] == 0]
    seen = 0
    while ready:
        n = ready.pop()
        seen += 1
        for t in edges[n]:
            if t in indeg:
                indeg[t] -= 1
                if indeg[t] == 0:
                    ready.append(t)
    if seen != len(nodes):
        problems.append(f"cycle: {len(nodes) - seen} node(s) on or after one")

    def reach(start, nexts):
        out, todo = {start}, [start]
        while todo:
            for m in nexts(todo.pop()):
                if m not in out:
                    out.add(m)
                    todo.append(m)
        return out

    covered = set()
    for r in roots:
        comp = reach(r, lambda n: [t for t in edges[n] if t in edges])
        covered |= comp
        sinks = [n for n in comp if not edges[n]]
        if len(sinks) != 1:
            problems.append(f"root {r}: {len(sinks)} ends ({' '.join(sorted(sinks))})")
            continue
        back = reach(sinks[0], lambda n: preds[n])
        for n in sorted(comp - back):
            problems.append(f"{n} does not reach the end {sinks[0]} of root {r}")
    for n in nodes:
        if n not in covered:
            problems.append(f"{n} is not reachable from any root")
    for p in problems:
        print("check-graph: " + path + ": " + p)
    if problems:
        return 1
    print(f"check-graph: ok, {len(nodes)} nodes, {len(roots)} roots")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check-graph.py GRAPH_TXT", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
