#!/usr/bin/env python3
"""OTTER overhead benchmarks (python3, standard library only).

Builds the programs in bench/ with clang-19 -O2 -fopenmp (optionally with the
OTTER clang plugin; bench/offload.c for host offload too, --bench offload,
not in the default list) plus the do-nothing OMPT tool (nulltool.so), then, for
each benchmark and thread count, runs ONE interleaved series: N rounds, each
round running every mode once (the starting mode rotates every round), so
slow drift of the machine hits all modes alike.  Modes:

  untraced  no OMPT tool
  null      do-nothing tool (bench/nulltool.c: OTTER's callback set, empty bodies,
            target callbacks included)
  graph     libotter, graph only        (OTTER_TRACE=0, default graph formats)
  trace     libotter, trace only        (OTTER_TRACE=1 OTTER_GRAPH_FORMAT=none)
  both      libotter, trace and graph   (OTTER_TRACE=1, default graph formats)
  plain     as both, the tables never compressed (OTTER_CSV_ZSTD_NODES=0):
            what zstd costs at exit (not in the default series)
  zall      as both, graph.csv compressed too (OTTER_CSV_ZSTD_EDGES=1000000,
            the default before 2026-11-26; not in the default series)
  sample    libotter, sampling alone at 1 kHz (OTTER_SAMPLE=1000 OTTER_TRACE=0
            OTTER_GRAPH_FORMAT=none: docs/sampling.md); its cost is the ratio
            to untraced (no per-task figures; not in the default series)

Reported per (benchmark, threads, mode): median wall time of the whole
process (start to exit, so it includes libotter's finalize: graph build and
file writing), ratio to untraced, ns per task and per event over the
do-nothing tool, peak RSS of the child (os.wait4) and its delta over
untraced, trace bytes per task (everything named trace* under
$OTTER_OUTPUT_DIR).  Tasks come from the program's own output ("tasks=N");
events from "otter: recorded N events" (OTTER_VERBOSE=1).

Subcommands:
  time       (default) the interleaved wall-time/memory series above
  callgrind  instructions per task over the do-nothing tool (valgrind
             --tool=callgrind, fib 22, 1 thread, trace-only), repeatable
  guard      the regression guard that ctest runs: callgrind instructions per
             task over the do-nothing tool on fib 18 (trace-only and graph
             mode) against bench/ir_baseline.json; fails over +10 %
"""

import argparse
import hashlib
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# name -> (default args, --quick args)
BENCHES = {
    "fib": ([], ["20"]),
    "pfor": ([], ["2000", "256", "200"]),
    "taskloop": ([], ["2"]),
    "deps": ([], ["32", "8", "4"]),
    "taskgroup": ([], ["200"]),
    "uts": ([], ["400"]),
    # Target offload (host offload; not in the default --bench list).
    "offload": ([], ["500", "16"]),
}
OFFLOAD = {"offload"}
# Host offload: the device target, and libomptarget's directory at run time.
OFFLOAD_FLAGS = ["-fopenmp-targets=x86_64-unknown-linux-gnu"]
LLVM_LIB = "/usr/lib/llvm-19/lib"
MODES = ["untraced", "null", "graph", "trace", "both"]
EXTRA_MODES = ["plain", "zall", "sample"]
OTTER_MODES = ("graph", "trace", "both", "plain", "zall")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run_checked(cmd, **kw):
    log("+ " + " ".join(cmd))
    subprocess.run(cmd, check=True, **kw)


# --------------------------------------------------------------------------
# build


# Launcher measured runs go through: ru_maxrss of a child forked from this
# Python process would start at Python's own RSS (Linux keeps the pre-exec
# high-water mark), hiding everything below ~16 MiB.  The launcher is a tiny
# process: it forks, execs the program, os.wait4-style waits for it and
# writes "<wall ns> <ru_maxrss KiB> <user+sys CPU ns>" to the file given as
# argv[1].
LAUNCHER_C = r"""
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 3) return 127;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  pid_t pid = fork();
  if (pid == 0) { execv(argv[2], argv + 2); perror(argv[2]); _exit(127); }
  int st; struct rusage ru;
  if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) return 127;
  clock_gettime(CLOCK_MONOTONIC, &b);
  FILE *f = fopen(argv[1], "w");
  if (!f) return 127;
  long long cpu = (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
                  (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;
  fprintf(f, "%lld %ld %lld\n", (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec),
          ru.ru_maxrss, cpu);
  fclose(f);
  if (WIFEXITED(st)) return WEXITSTATUS(st);
  return 128 + WTERMSIG(st);
}
"""


