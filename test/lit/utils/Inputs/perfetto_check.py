#!/usr/bin/env python3
"""Checks a Perfetto (Chrome trace-event) JSON file from `otter export`:
well-formed, every slice has name/ph/ts/dur/pid/tid, flows pair up, the
state tracks' slices are waiting, idle or tool (OTTER's own) intervals."""
import json
import sys

d = json.load(open(sys.argv[1]))
ev = d["traceEvents"]
slices = [e for e in ev if e.get("ph") == "X"]
bad = [e for e in slices
       if not all(k in e for k in ("name", "ph", "ts", "dur", "pid", "tid"))
       or e["dur"] < 0]
starts = {e["id"] for e in ev if e.get("ph") == "s"}
ends = {e["id"] for e in ev if e.get("ph") == "f"}
tasks = [e for e in slices if e.get("cat") == "task"]
threads = {e["tid"] for e in ev if e.get("ph") == "M" and "tid" in e}
# The state timeline's tracks: waiting, idle and tool intervals, named.
states = [e for e in slices if e.get("cat") == "state"]
bad += [e for e in states
        if not (e["name"] in ("idle", "tool") or
                e["name"].startswith("waiting "))]
print(f"slices={len(slices)} tasks={len(tasks)} bad={len(bad)} "
      f"flows={len(starts)} unmatched={len(starts ^ ends)} "
      f"threads={len(threads)} states={len(states)}")
# Each task construct's name once, sorted: a deterministic list to FileCheck.
for name in sorted({e["name"] for e in tasks}):
    print("task slice:", name)
sys.exit(1 if bad or (starts ^ ends) else 0)
