#!/usr/bin/env python3
"""MPI benchmarks for OTTER (python3, standard library only).

  wrapper  The wrapper library's cost per MPI call over an untraced run, in
           ONE interleaved series (rounds alternate traced / untraced, the
           starting mode rotating): a ping-pong of 8-byte messages between
           2 ranks and an MPI_Allreduce loop on 2 ranks. Per call:
             ping-pong  (traced - untraced ns per round trip) / 4 (the four
                        calls of a round trip are on its critical path)
             allreduce  (traced - untraced ns per iteration) (each rank's
                        one call per iteration runs at the same time)
             put        (traced - untraced ns per MPI_Put) (one-sided, in
                        one fence epoch: a call that does not wait)
           Traced = OMP_TOOL_LIBRARIES + LD_PRELOAD (otter-run), trace and
           graph on. Target: at most 300 ns per call on the ping-pong.
  close    A 16-rank job (oversubscribed: any machine) of OpenMP tasks and
           MPI traffic: time from the last rank returning from main to
           mpirun's exit, traced (the ranks write their archives and graphs
           and the last one assembles the job's OTF2 archive) against
           untraced (process teardown only). Target: under 2 s.

Usage: python3 bench/mpi.py [wrapper|close|all] [--build-dir build]
       [--rounds N] [--iters N] [--ranks N]
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
MPIRUN = ["mpirun", "--oversubscribe", "--mca", "btl", "self,vader",
          "--mca", "btl_vader_single_copy_mechanism", "none"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def build(args):
    work = tempfile.mkdtemp(prefix="otter-mpi-bench-")
    exe = os.path.join(work, "mpi")
    show = subprocess.run(["mpicc", "-showme:compile"], capture_output=True,
                          text=True, check=True).stdout.split()
    link = subprocess.run(["mpicc", "-showme:link"], capture_output=True,
                          text=True, check=True).stdout.split()
    cmd = ["clang-19", "-O2", "-fopenmp"]
    plugin = os.path.join(args.build_dir, "lib", "otter.so")
    if os.path.exists(plugin):
        cmd.append("-fplugin=" + plugin)
    subprocess.run(cmd + show + [os.path.join(HERE, "mpi.c"), "-o", exe] + link,
                   check=True)
    return work, exe


def run(args, exe, ranks, mode, iters, traced, out_dir):
    env = dict(os.environ, **ROOT_ENV)
    for v in ("OMP_TOOL_LIBRARIES", "LD_PRELOAD", "OTTER_OUTPUT_DIR"):
        env.pop(v, None)
    cmd = MPIRUN + ["-np", str(ranks)]
    if traced:
        cmd += [os.path.join(args.build_dir, "bin", "otter-run"), "-o", out_dir]
    cmd += [exe, mode, str(iters)]
    if traced and os.path.exists(out_dir):
        shutil.rmtree(out_dir)
    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=600)
    done = time.monotonic_ns()
    if p.returncode != 0:
        sys.exit(f"mpi.py: {' '.join(cmd)} failed:\n{p.stderr}")
    loop = [float(x) for x in re.findall(r"loop_ns=([0-9.]+)", p.stdout)]
    ends = [int(x) for x in re.findall(r"end=([0-9]+)", p.stdout)]
    return (loop[0] if loop else None), done - max(ends)


def wrapper(args, work, exe):
    res = {}
    for mode, per in (("pingpong", 4), ("allreduce", 1), ("put", 1)):
        series = {False: [], True: []}
        for r in range(args.rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            for traced in order:
                loop, _ = run(args, exe, 2, mode, args.iters, traced,
                              os.path.join(work, "out"))
                series[traced].append(loop)
        u = statistics.median(series[False])
        t = statistics.median(series[True])
        res[mode] = (u, t, (t - u) / per)
        log(f"{mode}: untraced {u:.0f} ns/iter, traced {t:.0f} ns/iter, "
            f"ratio {t / u:.2f}, wrapper {(t - u) / per:.0f} ns per call "
            f"(median of {args.rounds} interleaved rounds, {args.iters} iters)")
    return res


def close(args, work, exe):
    series = {False: [], True: []}
    for r in range(args.rounds):
        order = (False, True) if r % 2 == 0 else (True, False)
        for traced in order:
            out = os.path.join(work, "job")
            _, after = run(args, exe, args.ranks, "work", 50, traced, out)
            series[traced].append(after)
            if traced and not os.path.exists(os.path.join(out, "trace",
                                                          "traces.otf2")):
                sys.exit("mpi.py: no job archive was assembled")
    u = statistics.median(series[False]) / 1e9
    t = statistics.median(series[True]) / 1e9
    log(f"close, {args.ranks} ranks: untraced {u:.3f} s, traced {t:.3f} s "
        f"from the last main() return to mpirun's exit; OTTER's part "
        f"{t - u:.3f} s (median of {args.rounds} interleaved rounds)")
    return u, t


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", nargs="?", default="all",
                    choices=["wrapper", "close", "all"])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--iters", type=int, default=20000)
    ap.add_argument("--ranks", type=int, default=16)
    args = ap.parse_args()
    args.build_dir = os.path.abspath(args.build_dir)
    work, exe = build(args)
    try:
        if args.cmd in ("wrapper", "all"):
            wrapper(args, work, exe)
        if args.cmd in ("close", "all"):
            close(args, work, exe)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