def build(args):
    """Compiles the benchmark programs and the tools; returns paths."""
    work = args.work_dir
    os.makedirs(work, exist_ok=True)
    cc = args.cc
    if not shutil.which(cc):
        sys.exit(f"run.py: compiler '{cc}' not found (use --cc)")
    libotter = args.libotter or os.path.join(args.build_dir, "lib", "libotter.so")
    if not os.path.exists(libotter):
        sys.exit(f"run.py: {libotter} not found; build it first:\n"
                 f"  cmake -S {REPO} -B {args.build_dir} && "
                 f"cmake --build {args.build_dir} -j2 --target otter_runtime\n"
                 "or pass --build-dir")
    plugin = os.path.join(args.build_dir, "lib", "otter.so")
    flags = ["-O2", "-fopenmp"]
    if args.plugin == "yes" or (args.plugin == "auto" and os.path.exists(plugin)):
        if not os.path.exists(plugin):
            sys.exit(f"run.py: --plugin yes but {plugin} does not exist")
        flags.append("-fplugin=" + plugin)
        log(f"run.py: compiling with the OTTER plugin {plugin}")
    else:
        plugin = None
    exes = {}
    for name in sorted(set(args.bench) | ({"fib"} if args.cmd == "callgrind" else set())):
        out = os.path.join(work, name)
        extra = OFFLOAD_FLAGS if name in OFFLOAD else []
        run_checked([cc] + flags + extra + [os.path.join(HERE, name + ".c"), "-o", out])
        exes[name] = out
    null = os.path.join(work, "nulltool.so")
    run_checked([cc, "-O2", "-fPIC", "-shared", os.path.join(HERE, "nulltool.c"), "-o", null])
    count = os.path.join(work, "counttool.so")
    run_checked([cc, "-O2", "-fPIC", "-shared", "-DCOUNT_EVENTS",
                 os.path.join(HERE, "nulltool.c"), "-o", count])
    # Snapshot libotter: a rebuild of the build directory during a long series
    # must not change the library under test half-way.
    snap = os.path.join(work, "libotter.so")
    if os.path.abspath(libotter) != snap:
        shutil.copy2(libotter, snap)
    with open(snap, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    log(f"run.py: testing {libotter} (snapshot {snap}, sha256 {digest})")
    libotter_src, libotter = libotter, snap
    launcher_c = os.path.join(work, "launcher.c")
    with open(launcher_c, "w") as f:
        f.write(LAUNCHER_C)
    launcher = os.path.join(work, "launcher")
    run_checked([cc, "-O2", launcher_c, "-o", launcher])
    return {"exes": exes, "null": null, "count": count, "libotter": libotter,
            "libotter_source": libotter_src, "libotter_sha256": digest,
            "plugin": plugin, "cflags": flags, "launcher": launcher}


def mode_env(mode, tools, threads, outdir):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith("OTTER_") or k in ("OMP_TOOL", "OMP_TOOL_LIBRARIES"):
            del env[k]
    env["OMP_NUM_THREADS"] = str(threads)
    if mode == "null":
        env["OMP_TOOL_LIBRARIES"] = tools["null"]
    elif mode == "count":
        env["OMP_TOOL_LIBRARIES"] = tools["count"]
    elif mode == "sample":
        env["OMP_TOOL_LIBRARIES"] = tools["libotter"]
        env["OTTER_OUTPUT_DIR"] = outdir
        env["OTTER_SAMPLE"] = "1000"
        env["OTTER_TRACE"] = "0"
        env["OTTER_GRAPH_FORMAT"] = "none"
    elif mode in OTTER_MODES:
        env["OMP_TOOL_LIBRARIES"] = tools["libotter"]
        env["OTTER_OUTPUT_DIR"] = outdir
        env["OTTER_VERBOSE"] = "1"
        if mode == "graph":
            env["OTTER_TRACE"] = "0"
        elif mode == "trace":
            env["OTTER_TRACE"] = "1"
            env["OTTER_GRAPH_FORMAT"] = "none"
        else:
            env["OTTER_TRACE"] = "1"
            if mode == "plain":
                env["OTTER_CSV_ZSTD_NODES"] = "0"
                env["OTTER_CSV_ZSTD_EDGES"] = "0"
            elif mode == "zall":
                env["OTTER_CSV_ZSTD_EDGES"] = "1000000"
    return env


def tree_bytes(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    total = 0
    for root, _, files in os.walk(path):
        for f in files:
            try:
                total += os.path.getsize(os.path.join(root, f))
            except OSError:
                pass
    return total


def trace_bytes(outdir):
    """Bytes of the trace: everything named trace* in the output dir."""
    if not os.path.isdir(outdir):
        return 0
    return sum(tree_bytes(os.path.join(outdir, n))
               for n in os.listdir(outdir) if n.startswith("trace"))


def run_once(launcher, exe, argv, env, outdir, timeout):
    """One run through the launcher: wall s, peak RSS bytes, CPU s, stdout, stderr."""
    shutil.rmtree(outdir, ignore_errors=True)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(prefix="otter-bench-", suffix=".rss") as meas:
        try:
            p = subprocess.run([launcher, meas.name, exe] + argv, env=env, stdout=out,
                               stderr=err, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"{exe} timed out after {timeout}s")
        out.seek(0)
        err.seek(0)
        o, e = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        if p.returncode != 0:
            raise RuntimeError(f"{exe} {' '.join(argv)} exited {p.returncode}:\n{e[-2000:]}")
        wall_ns, maxrss_kb, cpu_ns = (int(x) for x in open(meas.name).read().split())
    return wall_ns / 1e9, maxrss_kb * 1024, cpu_ns / 1e9, o, e


def parse_tasks(stdout):
    m = re.search(r"\btasks=(\d+)", stdout) or re.search(r"implicit_tasks>=(\d+)", stdout)
    return int(m.group(1)) if m else None


def parse_events(stderr):
    m = re.search(r"otter: recorded (\d+) events", stderr)
    return int(m.group(1)) if m else None


# --------------------------------------------------------------------------
# time subcommand


def cmd_time(args):
    tools = build(args)
    results = []
    outroot = os.path.join(args.work_dir, "out")
    for name in args.bench:
        exe = tools["exes"][name]
        argv = BENCHES[name][1] if args.quick else BENCHES[name][0]
        if args.args:
            argv = args.args.split()
        for threads in args.threads:
            series = {m: [] for m in args.modes}
            outdir = os.path.join(outroot, f"{name}-{threads}")
            # one untimed warm-up (page cache, CPU frequency)
            warm = mode_env("untraced", tools, threads, outdir)
            if name in OFFLOAD:
                warm["LD_LIBRARY_PATH"] = ":".join(
                    filter(None, [warm.get("LD_LIBRARY_PATH"), LLVM_LIB]))
            run_once(tools["launcher"], exe, argv, warm, outdir, args.timeout)
            for rep in range(args.reps):
                k = rep % len(args.modes)
                for mode in args.modes[k:] + args.modes[:k]:
                    env = mode_env(mode, tools, threads, outdir)
                    if name in OFFLOAD:
                        env["LD_LIBRARY_PATH"] = ":".join(
                            filter(None, [env.get("LD_LIBRARY_PATH"), LLVM_LIB]))
                    wall, rss, cpu, o, e = run_once(tools["launcher"], exe, argv, env, outdir, args.timeout)
                    series[mode].append({
                        "wall_s": wall, "cpu_s": cpu, "rss_bytes": rss, "tasks": parse_tasks(o),
                        "events": parse_events(e) if mode in OTTER_MODES else None,
                        "trace_bytes": trace_bytes(outdir) if mode in OTTER_MODES else 0,
                    })
                    log(f"  {name:9s} T={threads} rep {rep + 1}/{args.reps} {mode:8s} "
                        f"{wall:8.3f} s  cpu {cpu:8.3f} s  {rss / 2**20:8.1f} MiB")
            shutil.rmtree(outdir, ignore_errors=True)
            results.extend(summarise(name, argv, threads, series))
    print_table(results, args)
    if args.json:
        meta = machine_info()
        meta.update({"date": time.strftime("%Y-%m-%d %H:%M:%S %z"), "reps": args.reps,
                     "quick": args.quick, "cflags": tools["cflags"],
                     "libotter": tools["libotter_source"],
                     "libotter_sha256": tools["libotter_sha256"],
                     "git": git_head()})
        with open(args.json, "w") as f:
            json.dump({"meta": meta, "results": results}, f, indent=1)
        log(f"run.py: wrote {args.json}")


def summarise(name, argv, threads, series):
    med = {m: statistics.median(r["wall_s"] for r in runs) for m, runs in series.items()}
    cpu = {m: statistics.median(r["cpu_s"] for r in runs) for m, runs in series.items()}
    rss = {m: statistics.median(r["rss_bytes"] for r in runs) for m, runs in series.items()}
    rows = []
    for mode, runs in series.items():
        tasks = runs[0]["tasks"]
        events = runs[0]["events"]
        tb = statistics.median(r["trace_bytes"] for r in runs)
        row = {
            "bench": name, "args": argv, "threads": threads, "mode": mode, "reps": len(runs),
            "wall_median_s": med[mode],
            "wall_min_s": min(r["wall_s"] for r in runs),
            "wall_max_s": max(r["wall_s"] for r in runs),
            "wall_all_s": [r["wall_s"] for r in runs],
            "cpu_median_s": cpu[mode],
            "cpu_all_s": [r["cpu_s"] for r in runs],
            "ratio_untraced": med[mode] / med["untraced"] if "untraced" in med else None,
            "tasks": tasks, "events": events,
            "peak_rss_bytes": rss[mode],
            "rss_delta_bytes": rss[mode] - rss["untraced"] if "untraced" in rss else None,
            "trace_bytes": tb,
        }
        over = med[mode] - med["null"] if "null" in med and mode in OTTER_MODES else None
        row["ns_per_task_over_null"] = over * 1e9 / tasks if over is not None and tasks else None
        row["ns_per_event_over_null"] = over * 1e9 / events if over is not None and events else None
        cover = cpu[mode] - cpu["null"] if "null" in cpu and mode in OTTER_MODES else None
        row["cpu_ns_per_task_over_null"] = cover * 1e9 / tasks if cover is not None and tasks else None
        row["trace_bytes_per_task"] = tb / tasks if tasks and mode in OTTER_MODES else None
        row["events_per_task"] = events / tasks if events and tasks else None
        rows.append(row)
    return rows


def fmt(v, spec, none="-"):
    return none if v is None else format(v, spec)


def print_table(rows, args):
    hdr = ["bench", "T", "mode", "wall s", "x untr", "ns/task", "ns/event", "cpu s",
           "cpu ns/task", "ev/task",
           "RSS MiB", "dRSS MiB", "trace B/task"]
    lines = []
    for r in rows:
        lines.append([
            r["bench"], str(r["threads"]), r["mode"], fmt(r["wall_median_s"], ".3f"),
            fmt(r["ratio_untraced"], ".2f"), fmt(r["ns_per_task_over_null"], ",.0f"),
            fmt(r["ns_per_event_over_null"], ",.1f"), fmt(r["cpu_median_s"], ".3f"),
            fmt(r["cpu_ns_per_task_over_null"], ",.0f"), fmt(r["events_per_task"], ".2f"),
            fmt(r["peak_rss_bytes"] / 2**20, ",.1f"),
            fmt(r["rss_delta_bytes"] / 2**20 if r["rss_delta_bytes"] is not None else None, "+,.1f"),
            fmt(r["trace_bytes_per_task"], ",.1f"),
        ])
    if args.markdown:
        print("| " + " | ".join(hdr) + " |")
        print("|" + "|".join("---" if i < 3 else "---:" for i in range(len(hdr))) + "|")
        for l in lines:
            print("| " + " | ".join(l) + " |")
    else:
        w = [max(len(h), *(len(l[i]) for l in lines)) for i, h in enumerate(hdr)]
        print("  ".join(h.ljust(w[i]) if i < 3 else h.rjust(w[i]) for i, h in enumerate(hdr)))
        for l in lines:
            print("  ".join(c.ljust(w[i]) if i < 3 else c.rjust(w[i]) for i, c in enumerate(l)))
    print(f"\nmedians of {args.reps} interleaved runs; wall = whole process; ns/task and "
          "ns/event are (mode - null) / count; cpu = user+sys of the process (robust to\n"
          "other load at 1 thread; at 2 threads it includes libomp's spin-waiting); dRSS is over untraced.")


def git_head():
    try:
        head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", REPO, "status", "--porcelain", "runtime", "include"],
                               capture_output=True, text=True).stdout.strip()
        return head + (" (runtime/ or include/ modified)" if dirty else "")
    except OSError:
        return ""


def machine_info():
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
    except OSError:
        pass
    return {"host": platform.node(), "cpu": cpu, "cores": os.cpu_count(),
            "kernel": platform.release(), "python": platform.python_version()}


# --------------------------------------------------------------------------
# callgrind subcommand


def callgrind_total(exe, argv, env, outfile, extra):
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={outfile}"] + extra + [exe] + argv
    log("+ " + " ".join(cmd))
    p = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr[-3000:])
    total = None
    with open(outfile) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                total = int(line.split()[1])
    return total, p.stdout, p.stderr


