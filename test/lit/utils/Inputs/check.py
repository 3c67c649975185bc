#!/usr/bin/env python3
"""Checks numbers in the JSON of `otter parallelism --json` (and friends).

check.py FILE CHECK...   each CHECK is one of
  KEY=LO:HI        top-level number KEY within [LO, HI]
  region.KEY=LO:HI the first parallel region's KEY within [LO, HI]
  path=LINE:SHARE  critical-path steps at source line LINE sum to at least
                   SHARE of the span
  rpath=LINE:SHARE the same, relative to the first parallel region's span
                   (the whole program's span includes the runtime's start-up)
  nopath=LINE      no critical-path step at source line LINE
Prints what it checked; exits 1 on the first failure.
"""
import json
import sys

d = json.load(open(sys.argv[1]))
ok = True
for c in sys.argv[2:]:
    key, val = c.split("=", 1)
    if key in ("path", "nopath", "rpath"):
        line = int(val.split(":")[0])
        ns = sum(s["ns"] for s in d["critical_path"] if s["line"] == line)
        if key == "nopath":
            good = ns == 0
            print(f"{c}: {ns} ns at line {line}: {'ok' if good else 'FAIL'}")
        else:
            share = float(val.split(":")[1])
            span = d["regions"][0]["span_ns"] if key == "rpath" else d["span_ns"]
            good = ns >= share * span and ns > 0
            print(f"{c}: {ns} of span {span}: {'ok' if good else 'FAIL'}")
    else:
        lo, hi = (float(x) for x in val.split(":"))
        src = d
        if key.startswith("region."):
            src = d["regions"][0]
            key = key[len("region."):]
        x = float(src[key])
        good = lo <= x <= hi
        print(f"{c}: {x}: {'ok' if good else 'FAIL'}")
    ok = ok and good
if not ok:
    print(json.dumps(d, indent=1)[:4000])
sys.exit(0 if ok else 1)
