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
  --summary FILE   the `otter summary --json` of the same trace: then any
                   other argument is a Python expression that must hold, over
                   work, span, rwork, rspan, rpar (first region) and, per
                   source line L of a task construct, tL (total execution
                   time), mL (longest instance) and pL (ns on the critical
                   path). Such checks hold on a loaded machine too: a spin
                   that is descheduled stretches both sides.
Prints what it checked; exits 1 on the first failure.
"""
import json
import sys

d = json.load(open(sys.argv[1]))
args = sys.argv[2:]
env = None
if len(args) >= 2 and args[0] == "--summary":
    summ = json.load(open(args[1]))
    args = args[2:]
    r = d["regions"][0] if d["regions"] else {}
    env = {"work": d["work_ns"], "span": d["span_ns"],
           "rwork": r.get("work_ns", 0), "rspan": r.get("span_ns", 0),
           "rpar": r.get("parallelism", 0), "max": max, "min": min}
    for c in summ["constructs"]:
        if c["kind"] == "task":
            L = c["line"]
            env[f"t{L}"] = env.get(f"t{L}", 0) + c["total_ns"]
            env[f"m{L}"] = max(env.get(f"m{L}", 0), c["max_ns"])
            env.setdefault(f"p{L}", 0)
    for s in d["critical_path"]:
        env[f"p{s['line']}"] = env.get(f"p{s['line']}", 0) + s["ns"]
ok = True
for c in args:
    if env is not None and "=" not in c.replace("==", "").replace(">=", "").replace("<=", "").replace("!=", ""):
        good = bool(eval(c, {}, env))
        print(f"{c}: {'ok' if good else 'FAIL'}")
        ok = ok and good
        continue
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
    if env is not None:
        print({k: v for k, v in env.items() if not callable(v)})
    print(json.dumps(d, indent=1)[:4000])
sys.exit(0 if ok else 1)