def callback_count(exe, n, tools, outdir):
    """OMPT callbacks fib n makes (the counting tool, not under valgrind)."""
    env = mode_env("count", tools, 1, outdir)
    p = subprocess.run([exe, str(n)], env=env, capture_output=True, text=True)
    m = re.search(r"counttool: TOTAL\s+(\d+)", p.stderr)
    if p.returncode != 0 or not m:
        raise RuntimeError("counting callbacks failed: " + p.stderr[-2000:])
    return int(m.group(1))


def callgrind_filtered(args, tools, exe, runs, extra):
    """--filter: the cost of a filtered-out construct (docs/filter.md). fib
    with every construct of fib() filtered out -- at run time (OTTER_FILTER,
    'exclude function fib': the label looked up once per call site, then a
    cached answer) and at compile time (-fplugin-arg-otter-filter: the
    site table has filtered sites, no OTTER_FILTER) -- against the
    do-nothing tool, per OMPT callback (the counting tool counts them)."""
    if not tools["plugin"]:
        sys.exit("run.py callgrind --filter: needs the plugin (function rules use its labels)")
    work = args.work_dir
    filt = os.path.join(work, "fib.filter")
    with open(filt, "w") as f:
        f.write("exclude function fib\n")
    exe_ct = os.path.join(work, "fib-filtered")
    run_checked([args.cc] + tools["cflags"] + ["-fplugin-arg-otter-filter=" + filt,
                                                os.path.join(HERE, "fib.c"), "-o", exe_ct])
    outdir = os.path.join(work, "cg-out")
    out = {}
    for label, prog, filter_env in (("run time", exe, filt), ("compile time", exe_ct, None)):
        per = {}
        for n in (args.n, args.n - 2):
            env = mode_env(args.mode, tools, 1, outdir)
            if filter_env:
                env["OTTER_FILTER"] = filter_env
            shutil.rmtree(outdir, ignore_errors=True)
            f = os.path.join(work, f"callgrind.out.fib{n}.filtered-{label.replace(' ', '-')}")
            ir, so, se = callgrind_total(prog, [str(n)], env, f, extra)
            if not re.search(r"otter: filtered: ", se):
                raise RuntimeError(f"the {label} filter was not applied: " + se[-2000:])
            per[n] = {"ir": ir, "events": parse_events(se), "file": f,
                      "callbacks": callback_count(prog, n, tools, outdir)}
        a, a2 = runs[(args.n, "null")], runs[(args.n - 2, "null")]
        b, b2 = per[args.n], per[args.n - 2]
        cb, cb2 = b["callbacks"], b2["callbacks"]
        over = (b["ir"] - a["ir"]) / cb
        marginal = ((b["ir"] - a["ir"]) - (b2["ir"] - a2["ir"])) / (cb - cb2)
        out[label] = {"callbacks": cb, "events": b["events"], "ir": b["ir"],
                      "ir_per_callback_over_null": over,
                      "ir_per_callback_marginal": marginal, "profile": b["file"]}
        print(f"filtered out at {label} ('exclude function fib'), fib {args.n}:")
        print(f"  OMPT callbacks                {cb:,}   events recorded {b['events']:,}")
        print(f"  Ir libotter                   {b['ir']:,}")
        print(f"  instructions/callback over null  {over:,.1f}   "
              f"marginal (fib {args.n - 2}->{args.n}) {marginal:,.1f}   (target <= 20)")
        print(f"  profile: callgrind_annotate --inclusive=yes {b['file']}")
    return out


