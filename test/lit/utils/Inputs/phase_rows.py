"""Checks test/lit/utils/phase.c's phase reports: `otter parallelism`'s
table of phases (no --phase) has, per phase, the numbers `otter
parallelism --phase NAME` prints; `otter report --phase NAME` and `otter
diff --phase NAME` show that phase's work and span.

usage: phase_rows.py ALL.json NAME=PHASE.json... [--report NAME REPORT.html]
                     [--diff NAME DIFF.json]
                     [--simulate NAME SIMULATE.json]"""
import json
import re
import sys


def check(cond, what):
    if not cond:
        sys.exit("phase_rows: " + what)


args = sys.argv[1:]
whole = json.load(open(args.pop(0)))
rows = {r["name"]: r for r in whole.get("phases", [])}
alone = {}
while args and not args[0].startswith("--"):
    name, path = args.pop(0).split("=", 1)
    alone[name] = json.load(open(path))
check(sorted(rows) == sorted(alone), "phase rows %s" % sorted(rows))
for name, one in alone.items():
    row = rows[name]
    for k in ("work_ns", "span_ns", "parallelism", "burdened_span_ns",
              "burdened_parallelism"):
        check(row[k] == one[k], "%s: %s %s != --phase's %s" %
              (name, k, row[k], one[k]))
while args:
    what, name, path = args[0], args[1], args[2]
    args = args[3:]
    if what == "--report":
        page = open(path).read()
        m = re.search(r'id="otter-data">(.*?)</script>', page, re.S)
        check(m, "no data block in " + path)
        data = json.loads(m.group(1))
        check(data.get("phase") == name, "report's phase %s" % data.get("phase"))
        for k in ("work_ns", "span_ns"):
            check(data[k] == alone[name][k], "report %s %s != %s" %
                  (k, data[k], alone[name][k]))
    elif what == "--diff":
        d = json.load(open(path))
        for k in ("work_ns", "span_ns"):
            check(d["a"][k] == alone[name][k] and d["b"][k] == alone[name][k],
                  "diff %s %s, %s != %s" % (k, d["a"][k], d["b"][k],
                                            alone[name][k]))
    elif what == "--simulate":
        d = json.load(open(path))
        for k in ("work_ns", "span_ns"):
            check(d[k] == alone[name][k], "simulate %s %s != %s" %
                  (k, d[k], alone[name][k]))
print("phase_rows: %d phases agree" % len(rows))
