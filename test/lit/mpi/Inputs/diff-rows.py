"""Prints `otter diff --json` rows as "kind where-file:line countA countB
same|different", sorted, then the runs' unmatched constructs."""
import json
import os
import sys

d = json.load(open(sys.argv[1]))
rows = []
for c in d["constructs"]:
    same = "same" if c["a"] == c["b"] else "different"
    rows.append(f"{c['kind']} {os.path.basename(c['where'])} "
                f"{c['a']['count']} {c['b']['count']} {same}")
for r in sorted(rows):
    print(r)
print(f"only in A: {len(d['only_a'])}, only in B: {len(d['only_b'])}")