def callgrind_paused(args, tools, exe, outdir, extra, runs):
    """The paused case: libotter with OTTER_START=paused (every callback
    refused until omp_control_tool start, which fib never calls) against the
    do-nothing tool, per OMPT callback; the slope between n-2 and n removes
    the fixed start-up and finalize cost. Target (issue 10): <= 20."""
    ir, calls = {}, {}
    for n in (args.n, args.n - 2):
        env = mode_env(args.mode, tools, 1, outdir)
        env["OTTER_START"] = "paused"
        shutil.rmtree(outdir, ignore_errors=True)
        out = os.path.join(args.work_dir, f"callgrind.out.fib{n}.paused")
        ir[n], _, _ = callgrind_total(exe, [str(n)], env, out, extra)
        calls[n] = callback_count(exe, n, tools, outdir)
    null, null2 = runs[(args.n, "null")]["ir"], runs[(args.n - 2, "null")]["ir"]
    per_cb = (ir[args.n] - null) / calls[args.n]
    marginal = ((ir[args.n] - null) - (ir[args.n - 2] - null2)) / (calls[args.n] - calls[args.n - 2])
    print(f"paused (OTTER_START=paused, fib {args.n}, 1 thread) vs do-nothing tool:")
    print(f"  OMPT callbacks                {calls[args.n]:,}")
    print(f"  Ir libotter paused            {ir[args.n]:,}")
    print(f"  instructions/callback over null  {per_cb:,.1f}")
    print(f"  marginal instr/callback (fib {args.n - 2}->{args.n})  {marginal:,.1f}   (target <= 20)")
    return {"paused_callbacks": calls[args.n], "ir_paused": ir[args.n],
            "ir_per_callback_paused_over_null": per_cb,
            "ir_per_callback_paused_marginal": marginal}


