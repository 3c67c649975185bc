#!/usr/bin/env python3
"""Validates `otter simulate` against measured runs (docs/utils.md).

For each program in bench/ (compiled with clang-19 -O2 -fopenmp and the
OTTER plugin), traces it with OTTER's runtime at 1 and at 2 threads, REPS
times each (in turn), replays every trace with `otter simulate --cores 1,2 --json`
and prints, per program, medians over the REPS runs (the machine may be
shared: a median is robust to the odd disturbed run):

  measured 1, 2        run time of the traced run (first to last event)
  self 1, self 2       the replay of the T-thread trace on T cores
  2->1, 1->2           the replay of the 2-thread trace on 1 core, of the
                       1-thread trace on 2 cores (its tasks, serialized by
                       the team of one, deferred; the dispatch cost the
                       default, as `otter simulate` says)
  err                  (predicted - measured) / measured

(and the same with minima: the least disturbed runs of a shared machine),
and finally times `otter simulate` (9 core counts, 1..256) on one large
trace (--scale N: fib N, no cutoff, 2 threads; fib 33 is 11.4 M tasks).

--replay-only replays the traces an earlier run left in --work (same
--reps and --bench) instead of tracing again: two builds' replays of the
same runs, e.g. before and after a change to the replay or its costs.

usage: bench/simulate.py [--build DIR] [--reps N] [--work DIR]
                         [--bench fib,pfor,...] [--scale N] [--json FILE]
                         [--markdown] [--replay-only]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# Program arguments: the programs of bench/run.py, sized to run for tens of
# milliseconds traced.  fib-cutoff: the same program with coarse tasks.
# These are the tracer's overhead benchmarks (tasks of 0.1-2 us: the
# runtime's cost per task is their run time).  The realistic ones have
# tasks of tens of microseconds to milliseconds of real work: a blocked
# Cholesky with depend clauses, N-queens with a cutoff, a taskloop over
# Mandelbrot rows.
PROGRAMS = {
    "fib": ("fib", ["20"]),
    "fib-cutoff": ("fib", ["30", "18"]),
    "pfor": ("pfor", ["2000", "256", "200"]),
    "taskloop": ("taskloop", ["2"]),
    "deps": ("deps", ["32", "8", "4"]),
    "taskgroup": ("taskgroup", ["200"]),
    "cholesky": ("cholesky", ["16", "64"]),
    "nqueens": ("nqueens", ["12", "3"]),
    "mandel": ("mandel", ["384", "500", "4", "2"]),
}
REALISTIC = {"cholesky", "nqueens", "mandel"}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def otter_json(otter, args):
    p = subprocess.run([otter] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode:
        sys.exit(f"simulate.py: otter {' '.join(args)}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def trace(exe, argv, threads, out, lib):
    env = dict(os.environ, OMP_TOOL_LIBRARIES=lib, OTTER_OUTPUT_DIR=out,
               OTTER_GRAPH_FORMAT="none", OMP_NUM_THREADS=str(threads))
    env.pop("OTTER_TRACE", None)
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([exe] + argv, env=env, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def err(pred, meas):
    return (pred - meas) / meas if meas else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--work", default="/tmp/otter-bench-simulate")
    ap.add_argument("--bench", default=",".join(PROGRAMS))
    ap.add_argument("--scale", type=int, default=0,
                    help="also time otter simulate on fib N (33: 11.4 M tasks)")
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--replay-only", action="store_true")
    a = ap.parse_args()
    otter = os.path.join(a.build, "bin", "otter")
    lib = os.path.join(a.build, "lib", "libotter.so")
    plugin = os.path.join(a.build, "lib", "otter.so")
    for f in (otter, lib, plugin):
        if not os.path.exists(f):
            sys.exit(f"simulate.py: missing {f}: build the project first")
    cc = shutil.which("clang-19") or "/usr/lib/llvm-19/bin/clang"
    os.makedirs(a.work, exist_ok=True)
    rows, mins = [], []
    load = [os.getloadavg()[0]]
    for name in a.bench.split(","):
        src, argv = PROGRAMS[name]
        exe = os.path.join(a.work, src)
        if not os.path.exists(exe) and not a.replay_only:
            subprocess.run([cc, "-O2", "-fopenmp", "-fplugin=" + plugin,
                            os.path.join(HERE, src + ".c"), "-o", exe, "-lm"],
                           check=True)
        runs = {1: [], 2: []}
        # 1 and 2 threads in turn: a load that comes and goes (the machine
        # is shared) falls on both columns alike.
        for r in range(a.reps):
            for t in (1, 2):
                out = os.path.join(a.work, f"{name}-{t}-{r}")
                if not a.replay_only:
                    trace(exe, argv, t, out, lib)
                runs[t].append(otter_json(
                    otter, ["simulate", "--json", "--cores", "1,2", out]))
        for t in (1, 2):
            log(f"{name}: {t} thread(s): " + ", ".join(
                f"{j['measured']['run_ns'] / 1e6:.2f}" for j in runs[t]) +
                " ms")

        def sim(j, cores):
            return next(p["simulated_ns"] for p in j["points"]
                        if p["cores"] == cores)

        def row(stat):
            def med(t, f):
                return stat([f(j) for j in runs[t]])
            return {
                "program": name, "args": " ".join(argv),
                "realistic": name in REALISTIC,
                "dispatch_1": runs[1][0].get("scheduling_cost_source"),
                "tasks": runs[2][0]["tasks"],
                "measured_1": med(1, lambda j: j["measured"]["run_ns"]),
                "measured_2": med(2, lambda j: j["measured"]["run_ns"]),
                "self_1": med(1, lambda j: sim(j, 1)),
                "self_2": med(2, lambda j: sim(j, 2)),
                "from2_1": med(2, lambda j: sim(j, 1)),
                "from1_2": med(1, lambda j: sim(j, 2)),
                "self_err_1": [err(sim(j, 1), j["measured"]["run_ns"])
                               for j in runs[1]],
                "self_err_2": [err(sim(j, 2), j["measured"]["run_ns"])
                               for j in runs[2]],
            }
        load.append(os.getloadavg()[0])
        rows.append(row(statistics.median))
        mins.append(row(min))
    hdr = ["program", "kind", "args", "tasks", "measured 1", "measured 2",
           "self 1 (err)", "self 2 (err)", "2->1 (err)", "1->2 (err)"]
    print(f"load average (1 min) during the runs: {min(load):.2f}-"
          f"{max(load):.2f}")
    # Medians, then minima: on a shared machine the least disturbed run of
    # each kind (the fastest measured, the shortest replayed) is the
    # nearest to one on dedicated cores, which is what a replay predicts.
    for title, table in (("medians", rows), ("minima", mins)):
        print(f"\n{title} over {a.reps} runs:\n")
        lines = []
        for r in table:
            def c(p, m):
                return f"{p / 1e6:.2f} ms ({100 * err(p, m):+.0f}%)"
            lines.append([r["program"],
                          "realistic" if r["realistic"] else "overhead",
                          r["args"], str(r["tasks"]),
                          f"{r['measured_1'] / 1e6:.2f} ms",
                          f"{r['measured_2'] / 1e6:.2f} ms",
                          c(r["self_1"], r["measured_1"]),
                          c(r["self_2"], r["measured_2"]),
                          c(r["from2_1"], r["measured_1"]),
                          c(r["from1_2"], r["measured_2"])])
        if a.markdown:
            print("| " + " | ".join(hdr) + " |")
            print("|" + "---|" * len(hdr))
            for l in lines:
                print("| " + " | ".join(l) + " |")
        else:
            w = [max(len(x[i]) for x in lines + [hdr])
                 for i in range(len(hdr))]
            for l in [hdr] + lines:
                print("  ".join(x.ljust(w[i]) for i, x in enumerate(l)))
    scale = None
    if a.scale:
        exe = os.path.join(a.work, "fib")
        out = os.path.join(a.work, f"fib{a.scale}-scale")
        if not os.path.exists(os.path.join(out, "trace")):
            log(f"tracing fib {a.scale} on 2 threads ...")
            trace(exe, [str(a.scale)], 2, out, lib)
        t0 = time.monotonic()
        p = subprocess.run(["/usr/bin/time", "-f", "otter-time %U %S %M",
                            otter, "simulate", "--json", out],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        wall = time.monotonic() - t0
        if p.returncode:
            sys.exit(f"simulate.py: otter simulate {out}: {p.stderr.strip()}")
        cpu, rss = 0.0, 0
        for line in p.stderr.splitlines():
            f = line.split()
            if len(f) == 4 and f[0] == "otter-time":
                cpu, rss = float(f[1]) + float(f[2]), int(f[3]) * 1024
        j = json.loads(p.stdout)
        scale = {"fib": a.scale, "tasks": j["tasks"], "wall_s": wall,
                 "cpu_s": cpu, "rss_bytes": rss, "cores": len(j["points"])}
        print(f"\notter simulate on fib {a.scale} ({j['tasks']} tasks, "
              f"{len(j['points'])} core counts): {wall:.1f} s wall, "
              f"{cpu:.1f} s CPU, peak RSS {rss / 2**20:.0f} MiB "
              f"({rss / max(1, j['tasks']):.0f} B/task)")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"rows": rows, "minima": mins, "scale": scale,
                       "load": load}, f, indent=1)


if __name__ == "__main__":
    main()
