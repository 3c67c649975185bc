#!/usr/bin/env python3
"""Checks `otter simulate --json` against `otter parallelism --json` (see
test/lit/utils/simulate.c): simulate_check.py PAR SIM IDEAL."""
import json
import sys

par, sim, ideal = (json.load(open(f)) for f in sys.argv[1:4])
ok = True


def check(what, good):
    global ok
    print(f"{what}: {'ok' if good else 'FAIL'}")
    ok = ok and good


pts = {p["cores"]: p for p in sim["points"]}
check("default core counts 1..256",
      [p["cores"] for p in sim["points"]] == [1, 2, 4, 8, 16, 32, 64, 128, 256])
check("bounds are otter parallelism's",
      sim["work_ns"] == par["work_ns"] and sim["span_ns"] == par["span_ns"]
      and sim["burdened_span_ns"] == par["burdened_span_ns"])
ip = {p["cores"]: p for p in ideal["points"]}
check("ideal: one core takes the work", ip[1]["predicted_ns"] == par["work_ns"])
check("ideal: 256 cores take the span", ip[256]["predicted_ns"] == par["span_ns"])
check("ideal: 3 cores within the bounds, and greedy (<= work/3 + span)",
      max(par["work_ns"] / 3, par["span_ns"]) <= ip[3]["predicted_ns"]
      <= min(par["work_ns"], par["work_ns"] / 3 + par["span_ns"]))
for c, p in pts.items():
    check(f"{c} cores: at least max(work/P, span)",
          p["predicted_ns"] >= max(par["work_ns"] / c, par["span_ns"]) - 1)
prev = None
for p in sim["points"]:
    if prev is not None:
        check(f"{p['cores']} cores: not slower than fewer",
              p["predicted_ns"] <= prev)
    prev = p["predicted_ns"]
# A greedy schedule with the overheads: within (work + overheads) / P plus
# the burdened span and the overheads (Graham's bound, with slack for
# where the overheads fall).
p8 = pts[8]
check("8 cores: greedy (<= (work + overhead)/8 + burdened span + overhead)",
      p8["simulated_ns"] <= (par["work_ns"] + p8["overhead_ns"]) / 8
      + par["burdened_span_ns"] + p8["overhead_ns"])
check("speed-up is over one core",
      abs(pts[8]["speedup"] - pts[1]["predicted_ns"] / pts[8]["predicted_ns"]) < 1e-3)
m = sim["measured"]
check("measured: 2 threads", m["threads"] == 2)
check("replay on 2 cores near the measured run (0.5x .. 1.5x)",
      0.5 * m["run_ns"] <= pts[2]["simulated_ns"] <= 1.5 * m["run_ns"])
cal = sim["calibration"]
check("calibration: applied exactly when a contention cost is charged",
      cal["applied"] == (sim["contention_ns"] > 0))
if cal["applied"]:
    check("calibration: the replay on the traced threads is the calibrated one",
          pts[2]["simulated_ns"] == cal["calibrated_ns"])
    check("calibration: nearer the run than the replay without it",
          abs(cal["calibrated_ns"] - cal["run_ns"])
          < abs(cal["replay_ns"] - cal["run_ns"]))
check("ideal: no calibration", not ideal["calibration"]["applied"]
      and ideal["contention_ns"] == 0)
if not ok:
    print(json.dumps(sim, indent=1))
sys.exit(0 if ok else 1)
