#!/usr/bin/env python3
"""Regenerate the graph CHECK block of a test/lit/labels test.

usage: update_checks.py TEST.c GRAPH.txt [PREFIX]

Replaces everything from the line "// ---- expected labels" to the end of
TEST.c with the node count of GRAPH.txt (the canonical form) and one
CHECK-DAG per node: kind, label and flags, not ids, parents or order (those
are the graph tests' business, test/lit/constructs). Labels in TEST.c itself
become "[[@LINE-K]]:COL", so the CHECKs follow the source when lines move;
labels in other files stay literal (basename:line:col). A single's
"executor" flag is optional (which thread runs it is the schedule's choice).

The output must then be REVIEWED BY HAND: the script writes down what the
runtime said, it does not know what is right. Check that each node's line is
the directive it belongs to (implicit tasks and barriers: their region's).
"""
import os
import re
import sys

MARK = "// ---- expected labels"


def main():
    test, graph = sys.argv[1], sys.argv[2]
    prefix = sys.argv[3] if len(sys.argv) > 3 else "CHECK"
    base = os.path.basename(test)
    src = open(test).read().split("\n")
    if src and src[-1] == "":
        src.pop()
    cut = next((i for i, l in enumerate(src) if l.startswith(MARK)), len(src))
    out = src[:cut]
    out.append(MARK + " (test/lit/labels/update_checks.py, then reviewed) ----")
    node = re.compile(r"^n(\d+) (\S+) parent=(\S+) at=(\S+)( flags=\S+)?$")
    for line in open(graph):
        line = line.rstrip("\n")
        if line.startswith("#"):
            out.append(f"// {prefix}: " + re.sub(r"\d+ edges", "{{[0-9]+}} edges", line))
            continue
        m = node.match(line)
        if not m:
            continue
        nid, kind, parent, at, flags = m.groups()
        lineno = len(out) + 1  # 1-based line number of the CHECK we add
        lm = re.match(r"^(.*?)([^/]+):(\d+):(\d+)$", at)
        if lm and lm.group(2) == base:
            k = lineno - int(lm.group(3))
            at_pat = "{{[^ ]*}}/" + base + f":[[@LINE-{k}]]:{lm.group(4)}"
        elif lm:
            at_pat = "{{[^ ]*}}/" + f"{lm.group(2)}:{lm.group(3)}:{lm.group(4)}"
        elif at == "?":
            at_pat = "?"
        elif at.startswith("~"):
            # Approximate (~symbol+0x.. or ~module+0x..): offsets vary with
            # the build; what matters is that it is not a file:line:col.
            at_pat = "~{{[^ :]+}}+0x{{[0-9a-f]+}}"
        else:
            at_pat = at
        if kind.startswith("single_"):
            flags = "{{( flags=executor)?}}"
        out.append(f"// {prefix}-DAG: {{{{^}}}}n{{{{[0-9]+}}}} {kind} "
                   f"parent={{{{[^ ]+}}}} at={at_pat}{flags or ''}{{{{$}}}}")
    open(test, "w").write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
