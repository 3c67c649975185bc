#!/usr/bin/env python3
"""Checks `otter diff --json A B` (test/lit/utils/diff.c):
diff_check.py DIFF PAR_A PAR_B SUMMARY_A SUMMARY_B CRITICAL_LINE"""
import json
import sys

d, pa, pb, sa, sb = (json.load(open(f)) for f in sys.argv[1:6])
crit_line = int(sys.argv[6])
ok = True


def check(what, good, detail=""):
    global ok
    print(f"{what}: {'ok' if good else 'FAIL ' + str(detail)}")
    ok = ok and good


for side, par in (("a", pa), ("b", pb)):
    for k in ("run_ns", "work_ns", "span_ns", "threads", "burdened_span_ns"):
        check(f"{side}.{k} is otter parallelism's", d[side][k] == par[k],
              (d[side][k], par[k]))
# Task constructs: matched by region id, counts as otter summary's.
tasks = [r for r in d["constructs"] if r["kind"] == "task"]
check("two task constructs matched", len(tasks) == 2, tasks)
for r in tasks:
    check(f"{r['where']}: by region id", r["match"] == "region_id" and
          r["region_id_a"] == r["region_id_b"] != 0, r)
    for side, summ in (("a", sa), ("b", sb)):
        n = sum(c["instances"] for c in summ["constructs"]
                if c["kind"] == "task" and c["region_id"] == r["region_id_a"])
        check(f"{r['where']}: count in {side} = {n}", r[side]["count"] == n,
              r[side])
check("the coarser cutoff made fewer tasks",
      all(r["b"]["count"] < r["a"]["count"] for r in tasks))
imp = [r["impact_ns"] for r in d["constructs"]]
check("sorted by impact", imp == sorted(imp, reverse=True), imp)
crit = [r for r in d["only_b"] if r["kind"] == "critical"]
check("the critical section only in B, at its line",
      len(crit) == 1 and crit[0]["where"].endswith(f":{crit_line}"), d["only_b"])
check("nothing critical in A",
      not any(r["kind"] == "critical" for r in d["only_a"] + d["constructs"]))
sys.exit(0 if ok else 1)
