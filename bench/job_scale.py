#!/usr/bin/env python3
"""How the utilities' time and memory on an MPI job grow with its ranks
(issue 27 item 7; docs/mpi.md, "The utilities on a job: measured").

Generates real jobs with OTTER's runtime -- bench/job_gen.c, the same events
on every rank at every size (weak scaling: per rank and step a halo
exchange with both ring neighbours, an MPI_Allreduce and TASKS OpenMP
tasks), run with `mpirun --oversubscribe -np N otter-run` -- and times, on
each job, `otter-graph JOB`, `otter summary JOB`, `otter diagnose JOB` and
`otter report JOB`: wall time, CPU time and peak RSS (GNU time's %M), and
the job's size on disk (hard-linked files counted once). Prints each
measurement on stderr, then a table (--markdown) and the growth: the
exponent of CPU time and peak memory between consecutive sizes (1.0:
linear in ranks; a fixed start-up cost pulls it below 1 at small sizes),
the cost per rank (the slope b of a + b x ranks, least squares over the
sizes) and the extrapolation of a + b x ranks to --extrapolate ranks.
CPU time, not wall time, is fitted: on a shared machine wall time is
mostly the other jobs'.

Runs are nice'd. On a 2-core machine 128 oversubscribed ranks run in about
a minute, 256 in 10-25 minutes (their collectives on 2 cores); --reuse
keeps a job already generated in --work (same ranks, steps, tasks and
threads) and measures it again. A job whose mpirun fails stops the
series with mpirun's message.

usage: bench/job_scale.py [--build DIR] [--ranks 16,64,256] [--steps N]
                          [--tasks N] [--threads T] [--reps R]
                          [--commands LIST] [--work DIR] [--reuse]
                          [--extrapolate 1024,16384] [--json FILE]
                          [--markdown]
"""
import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
ROOT_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}
# As bench/mpi.py and the lit tests' %mpirun: shared memory, no CMA (not
# permitted in every container). mpi_yield_when_idle: oversubscribed ranks
# give the core up while they poll, or 256 ranks on 2 cores crawl.
MPIRUN = ["mpirun", "--oversubscribe", "--mca", "btl", "self,vader",
          "--mca", "btl_vader_single_copy_mechanism", "none",
          "--mca", "mpi_yield_when_idle", "1"]

COMMANDS = {
    "otter-graph": ["{bin}/otter-graph", "{job}", "-o", "{work}/graph"],
    "summary": ["{bin}/otter", "summary", "{job}"],
    "diagnose": ["{bin}/otter", "diagnose", "{job}"],
    "report": ["{bin}/otter", "report", "-o", "{work}/report.html", "{job}"],
}


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def timed(cmd, env=None):
    """Runs cmd (nice'd) under GNU time: (wall s, CPU s, peak RSS bytes, rc,
    stderr)."""
    t0 = time.monotonic()
    p = subprocess.run(["nice", "/usr/bin/time", "-f", "otter-time %U %S %M"]
                       + cmd, env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    dt = time.monotonic() - t0
    cpu, rss = 0.0, 0
    for line in p.stderr.strip().splitlines()[::-1]:
        f = line.split()
        if len(f) == 4 and f[0] == "otter-time":
            cpu, rss = float(f[1]) + float(f[2]), int(f[3]) * 1024
            break
    return dt, cpu, rss, p.returncode, p.stderr


def disk_bytes(path):
    """Bytes of the files under path, each inode once (the job archive's
    event files are hard links to the ranks')."""
    seen, total = set(), 0
    for d, _, fs in os.walk(path):
        for f in fs:
            st = os.lstat(os.path.join(d, f))
            if (st.st_dev, st.st_ino) not in seen:
                seen.add((st.st_dev, st.st_ino))
                total += st.st_size
    return total


def build(a):
    exe = os.path.join(a.work, "job_gen")
    show = subprocess.run(["mpicc", "-showme:compile"], capture_output=True,
                          text=True, check=True).stdout.split()
    link = subprocess.run(["mpicc", "-showme:link"], capture_output=True,
                          text=True, check=True).stdout.split()
    cmd = ["clang-19", "-O2", "-fopenmp"]
    plugin = os.path.join(a.build, "lib", "otter.so")
    if os.path.exists(plugin):
        cmd.append("-fplugin=" + plugin)
    subprocess.run(cmd + show + [os.path.join(HERE, "job_gen.c"), "-o", exe]
                   + link, check=True)
    return exe


def generate(a, exe, ranks, job):
    """Runs the job (or keeps it, --reuse); returns (seconds, events line)."""
    stamp = os.path.join(job, "job_scale.json")
    want = {"ranks": ranks, "steps": a.steps, "tasks": a.tasks,
            "threads": a.threads}
    if a.reuse and os.path.exists(stamp):
        with open(stamp) as f:
            old = json.load(f)
        if {k: old.get(k) for k in want} == want:
            log(f"{ranks} ranks: reusing {job}")
            return old.get("run_s"), old.get("events", "")
    shutil.rmtree(job, ignore_errors=True)
    env = dict(os.environ, **ROOT_ENV)
    for v in ("OMP_TOOL_LIBRARIES", "LD_PRELOAD", "OTTER_OUTPUT_DIR"):
        env.pop(v, None)
    cmd = (["nice"] + MPIRUN + ["-np", str(ranks), "-x",
                                f"OMP_NUM_THREADS={a.threads}",
                                os.path.join(a.build, "bin", "otter-run"),
                                "-o", job, exe, str(a.steps), str(a.tasks)])
    t0 = time.monotonic()
    p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=a.timeout)
    dt = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"job_scale.py: {' '.join(cmd)} failed ({p.returncode}):\n"
                 f"{p.stderr[-4000:]}")
    # The last rank to close assembles the job's archive, possibly after
    # mpirun has returned (a forked writer): wait for it.
    archive = os.path.join(job, "trace", "traces.otf2")
    for _ in range(600):
        if os.path.exists(archive):
            break
        time.sleep(0.5)
    else:
        sys.exit(f"job_scale.py: no job archive {archive}")
    m = re.search(r"^events: .*$", p.stdout, re.M)
    events = m.group(0) if m else ""
    with open(stamp, "w") as f:
        json.dump(dict(want, run_s=round(dt, 1), events=events), f)
    return dt, events


