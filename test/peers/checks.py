"""What test/peers/run.py checks beyond "the program did not change"
(issue 25): the traced run's archive and graph, the compiler sweep, and the
runaway program under the default trace size limit. Standard library only.
"""
import csv
import concurrent.futures
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LIT_INPUTS = os.path.join(REPO, "test", "lit", "Inputs")
LABEL_COLUMNS = ("file", "function", "location")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


# --- The traced run's outputs -------------------------------------------

def label_counts(nodes_csv):
    """Of the nodes a construct made (every node with a parent): how many,
    how many with an exact label (the plugin's site table), and the ids and
    kinds of those with no label at all."""
    total = exact = 0
    missing = []
    with open(nodes_csv, newline="") as f:
        for r in csv.DictReader(f):
            if not r.get("parent"):
                continue
            total += 1
            if r.get("label_quality") == "exact":
                exact += 1
            if not any(r.get(c) for c in LABEL_COLUMNS):
                missing.append(f"{r['id']} {r['kind']}")
    return total, exact, missing


def check_outputs(out, build_bin, timeout):
    """The checks of one traced run's OTTER_OUTPUT_DIR (written with
    OTTER_GRAPH_FORMAT=all): the archive balances and OTF2's tools read it,
    and the graph otter-graph rebuilds from it equals the live one
    (test/lit/Inputs/check-rebuild.sh); every node has a label. Returns
    {problems: [...], nodes, exact, unlabelled}."""
    r = {"problems": [], "nodes": 0, "exact": 0, "unlabelled": []}
    check_trace(out, build_bin, timeout, r)
    nodes = os.path.join(out, "nodes.csv")
    if os.path.exists(nodes):
        r["nodes"], r["exact"], r["unlabelled"] = label_counts(nodes)
        if r["unlabelled"]:
            r["problems"].append(f"{len(r['unlabelled'])} nodes without a "
                                 "label")
    else:
        r["problems"].append("no nodes.csv")
    return r


def check_trace(out, build_bin, timeout, r):
    if not os.path.exists(os.path.join(out, "trace", "traces.otf2")):
        r["problems"].append("no trace")
        return
    env = dict(os.environ)
    env["PATH"] = build_bin + os.pathsep + env.get("PATH", "")
    rebuilt = out + ".rebuilt"
    try:
        p = subprocess.run(["sh", os.path.join(LIT_INPUTS, "check-rebuild.sh"),
                            "--format", "all", "-o", rebuilt, out], env=env,
                           capture_output=True, text=True, timeout=timeout)
        if p.returncode != 0:
            text = p.stdout + p.stderr
            r["problems"].append(
                "graph rebuilt from the trace differs" if "differs" in text
                else "archive unbalanced or unreadable: " +
                (text.strip().splitlines() or ["?"])[-1][:200])
    except subprocess.TimeoutExpired:
        r["problems"].append(f"trace checks did not finish in {timeout} s")
    shutil.rmtree(rebuilt, ignore_errors=True)


def calls_kmpc_directly(src):
    """Whether a program calls libomp's __kmpc_* entry points itself (its
    calls are no directive of its source: no exact label is possible)."""
    try:
        return "__kmpc_" in open(src, errors="replace").read()
    except OSError:
        return False


def label_summary(results):
    """The label figure per program and overall, with the programs that
    call __kmpc_* themselves counted apart."""
    def pct(e, n):
        return round(100.0 * e / n, 1) if n else None
    own = [r for r in results if not r.get("direct_kmpc")]
    direct = [r for r in results if r.get("direct_kmpc")]
    n_all = sum(r.get("nodes", 0) for r in results)
    e_all = sum(r.get("exact", 0) for r in results)
    n_own = sum(r.get("nodes", 0) for r in own)
    e_own = sum(r.get("exact", 0) for r in own)
    return {
        "exact_percent_all": pct(e_all, n_all),
        "exact_percent_without_direct_kmpc": pct(e_own, n_own),
        "nodes": n_all,
        "direct_kmpc_programs": sorted({r["program"] for r in direct}),
        "per_program": {r["program"]: pct(r.get("exact", 0), r.get("nodes"))
                        for r in results if r.get("nodes")},
    }


# --- The compiler sweep ---------------------------------------------------

SWEEP_LEVELS = [["-O0", "-g"], ["-O2", "-g"], ["-O0"], ["-O2"]]
CRASH = re.compile(r"PLEASE submit a bug report|due to signal|"
                   r"Stack dump:|Segmentation fault")