def cmd_callgrind(args):
    if not shutil.which("valgrind"):
        sys.exit("run.py: valgrind not found (Debian: apt-get install valgrind)")
    args.bench = ["fib"]
    tools = build(args)
    exe = tools["exes"]["fib"]
    outdir = os.path.join(args.work_dir, "cg-out")
    res = {"n": args.n, "threads": 1, "mode": args.mode}
    extra = ["--dump-instr=yes"] if args.dump_instr else []
    runs = {}
    for n in (args.n, args.n - 2):
        for mode in ("null", args.mode):
            env = mode_env(mode, tools, 1, outdir)
            shutil.rmtree(outdir, ignore_errors=True)
            out = os.path.join(args.work_dir, f"callgrind.out.fib{n}.{mode}")
            ir, so, se = callgrind_total(exe, [str(n)], env, out, extra)
            runs[(n, mode)] = {"ir": ir, "tasks": parse_tasks(so), "events": parse_events(se),
                               "file": out}
    a, b = runs[(args.n, "null")], runs[(args.n, args.mode)]
    a2, b2 = runs[(args.n - 2, "null")], runs[(args.n - 2, args.mode)]
    tasks, tasks2 = a["tasks"], a2["tasks"]
    per_task = (b["ir"] - a["ir"]) / tasks
    # marginal: the slope between n-2 and n removes fixed start-up/finalize cost
    marginal = ((b["ir"] - a["ir"]) - (b2["ir"] - a2["ir"])) / (tasks - tasks2)
    fixed = (b["ir"] - a["ir"]) - marginal * tasks
    res.update({"tasks": tasks, "events": b["events"], "ir_null": a["ir"], "ir_otter": b["ir"],
                "ir_per_task_over_null": per_task,
                "ir_per_event_over_null": (b["ir"] - a["ir"]) / b["events"] if b["events"] else None,
                "ir_per_task_marginal": marginal, "ir_fixed_cost": fixed,
                "otter_profile": b["file"], "null_profile": a["file"]})
    print(f"fib {args.n}, 1 thread, libotter mode '{args.mode}' vs do-nothing tool (callgrind Ir):")
    print(f"  tasks                         {tasks:,}")
    print(f"  events                        {b['events']:,}" if b["events"] else "  events  -")
    print(f"  Ir do-nothing tool            {a['ir']:,}")
    print(f"  Ir libotter                   {b['ir']:,}")
    print(f"  instructions/task over null   {per_task:,.0f}")
    if res["ir_per_event_over_null"]:
        print(f"  instructions/event over null  {res['ir_per_event_over_null']:,.1f}")
    print(f"  marginal instr/task (fib {args.n - 2}->{args.n})  {marginal:,.0f}"
          f"   (fixed start-up + finalize cost ~{fixed:,.0f} Ir)")
    print(f"  profile: callgrind_annotate --inclusive=yes {b['file']}")
    if args.filter:
        res["filtered"] = callgrind_filtered(args, tools, exe, runs, extra)
    if not args.no_paused:
        res.update(callgrind_paused(args, tools, exe, outdir, extra, runs))
    if args.json:
        res["meta"] = machine_info()
        res["meta"]["date"] = time.strftime("%Y-%m-%d %H:%M:%S %z")
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


