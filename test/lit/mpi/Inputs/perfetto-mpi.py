"""Checks an MPI job's Perfetto export (otter export --format perfetto).

Usage: perfetto-mpi.py JSON RANK

Prints, for rank RANK, each MPI call's slice in time order as
"<name without directories> | <operations>", then one line on the arrows:
every flow start has its end, and a collective's arrow runs from the start
of the releasing member's call to the end of a call that ended later (a
member cannot leave a collective before the last member it needs arrived).
"""
import json
import os
import sys
from collections import defaultdict

events = json.load(open(sys.argv[1]))["traceEvents"]
rank = int(sys.argv[2])
calls = [e for e in events if e.get("cat") == "mpi" and e["ph"] == "X"
         and e["pid"] == rank + 1]
for e in sorted(calls, key=lambda e: e["ts"]):
    function, where = e["name"].split(" ", 1)
    print(f"{function} {os.path.basename(where)} | "
          f"{e.get('args', {}).get('operations', '-')}")

flows = defaultdict(dict)
for e in events:
    if e.get("cat") in ("message", "collective") and e["ph"] in "sf":
        flows[(e["cat"], e["id"])][e["ph"]] = e
count = defaultdict(int)
bad = []
for (cat, fid), ends in flows.items():
    if set(ends) != {"s", "f"}:
        bad.append(f"{cat} {fid}: {sorted(ends)}")
        continue
    count[cat] += 1
    if cat == "collective" and ends["s"]["ts"] > ends["f"]["ts"] + 0.001:
        bad.append(f"collective {fid} ends before it starts")
print(f"arrows: {count['message']} message, {count['collective']} collective;"
      f" problems: {'; '.join(bad) or 'none'}")
