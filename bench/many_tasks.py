#!/usr/bin/env python3
"""The full-size case of test/lit/stress/many-tasks.c (10 M tasks, 2
threads), too slow for every CI run on 2 cores: run by hand.

  python3 bench/many_tasks.py [--build-dir BUILD] [--work-dir DIR] [--tasks N]

Builds the test's program (plain clang -fopenmp, no plugin), then runs it
untraced, traced with the default outputs, and traced in trace-only mode
(OTTER_GRAPH_FORMAT=none); for each prints the wall time, the peak RSS and
the exit status, checks the traced runs' output and status equal the
untraced run's, and that `otter summary` reads the trace back with every
task. Exits 1 when any check fails. Standard library only."""
import argparse
import os
import re
import resource
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def run(cmd, env, out_path):
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.monotonic()
    with open(out_path, "w") as out:
        p = subprocess.run(cmd, env=env, stdout=out, stderr=subprocess.PIPE,
                           text=True)
    wall = time.monotonic() - t0
    # RUSAGE_CHILDREN's peak is over all children so far: each run is
    # started from the largest to the smallest expected, or measured apart.
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return p.returncode, wall, peak, before, p.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("--work-dir", default="/tmp/otter-many-tasks")
    ap.add_argument("--tasks", type=int, default=10_000_000)
    a = ap.parse_args()
    os.makedirs(a.work_dir, exist_ok=True)
    exe = os.path.join(a.work_dir, "many-tasks")
    subprocess.run(["clang-19" if shutil_which("clang-19") else "clang",
                    "-fopenmp", "-O1",
                    os.path.join(REPO, "test/lit/stress/many-tasks.c"),
                    "-o", exe], check=True)
    lib = os.path.join(a.build_dir, "lib", "libotter.so")
    otter = os.path.join(a.build_dir, "bin", "otter")
    ok = True
    rows = []
    # One process per measurement, so that each peak RSS is its own.
    for name, extra in (("trace-only", {"OTTER_GRAPH_FORMAT": "none"}),
                        ("untraced", None),
                        ("default outputs", {})):
        env = dict(os.environ)
        outdir = os.path.join(a.work_dir, name.replace(" ", "-"))
        subprocess.run(["rm", "-rf", outdir])
        if extra is not None:
            env.update(extra)
            env["OMP_TOOL_LIBRARIES"] = lib
            env["OTTER_OUTPUT_DIR"] = outdir
        out = os.path.join(a.work_dir, name.replace(" ", "-") + ".out")
        helper = [sys.executable, "-c",
                  "import resource,subprocess,sys;"
                  "p=subprocess.run(sys.argv[1:]);"
                  "print(resource.getrusage(resource.RUSAGE_CHILDREN)"
                  ".ru_maxrss,file=sys.stderr);sys.exit(p.returncode)"]
        rc, wall, _, _, err = run(helper + [exe, str(a.tasks)], env, out)
        peak = int(err.strip().splitlines()[-1])
        rows.append((name, rc, wall, peak, out, outdir if extra is not None
                     else None, err))
    base = open(rows[1][4]).read()
    for name, rc, wall, peak, out, outdir, err in rows:
        same = open(out).read() == base and rc == rows[1][1]
        line = (f"{name:16} exit {rc}  {wall:8.1f} s  peak RSS "
                f"{peak / 1024:8.1f} MiB  output {'same' if same else 'DIFFERS'}")
        ok &= same
        if outdir:
            s = subprocess.run([otter, "summary", outdir], capture_output=True,
                               text=True)
            m = re.search(r"\btask=(\d+)", s.stdout)
            n = int(m.group(1)) if m else -1
            line += f"  trace: {n} tasks"
            ok &= n == a.tasks
            du = subprocess.run(["du", "-sb", os.path.join(outdir, "trace")],
                                capture_output=True, text=True).stdout.split()
            if du:
                line += f", {int(du[0]) / 2**20:.0f} MiB"
        print(line)
    return 0 if ok else 1


def shutil_which(x):
    import shutil
    return shutil.which(x)


if __name__ == "__main__":
    sys.exit(main())