def exponent(rows, i, name, key):
    """log(y_i / y_{i-1}) / log(n_i / n_{i-1}): 1 is linear in ranks."""
    p, r = rows[i - 1], rows[i]
    y0, y1 = p["commands"][name][key], r["commands"][name][key]
    if y0 <= 0 or y1 <= 0:
        return None
    return math.log(y1 / y0) / math.log(r["ranks"] / p["ranks"])


def fit(rows, name, key):
    """Least squares y = a + b * ranks over the sizes: (a, b)."""
    xs = [r["ranks"] for r in rows]
    ys = [r["commands"][name][key] for r in rows]
    if len(xs) < 2:
        return 0.0, ys[0] / xs[0]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    b = (sum((x - mx) * (y - my) for x, y in zip(xs, ys))
         / sum((x - mx) ** 2 for x in xs))
    return my - b * mx, b


def fmt_s(s):
    return f"{s:.2f} s" if s < 100 else f"{s:,.0f} s"


def fmt_mb(b):
    return f"{b / 1e6:,.0f} MB" if b < 1e10 else f"{b / 1e9:,.0f} GB"


def markdown(rows, names, extra):
    print("| ranks | job on disk | " + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    for r in rows:
        cells = []
        for c in names:
            m = r["commands"][c]
            cells.append(f"{fmt_s(m['s'])} ({fmt_s(m['cpu_s'])} CPU), "
                         f"{fmt_mb(m['rss_bytes'])}"
                         + ("" if m["rc"] == 0 else f" **rc {m['rc']}**"))
        print(f"| {r['ranks']} | {fmt_mb(r['disk_bytes'])} | "
              + " | ".join(cells) + " |")
    for i in range(1, len(rows)):
        cells = []
        for c in names:
            ts = exponent(rows, i, c, "cpu_s")
            ms = exponent(rows, i, c, "rss_bytes")
            cells.append(("CPU ^%.2f" % ts if ts is not None else "-")
                         + ", " + ("memory ^%.2f" % ms if ms is not None
                                   else "-"))
        d = math.log(rows[i]["disk_bytes"] / rows[i - 1]["disk_bytes"]) / \
            math.log(rows[i]["ranks"] / rows[i - 1]["ranks"])
        print(f"| growth {rows[i - 1]['ranks']}->{rows[i]['ranks']} "
              f"(exponent of ranks) | ^{d:.2f} | " + " | ".join(cells) + " |")
    if len(rows) < 2:
        return
    cells = []
    for c in names:
        _, bt = fit(rows, c, "cpu_s")
        _, bm = fit(rows, c, "rss_bytes")
        cells.append(f"{bt * 1e3:.1f} ms CPU, {bm / 1e6:.2f} MB")
    print("| per rank (slope of a + b x ranks) | %.2f MB | "
          % (statistics.fmean(r["disk_bytes"] / r["ranks"] for r in rows)
             / 1e6) + " | ".join(cells) + " |")
    if not extra:
        return
    print()
    print("| ranks (a + b x ranks, fitted on %s) | job on disk | "
          % ", ".join(str(r["ranks"]) for r in rows)
          + " | ".join(names) + " |")
    print("|---|---|" + "---|" * len(names))
    disk = rows[-1]["disk_bytes"] / rows[-1]["ranks"]
    for n in extra:
        cells = []
        for c in names:
            at, bt = fit(rows, c, "cpu_s")
            am, bm = fit(rows, c, "rss_bytes")
            cells.append(f"{fmt_s(at + bt * n)} CPU, {fmt_mb(am + bm * n)}")
        print(f"| {n:,} | {fmt_mb(disk * n)} | " + " | ".join(cells) + " |")


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(REPO, "build"))
    ap.add_argument("--ranks", default="16,64,256")
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--tasks", type=int, default=8)
    ap.add_argument("--threads", type=int, default=1,
                    help="OMP_NUM_THREADS of every rank (default 1)")
    ap.add_argument("--reps", type=int, default=1,
                    help="runs of each command; the median is kept")
    ap.add_argument("--commands", default=",".join(COMMANDS),
                    help="comma list of %s" % ", ".join(COMMANDS))
    ap.add_argument("--work", default="/tmp/otter-job-scale")
    ap.add_argument("--reuse", action="store_true")
    ap.add_argument("--keep", action="store_true",
                    help="keep the jobs (default: with --reuse only)")
    ap.add_argument("--timeout", type=float, default=3600,
                    help="seconds for one mpirun")
    ap.add_argument("--extrapolate", default="1024,16384")
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    a.build = os.path.abspath(a.build)
    bindir = os.path.join(a.build, "bin")
    for f in ("otter", "otter-graph", "otter-run"):
        if not os.path.exists(os.path.join(bindir, f)):
            sys.exit(f"missing {bindir}/{f}: build the project first")
    names = [c for c in a.commands.split(",") if c]
    for c in names:
        if c not in COMMANDS:
            sys.exit(f"unknown command {c}: one of {', '.join(COMMANDS)}")
    os.makedirs(a.work, exist_ok=True)
    exe = build(a)
    rows = []
    for n in [int(x) for x in a.ranks.split(",")]:
        job = os.path.join(a.work, f"job-{n}")
        run_s, events = generate(a, exe, n, job)
        disk = disk_bytes(job)
        log(f"{n} ranks: ran in {run_s:.0f} s, {disk / 1e6:.1f} MB on disk; "
            f"{events}")
        row = {"ranks": n, "steps": a.steps, "tasks": a.tasks,
               "threads": a.threads, "run_s": run_s, "events": events,
               "disk_bytes": disk, "commands": {}}
        for c in names:
            out = os.path.join(a.work, f"out-{n}")
            os.makedirs(out, exist_ok=True)
            cmd = [x.format(bin=bindir, job=job, work=out)
                   for x in COMMANDS[c]]
            runs = [timed(cmd) for _ in range(a.reps)]
            dt = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            rss = max(r[2] for r in runs)
            rc = max(r[3] for r in runs)
            row["commands"][c] = {"s": round(dt, 3), "cpu_s": round(cpu, 3),
                                  "rss_bytes": rss, "rc": rc}
            log(f"{n} ranks {c}: {dt:.2f} s wall, {cpu:.2f} s CPU, "
                f"{rss / 1e6:.0f} MB peak RSS; per rank {dt / n * 1e3:.1f} ms,"
                f" {rss / n / 1e6:.2f} MB"
                + ("" if rc == 0 else
                   f" FAILED rc={rc}: {runs[-1][4].strip()[-2000:]}"))
            shutil.rmtree(out, ignore_errors=True)
        rows.append(row)
        if not (a.reuse or a.keep):
            shutil.rmtree(job, ignore_errors=True)
        if a.json:  # after every size: a long series keeps what it has
            with open(a.json, "w") as f:
                json.dump(rows, f, indent=1)
    if a.markdown:
        extra = [int(x) for x in a.extrapolate.split(",") if x]
        markdown(rows, names, extra)


if __name__ == "__main__":
    main()