def compile_once(src, flags, plugin, timeout):
    cc = "clang++-19" if src.endswith(".cpp") else "clang-19"
    if not shutil.which(cc):
        cc = cc.replace("-19", "")
    inputs = os.path.join(os.path.dirname(src), "Inputs")
    # Headers beside the source, in its Inputs/ (clang's tests) and one
    # directory up (libomp's tests: omp_testsuite.h).
    cmd = [cc, "-fopenmp", "-c", src, "-o", os.devnull, "-w",
           "-I", os.path.dirname(src), "-I", inputs,
           "-I", os.path.dirname(os.path.dirname(src))] + flags
    if plugin:
        cmd.append(f"-fplugin={plugin}")
    try:
        p = subprocess.run(cmd, capture_output=True, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        return "hang", cmd, ""
    if p.returncode < 0 or CRASH.search(p.stderr):
        return "crash", cmd, p.stderr
    return ("ok" if p.returncode == 0 else "error"), cmd, p.stderr


def sweep_source(src, plugin, timeout):
    """One source at every level of SWEEP_LEVELS with the plugin: ok, a
    crash or hang of the compiler, an error only with the plugin; or, once
    for the source, not compilable as it stands (it fails without the
    plugin too, checked first with -fsyntax-only: a -verify test, a missing
    -D). A list of (what, command)."""
    alone, cmd, _ = compile_once(src, ["-fsyntax-only"], None, timeout)
    if alone != "ok":
        return [("not compilable", " ".join(cmd))]
    out = []
    for flags in SWEEP_LEVELS:
        what, cmd, stderr = compile_once(src, flags, plugin, timeout)
        said = ""
        if what in ("error", "crash"):
            # What the compiler said (the last lines), for the report.
            said = " | ".join(stderr.strip().splitlines()[-3:])
            # clang crashes on some of its own tests (ast_print ones built
            # to objects): the plugin's doing only if clang alone does not.
            without, _, _ = compile_once(src, flags, None, timeout)
            if what == "error":
                what = "plugin-only error" if without == "ok" else "error"
            elif without == "crash":
                what = "crash without the plugin too"
        out.append((what, " ".join(cmd) + (f"  [{said}]" if said else "")))
    return out


def compile_sweep(sources, plugin, jobs, timeout, limit=0):
    """Every source at every level of SWEEP_LEVELS, with the plugin."""
    if limit:
        sources = sources[:limit]
    counts, bad = {}, []
    t0 = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as ex:
        futures = [ex.submit(sweep_source, s, plugin, timeout)
                   for s in sources]
        for i, fut in enumerate(concurrent.futures.as_completed(futures), 1):
            for what, cmd in fut.result():
                counts[what] = counts.get(what, 0) + 1
                if what in ("crash", "hang", "plugin-only error"):
                    bad.append({"what": what, "command": cmd})
                    log(f"{what.upper()}: {cmd}")
            if i % 100 == 0:
                log(f"[{i}/{len(sources)}] sources, "
                    f"{time.monotonic() - t0:.0f} s")
    return {"sources": len(sources), "levels": [" ".join(f)
                                                for f in SWEEP_LEVELS],
            "compiles": sum(counts.values()) - counts.get("not compilable", 0),
            "counts": counts, "problems": bad,
            "seconds": round(time.monotonic() - t0)}


# --- The runaway program ----------------------------------------------------

RUNAWAY_SOURCE = r"""
/* DataRaceBench DRB191's shape: tasks in a loop that never ends. */
#include <stdio.h>
int main(void) {
  long n = 0;
#pragma omp parallel
#pragma omp single
  while (1) {
#pragma omp task shared(n)
    {
#pragma omp atomic
      n++;
    }
  }
  printf("%ld\n", n);
  return 0;
}
"""


def default_size_limit(path):
    """OTTER_MAX_TRACE_SIZE's default (docs/trace.md): the smaller of 10 GiB
    and half the free space of the output directory's file system."""
    st = os.statvfs(path)
    return min(10 << 30, st.f_bavail * st.f_frsize // 2)


def tree_size(path):
    return sum(os.path.getsize(os.path.join(d, f))
               for d, _, files in os.walk(path) for f in files)


def runaway(work, lib, plugin, build_bin, seconds):
    """A `while (1)` task program traced under the default size limit,
    ended by SIGTERM after SECONDS: the trace stays under the limit and the
    archive is closed and balanced."""
    src = os.path.join(work, "runaway.c")
    exe = os.path.join(work, "runaway")
    with open(src, "w") as f:
        f.write(RUNAWAY_SOURCE)
    subprocess.run(["clang-19", "-O2", "-fopenmp", f"-fplugin={plugin}", src,
                    "-o", exe], check=True)
    out = os.path.join(work, "runaway.d")
    shutil.rmtree(out, ignore_errors=True)
    env = dict(os.environ)
    for v in ("OTTER_MAX_TRACE_SIZE", "OTTER_GRAPH_FORMAT", "OMP_TOOL"):
        env.pop(v, None)
    env.update({"OMP_TOOL_LIBRARIES": lib, "OTTER_OUTPUT_DIR": out,
                "OMP_NUM_THREADS": "2"})
    limit = default_size_limit(work)
    log(f"+ runaway: {exe} traced for {seconds} s (default limit "
        f"{limit / (1 << 30):.2f} GiB)")
    p = subprocess.Popen([exe], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    time.sleep(seconds)
    p.send_signal(signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=300)
        ended = "exit status %d" % p.returncode
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        ended = "did not end within 300 s of SIGTERM"
    size = tree_size(out) if os.path.isdir(out) else 0
    r = {"seconds": seconds, "ended": ended, "trace_bytes": size,
         "default_limit_bytes": limit, "problems": [],
         "otter": [l for l in err.decode(errors="replace").splitlines()
                   if l.startswith("otter")][:3]}
    if p.returncode != -signal.SIGTERM:
        r["problems"].append(f"ended with {ended}, not by SIGTERM")
    if size > limit:
        r["problems"].append("trace larger than the default limit")
    t0 = time.monotonic()
    try:
        c = subprocess.run([os.path.join(build_bin, "otter-check-balance"),
                            os.path.join(out, "trace", "traces.otf2")],
                           capture_output=True, text=True, timeout=1800)
        if c.returncode != 0:
            r["problems"].append("unbalanced: " + c.stdout.strip()[:200])
    except subprocess.TimeoutExpired:
        r["problems"].append("balance check did not finish in 1800 s")
    r["check_seconds"] = round(time.monotonic() - t0)
    shutil.rmtree(out, ignore_errors=True)
    return r
