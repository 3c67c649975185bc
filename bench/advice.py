#!/usr/bin/env python3
"""Validates `otter diagnose`'s advice (docs/utils.md, "Advice") against
the change made by hand.

For each program of bench/advice/ (compiled with clang-19 -O2 -fopenmp and
the OTTER plugin): traces it on THREADS threads, takes the advice of its
kind from `otter diagnose --json` (the time the replay predicts as is and
with the change applied), runs the program as is and with the advised change
made by hand (its other mode), untraced, REPS times each in turn, and
prints, per program:

  predicted     the replay's time as is -> with the change, and the
                speed-up they predict (as is / changed)
  measured      the median untraced run time (the program's own clock) as
                is -> changed, and the measured speed-up
  gain error    (predicted gain - measured gain) / measured gain, where a
                gain is 1 - changed / as is: the share of the run time the
                change saves, what the advice prints ("gain 68.7%") and
                what the target is set on
  speed-up error  (predicted speed-up - measured) / measured: stricter
                where the gain is large (a gain of 90 % against 95 % is a
                speed-up of 10x against 20x)
  least disturbed  the speed-up of the fastest runs (as is / changed), and
                its error: on a shared virtual machine the second CPU is
                not always there, and the fastest run is the program's

A bench check that reports, not a timed test: the target (issue 26) is a
predicted gain within 25 % of the measured gain on an idle machine (the load
average is printed; on a loaded machine the traced run is not the program's
time alone).

usage: bench/advice.py [--build DIR] [--reps N] [--threads N] [--work DIR]
                       [--markdown]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def cutoff_args(advice):
    # Tasks of depth <= d stay tasks: fib_depth's calls at depth < d + 1
    # create tasks (its top call is depth 0, its tasks depth 0 too).
    depth = re.search(r"cut-off at depth (\d+)", advice["transformation"])
    return ["24", str(int(depth.group(1)) + 1)]


def sort_cutoff_args(advice):
    # As fib_depth: the top call is depth 0, its tasks depth 0 too.
    depth = re.search(r"cut-off at depth (\d+)", advice["transformation"])
    return ["1000000", str(int(depth.group(1)) + 1)]


# name: (source, arguments as is, advice kind, arguments changed by hand)
CASES = {
    "fib": ("fib_depth.c", ["24", "-1"], "cutoff", cutoff_args),
    "sort": ("sort.c", ["1000000", "-1"], "cutoff", sort_cutoff_args),
    "regions": ("regions.c", ["0"], "fuse_regions", lambda a: ["1"]),
    "chain": ("chain.c", ["0"], "dependences", lambda a: ["1"]),
    "taskwait": ("taskwait.c", ["0"], "taskwait", lambda a: ["1"]),
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_time(exe, argv, threads):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("OTTER_") and k != "OMP_TOOL_LIBRARIES"}
    env["OMP_NUM_THREADS"] = str(threads)
    out = subprocess.run([exe] + argv, env=env, check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return float(re.search(r"time=([0-9.]+)", out).group(1)) * 1e9


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--work", default="/tmp/otter-bench-advice")
    ap.add_argument("--bench", default=",".join(CASES))
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    otter = os.path.join(a.build, "bin", "otter")
    lib = os.path.join(a.build, "lib", "libotter.so")
    plugin = os.path.join(a.build, "lib", "otter.so")
    for f in (otter, lib, plugin):
        if not os.path.exists(f):
            sys.exit(f"advice.py: missing {f}: build the project first")
    cc = shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"
    os.makedirs(a.work, exist_ok=True)
    load = [os.getloadavg()[0]]
    rows = []
    for name in a.bench.split(","):
        src, argv, kind, fixed = CASES[name]
        exe = os.path.join(a.work, name)
        subprocess.run([cc, "-O2", "-fopenmp", "-fplugin=" + plugin,
                        os.path.join(HERE, "advice", src), "-o", exe],
                       check=True)
        out = os.path.join(a.work, name + ".trace")
        shutil.rmtree(out, ignore_errors=True)
        env = dict(os.environ, OMP_TOOL_LIBRARIES=lib, OTTER_OUTPUT_DIR=out,
                   OTTER_GRAPH_FORMAT="none", OMP_NUM_THREADS=str(a.threads))
        subprocess.run([exe] + argv, env=env, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        p = subprocess.run([otter, "diagnose", "--json", out],
                           stdout=subprocess.PIPE, text=True, check=True)
        advice = [f["advice"] for f in json.loads(p.stdout)["findings"]
                  if f.get("advice", {}).get("kind") == kind]
        if not advice:
            log(f"{name}: no {kind} advice")
            rows.append({"program": name, "kind": kind, "advice": None})
            continue
        adv = max(advice, key=lambda x: x["gain"])
        changed = fixed(adv)
        before, after = [], []
        for _ in range(a.reps):
            before.append(run_time(exe, argv, a.threads))
            after.append(run_time(exe, changed, a.threads))
        load.append(os.getloadavg()[0])
        mb, ma = statistics.median(before), statistics.median(after)
        lb, la = min(before), min(after)
        pred = adv["predicted_before_ns"] / adv["predicted_after_ns"]
        meas = mb / ma
        pred_gain = 1 - adv["predicted_after_ns"] / adv["predicted_before_ns"]
        meas_gain = 1 - ma / mb
        least_gain = 1 - la / lb
        rows.append({"program": name, "kind": kind, "advice": adv,
                     "argv": argv, "changed": changed,
                     "predicted_speedup": pred, "measured_speedup": meas,
                     "measured_before_ns": mb, "measured_after_ns": ma,
                     "error": (pred - meas) / meas,
                     "predicted_gain": pred_gain, "measured_gain": meas_gain,
                     "gain_error": (pred_gain - meas_gain) / meas_gain
                     if meas_gain > 0 else float("inf"),
                     "least_gain_error": (pred_gain - least_gain) / least_gain
                     if least_gain > 0 else float("inf"),
                     "least_speedup": lb / la,
                     "least_error": (pred - lb / la) / (lb / la)})
        log(f"{name}: as is {[round(x / 1e6, 2) for x in before]} ms, "
            f"changed {[round(x / 1e6, 2) for x in after]} ms")
    print(f"load average (1 min) during the runs: {min(load):.2f}-"
          f"{max(load):.2f}; {a.threads} threads, {a.reps} runs each\n")
    hdr = ["program", "advice", "change made", "predicted",
           "measured (medians)", "gain error", "speed-up error",
           "least disturbed", "gain error", "speed-up error"]
    lines = []
    for r in rows:
        if not r["advice"]:
            lines.append([r["program"], r["kind"], "(none given)"] +
                         [""] * (len(hdr) - 3))
            continue
        adv = r["advice"]
        lines.append([
            r["program"], adv["kind"],
            " ".join(r["argv"]) + " -> " + " ".join(r["changed"]),
            f"{adv['predicted_before_ns'] / 1e6:.2f} -> "
            f"{adv['predicted_after_ns'] / 1e6:.2f} ms "
            f"(gain {100 * r['predicted_gain']:.0f}%, "
            f"{r['predicted_speedup']:.2f}x)",
            f"{r['measured_before_ns'] / 1e6:.2f} -> "
            f"{r['measured_after_ns'] / 1e6:.2f} ms "
            f"(gain {100 * r['measured_gain']:.0f}%, "
            f"{r['measured_speedup']:.2f}x)",
            f"{100 * r['gain_error']:+.0f}%",
            f"{100 * r['error']:+.0f}%",
            f"{r['least_speedup']:.2f}x",
            f"{100 * r['least_gain_error']:+.0f}%",
            f"{100 * r['least_error']:+.0f}%"])
    if a.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "---|" * len(hdr))
        for l in lines:
            print("| " + " | ".join(l) + " |")
    else:
        w = [max(len(x[i]) for x in lines + [hdr]) for i in range(len(hdr))]
        for l in [hdr] + lines:
            print("  ".join(x.ljust(w[i]) for i, x in enumerate(l)))


if __name__ == "__main__":
    main()
