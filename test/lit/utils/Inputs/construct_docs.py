#!/usr/bin/env python3
"""Checks that the docs list every row of include/otter/constructs.def:
each node kind in docs/graph.md's node table, each filter kind (and its
aliases) in docs/filter.md's list of kinds. Argument: the source tree.
Prints one summary line, or each missing name and exits 1."""
import re
import sys

src = sys.argv[1]
table = open(f"{src}/include/otter/constructs.def").read()


def rows(macro):
    return re.findall(r"^" + macro + r"\(\s*(\w+),\s*\"([^\"]*)\"(?:,\s*\"([^\"]*)\")?",
                      table, re.M)


nodes = [name for _, name, _ in rows("OTTER_NODE_KIND")]
kinds = [(name, aliases) for _, name, aliases in rows("OTTER_FILTER_KIND")]
graph_md = open(f"{src}/docs/graph.md").read()
filter_md = open(f"{src}/docs/filter.md").read()
kinds_text = filter_md[filter_md.index("Kinds: "):]
kinds_text = kinds_text[:kinds_text.index("\n\n")]

missing = []
for n in nodes:
    if not re.search(r"^\|[^\n]*`" + re.escape(n) + "`", graph_md, re.M):
        missing.append(f"docs/graph.md: node kind '{n}'")
for n, aliases in kinds:
    for name in [n] + aliases.split():
        if f"`{name}`" not in kinds_text:
            missing.append(f"docs/filter.md: kind '{name}'")
for m in missing:
    print("missing:", m)
if not nodes or not kinds:
    print("no rows read from constructs.def")
    sys.exit(1)
if missing:
    sys.exit(1)
print(f"{len(nodes)} node kinds, {len(kinds)} filter kinds: all documented")
