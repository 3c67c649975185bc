#!/usr/bin/env python3
"""Scale benchmark for the `otter` command (docs/performance-notes.md, "utils").

Traces bench/fib.c (no cutoff: one tiny task per call) with OTTER's runtime
at sizes from ~10k to ~10M tasks, then times every `otter` subcommand on each
trace and records its peak RSS (GNU time's %M) and the bytes per task.

usage: bench/utils_scale.py [--build DIR] [--max-tasks N] [--sizes N,N..]
                            [--threads T] [--work DIR] [--json FILE]
                            [--markdown]
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def fib_tasks(n):
    t = [0, 0]
    for i in range(2, n + 1):
        t.append(2 + t[i - 1] + t[i - 2])
    return t[n]


SIZES = [18, 23, 28, 30, 32, 33]  # 10k, 110k, 1.0M, 2.7M, 7.0M, 11.4M tasks

COMMANDS = [
    ("summary", ["summary"]),
    ("parallelism", ["parallelism"]),
    ("diagnose", ["diagnose"]),
    ("export perfetto", ["export", "--format", "perfetto", "-o", "{work}/p.json"]),
    ("export --aggregate", ["export", "--format", "dot", "--aggregate",
                            "-o", "{work}/agg.gv"]),
]


def timed(cmd, env=None):
    """Runs cmd under GNU time; returns (wall s, CPU s, peak RSS in bytes,
    rc, stderr)."""
    t0 = time.monotonic()
    p = subprocess.run(["/usr/bin/time", "-f", "otter-time %U %S %M"] + cmd,
                       env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    dt = time.monotonic() - t0
    cpu, rss = 0.0, 0
    for line in p.stderr.strip().splitlines()[::-1]:
        f = line.split()
        if len(f) == 4 and f[0] == "otter-time":
            cpu = float(f[1]) + float(f[2])
            rss = int(f[3]) * 1024
            break
    return dt, cpu, rss, p.returncode, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--max-tasks", type=float, default=12e6)
    ap.add_argument("--sizes", help="fib arguments (default: %s)" %
                    ",".join(map(str, SIZES)))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--work", default="/tmp/otter-utils-scale")
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    otter = os.path.join(a.build, "bin", "otter")
    lib = os.path.join(a.build, "lib", "libotter.so")
    for f in (otter, lib):
        if not os.path.exists(f):
            sys.exit(f"missing {f}: build the project first")
    os.makedirs(a.work, exist_ok=True)
    src = os.path.join(HERE, "fib.c")
    if not os.path.exists(src):
        src = os.path.join(REPO, "..", "shared", "bench", "fib.c")
    exe = os.path.join(a.work, "fib")
    subprocess.run(["clang-19", "-O2", "-fopenmp", src, "-o", exe], check=True)
    rows = []
    sizes = [int(x) for x in a.sizes.split(",")] if a.sizes else SIZES
    for n in sizes:
        tasks = fib_tasks(n)
        if tasks > a.max_tasks:
            break
        out = os.path.join(a.work, f"fib{n}")
        shutil.rmtree(out, ignore_errors=True)
        env = dict(os.environ, OMP_NUM_THREADS=str(a.threads),
                   OMP_TOOL_LIBRARIES=lib, OTTER_OUTPUT_DIR=out,
                   OTTER_GRAPH_FORMAT="none")
        t_trace, _, _, rc, err = timed([exe, str(n)], env)
        if rc != 0:
            sys.exit(f"tracing fib {n} failed: {err}")
        size = sum(os.path.getsize(os.path.join(d, f))
                   for d, _, fs in os.walk(os.path.join(out, "trace"))
                   for f in fs)
        row = {"n": n, "tasks": tasks, "trace_s": round(t_trace, 2),
               "trace_bytes": size, "commands": {}}
        for name, args in COMMANDS:
            cmd = [otter] + [x.format(work=a.work) for x in args] + [out]
            dt, cpu, rss, rc, err = timed(cmd)
            row["commands"][name] = {
                "s": round(dt, 2), "cpu_s": round(cpu, 2), "rss_bytes": rss,
                "bytes_per_task": round(rss / tasks, 1), "rc": rc}
            print(f"fib {n} ({tasks} tasks) {name}: {dt:.2f} s wall, "
                  f"{cpu:.2f} s CPU, "
                  f"{rss / 2**20:.0f} MiB ({rss / tasks:.1f} B/task)"
                  + ("" if rc == 0 else f" FAILED rc={rc}: {err.strip()}"),
                  file=sys.stderr)
        rows.append(row)
        shutil.rmtree(out, ignore_errors=True)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    if a.markdown:
        names = [c[0] for c in COMMANDS]
        print("| tasks | trace MB | " + " | ".join(names) + " |")
        print("|---|---|" + "---|" * len(names))
        for r in rows:
            cells = [f"{r['commands'][c]['s']:.2f} s "
                     f"({r['commands'][c]['cpu_s']:.2f} s CPU) / "
                     f"{r['commands'][c]['rss_bytes'] / 2**20:.0f} MiB "
                     f"({r['commands'][c]['bytes_per_task']:.0f} B/task)"
                     for c in names]
            print(f"| {r['tasks']:,} | {r['trace_bytes'] / 2**20:.0f} | "
                  + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