# --------------------------------------------------------------------------
# guard subcommand: the performance regression test

GUARD_BASELINE = os.path.join(HERE, "ir_baseline.json")
GUARD_MODES = ("trace", "graph")


def toolchain_version(cc):
    try:
        out = subprocess.run([cc, "--version"], capture_output=True, text=True).stdout
        return out.splitlines()[0] if out else cc
    except OSError:
        return cc


def cmd_guard(args):
    """Instructions per task over the do-nothing tool, per mode, against the
    committed baseline. Instruction counts are repeatable for the same
    binaries and inputs (docs/performance-notes.md), so a rise beyond the tolerance
    is a change in OTTER's code, not noise."""
    if not shutil.which("valgrind"):
        sys.exit("run.py guard: valgrind not found (Debian: apt-get install valgrind)")
    args.bench = ["fib"]
    tools = build(args)
    exe = tools["exes"]["fib"]
    outdir = os.path.join(args.work_dir, "guard-out")
    measured, tasks = {}, None
    ir = {}
    for mode in ("null",) + GUARD_MODES:
        env = mode_env(mode, tools, 1, outdir)
        shutil.rmtree(outdir, ignore_errors=True)
        out = os.path.join(args.work_dir, f"callgrind.out.guard.{mode}")
        ir[mode], so, _ = callgrind_total(exe, [str(args.n)], env, out, [])
        tasks = tasks or parse_tasks(so)
    for mode in GUARD_MODES:
        measured[mode] = (ir[mode] - ir["null"]) / tasks
    if args.update:
        base = {"n": args.n, "threads": 1, "tasks": tasks,
                "ir_per_task_over_null": {m: round(measured[m], 1) for m in GUARD_MODES},
                "toolchain": toolchain_version(args.cc),
                "date": time.strftime("%Y-%m-%d")}
        with open(args.baseline, "w") as f:
            json.dump(base, f, indent=1)
            f.write("\n")
        print(f"wrote {args.baseline}: " +
              ", ".join(f"{m} {measured[m]:,.0f} Ir/task" for m in GUARD_MODES))
        return 0
    try:
        with open(args.baseline) as f:
            base = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"run.py guard: cannot read the baseline {args.baseline}: {e}; "
                 f"make one with 'python3 bench/run.py guard --update'")
    if base.get("n") != args.n:
        sys.exit(f"run.py guard: the baseline is for fib {base.get('n')}, not fib {args.n}")
    failed = []
    print(f"fib {args.n}, 1 thread, {tasks:,} tasks: instructions per task over the "
          f"do-nothing tool (callgrind), against {os.path.relpath(args.baseline)} "
          f"({base.get('date', '?')}, {base.get('toolchain', '?')}):")
    for mode in GUARD_MODES:
        was = base["ir_per_task_over_null"][mode]
        now = measured[mode]
        change = (now - was) / was * 100 if was else 0.0
        verdict = "ok"
        if now > was * (1 + args.tolerance / 100):
            verdict = f"REGRESSION (over +{args.tolerance:g} %)"
            failed.append(mode)
        elif now < was * (1 - args.tolerance / 100):
            verdict = "faster: update the baseline (run.py guard --update)"
        print(f"  {mode:6} {now:9,.0f} Ir/task   baseline {was:9,.0f}   {change:+6.1f} %   {verdict}")
    if failed:
        print(f"run.py guard: instructions per task rose more than {args.tolerance:g} % in "
              f"{', '.join(failed)} mode; profile: callgrind_annotate --inclusive=yes "
              f"{os.path.join(args.work_dir, 'callgrind.out.guard.' + failed[0])}")
        return 1
    return 0


# --------------------------------------------------------------------------


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in ("time", "callgrind", "guard") and argv[0] not in ("-h", "--help")):
        argv.insert(0, "time")

    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--build-dir", default=os.path.join(REPO, "build"),
                        help="OTTER build directory holding lib/libotter.so and, if built, "
                             "lib/otter.so (default: %(default)s)")
    common.add_argument("--libotter", metavar="PATH",
                        help="libotter.so to test (default: <build-dir>/lib/libotter.so); "
                             "it is copied into the work dir first, so rebuilding during a "
                             "series does not change it")
    common.add_argument("--work-dir", default=os.path.join(tempfile.gettempdir(), "otter-bench"),
                        help="where binaries, outputs and profiles go (default: %(default)s)")
    common.add_argument("--cc", default="clang-19", help="C compiler (default: %(default)s)")
    common.add_argument("--plugin", choices=("auto", "yes", "no"), default="auto",
                        help="compile the programs with -fplugin=<build-dir>/lib/otter.so: "
                             "auto = if it exists (default: %(default)s)")
    common.add_argument("--json", metavar="FILE", help="also write the results as JSON")

    ap = argparse.ArgumentParser(
        prog="run.py", description=__doc__.split("\n\n")[0],
        epilog="examples:\n"
               "  python3 bench/run.py --quick                  # smoke run, all benchmarks\n"
               "  python3 bench/run.py --bench fib --threads 1 --reps 7\n"
               "  python3 bench/run.py --json bench.json --markdown\n"
               "  python3 bench/run.py callgrind               # Ir/task, fib 22, trace-only\n"
               "run 'run.py time --help' or 'run.py callgrind --help' for all options",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", metavar="{time,callgrind,guard}")

    t = sub.add_parser("time", parents=[common], formatter_class=argparse.RawDescriptionHelpFormatter,
                       help="(default) interleaved wall time / peak RSS / trace size series",
                       description=__doc__)
    t.add_argument("--bench", default=",".join(b for b in BENCHES if b not in OFFLOAD),
                   help="comma list of benchmarks (default: %(default)s)")
    t.add_argument("--threads", default="1,2", help="comma list of OMP_NUM_THREADS (default: %(default)s)")
    t.add_argument("--reps", type=int, default=5, help="rounds of the interleaved series (default: %(default)s)")
    t.add_argument("--modes", default=",".join(MODES),
                   help="comma list of modes, must include untraced and null for the "
                        "derived columns (default: %(default)s)")
    t.add_argument("--quick", action="store_true",
                   help="small problem sizes: a smoke run that takes seconds")
    t.add_argument("--args", help="override the program arguments (one benchmark only), e.g. '28'")
    t.add_argument("--timeout", type=float, default=600, help="seconds per run (default: %(default)s)")
    t.add_argument("--markdown", action="store_true", help="print the table as Markdown")

    c = sub.add_parser("callgrind", parents=[common],
                       help="instructions per task over the do-nothing tool (valgrind)",
                       description="Runs fib N (1 thread) under valgrind --tool=callgrind with "
                                   "the do-nothing tool and with libotter, and prints the "
                                   "instruction difference per task; also at N-2 to separate "
                                   "the fixed start-up/finalize cost (marginal Ir/task). "
                                   "Instruction counts are deterministic: repeatable to ~0.1%%.")
    c.add_argument("--n", type=int, default=22, help="fib argument (default: %(default)s)")
    c.add_argument("--mode", choices=("graph", "trace", "both"), default="trace",
                   help="libotter mode (default: %(default)s)")
    c.add_argument("--no-paused", action="store_true",
                   help="skip the paused case (OTTER_START=paused: instructions per "
                        "callback over the do-nothing tool while recording is paused)")
    c.add_argument("--dump-instr", action="store_true",
                   help="pass --dump-instr=yes (per-instruction costs for callgrind_annotate "
                        "--auto=yes / kcachegrind)")
    c.add_argument("--filter", action="store_true",
                   help="also the cost of filtered-out constructs (docs/filter.md): fib with "
                        "fib() filtered at run time and at compile time, instructions per OMPT "
                        "callback over the do-nothing tool")

    g = sub.add_parser("guard", parents=[common],
                       help="the performance regression test: callgrind Ir/task against a baseline",
                       description="Runs fib N (1 thread) under valgrind --tool=callgrind with "
                                   "the do-nothing tool and with libotter in trace-only and "
                                   "graph mode, and compares the instructions per task over "
                                   "the do-nothing tool with the committed baseline. Exits 1 "
                                   "when either rose more than the tolerance. ctest runs it.")
    g.add_argument("--n", type=int, default=18, help="fib argument (default: %(default)s)")
    g.add_argument("--baseline", default=GUARD_BASELINE,
                   help="baseline file (default: bench/ir_baseline.json)")
    g.add_argument("--tolerance", type=float, default=10.0,
                   help="allowed rise in percent (default: %(default)s)")
    g.add_argument("--update", action="store_true",
                   help="measure and write the baseline instead of comparing")

    args = ap.parse_args(argv)
    if args.cmd is None:
        ap.print_help()
        return 2
    args.build_dir = os.path.abspath(args.build_dir)
    args.work_dir = os.path.abspath(args.work_dir)
    if args.cmd == "time":
        args.bench = [b.strip() for b in args.bench.split(",") if b.strip()]
        bad = [b for b in args.bench if b not in BENCHES]
        if bad:
            ap.error(f"unknown benchmark(s) {bad}; choose from {list(BENCHES)}")
        if args.args and len(args.bench) != 1:
            ap.error("--args needs exactly one --bench")
        args.threads = [int(x) for x in args.threads.split(",")]
        args.modes = [m.strip() for m in args.modes.split(",")]
        bad = [m for m in args.modes if m not in MODES + EXTRA_MODES]
        if bad:
            ap.error(f"unknown mode(s) {bad}; choose from {MODES + EXTRA_MODES}")
        if args.reps < 1:
            ap.error("--reps must be >= 1")
        cmd_time(args)
    elif args.cmd == "guard":
        return cmd_guard(args)
    else:
        cmd_callgrind(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
