#!/usr/bin/env python3
"""Peer test suites under OTTER, by hand (not part of ctest or .ci/run: it
downloads a large source package). Issues 14 and 25.

LLVM's own libomp tests (openmp/runtime/test of Debian's llvm-toolchain-19
source package) are self-checking programs: each one is built with clang-19
and OTTER's plugin at each optimisation level of --opt (default -O0,-O2),
then run untraced and traced (OMP_TOOL_LIBRARIES, OTTER_GRAPH_FORMAT=all),
each with a timeout; a program whose traced run crashes, hangs, exits with
another status or prints something else than untraced is reported. Each
traced run's output is checked too (checks.py): the archive balances and
OTF2's tools read it, the graph otter-graph rebuilds from it equals the one
the runtime wrote, and every node has a label; the share of nodes with an
exact label is given per program and overall, with the programs that call
libomp's __kmpc_* entry points themselves (no directive to label) apart.

  python3 test/peers/run.py --fetch                # apt-get source, then run
  python3 test/peers/run.py --llvm-src DIR         # an unpacked source tree
  python3 test/peers/run.py --exe-dir DIR [-- ARGS...]
        # any other suite built beforehand (BOTS, KaStORS, task-bench,
        # dataracebench: not in Debian): every executable file under DIR is
        # run untraced and traced the same way, with ARGS

  python3 test/peers/run.py --fetch --compile-sweep
        # no run: every libomp test program and every clang/test/OpenMP/*.c*
        # compiled with the plugin at -O0 -g, -O2 -g, -O0 and -O2 (-j N at
        # a time): a compiler crash or hang, or an error only with the
        # plugin, is reported (a source that does not compile without the
        # plugin either -- a -verify test -- is counted apart)

  python3 test/peers/run.py --fetch --offload
        # LLVM's offload OMPT tests (offload/test/ompt, issue 29) built for
        # host offload (-fopenmp-targets=x86_64-unknown-linux-gnu, through
        # otter-clang) at each --opt level and run the same way. Each test
        # registers its own OMPT tool (ompt_start_tool in the program),
        # which libomp prefers to OMP_TOOL_LIBRARIES (one tool per
        # process): it is renamed (-Dompt_start_tool=...) so that OTTER is
        # the tool, in both runs; the test's own callback output is then
        # not printed. Tests marked REQUIRES: gpu (their CHECK lines are a
        # GPU's) are run too, and counted apart.

  python3 test/peers/run.py --runaway 60
        # a while(1) task program (DataRaceBench DRB191's shape) traced
        # under the default OTTER_MAX_TRACE_SIZE and ended by SIGTERM after
        # 60 s: it must end by the signal, its trace stay under the default
        # limit, and the archive balance

Options: --build-dir (OTTER's, default ./build), --work-dir (default
/tmp/otter-peers: the downloaded source is kept there; every run gets a
fresh run-DATE-PID directory under it for its binaries and outputs),
--timeout seconds per run (default 60), --dirs (libomp test directories,
default tasking,worksharing,parallel,barrier,critical,lock,misc_bugs,
atomic,flush,master... see DEFAULT_DIRS; a directory that does not exist
is an error, not 0 programs), --opt (levels, default -O0,-O2), --limit N
(first N programs), --keep (keep each traced run's output), --json FILE.

--fetch downloads `llvm-toolchain-19`'s source package with a private apt
configuration under the work directory (deb-src entries made from the
machine's own apt sources, private package lists and cache: nothing under
/etc is written, and the script checks /etc/apt is unchanged), and unpacks
only openmp/runtime/test (and, for --compile-sweep, clang/test/OpenMP;
for --offload, offload/test/ompt) from the original tarball.

  python3 test/peers/run.py --llvm-src DIR --shared-locations
        # no run: every program of the libomp tests (all directories) is
        # compiled at -O0 twice with the plugin, with the locations of a
        # function's directives shared (the default without -g: docs/plugin.md
        # "Shared locations at -O0") and without (-gline-tables-only); every
        # call site must get the same directive, and the plugin the same
        # warnings, in both

Exit status: 0 when no program changed under the tracer and every check
passed, 1 otherwise. Standard library only.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time

import checks

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DIRS = ["tasking", "worksharing", "parallel", "barrier", "critical",
                "lock", "misc_bugs", "atomic", "flush", "master", "env", "api",
                "teams", "affinity"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def etc_apt_digest():
    """A digest of every file under /etc/apt: fetching must not change it."""
    h = hashlib.sha256()
    for base, dirs, files in sorted(os.walk("/etc/apt")):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(base, name)
            h.update(path.encode())
            try:
                with open(path, "rb") as f:
                    h.update(f.read())
            except OSError:
                h.update(b"?")
    return h.hexdigest()


def source_lines():
    """deb-src lines for the archives the machine already installs from
    (its own apt sources, one-line and deb822 forms), so no archive host is
    named here and the machine's mirror is used."""
    lines = []
    one_line = ["/etc/apt/sources.list"] + sorted(
        glob.glob("/etc/apt/sources.list.d/*.list"))
    for path in one_line:
        try:
            text = open(path).read()
        except OSError:
            continue
        for line in text.splitlines():
            line = line.strip()
            if line.startswith("deb "):
                lines.append("deb-src " + line[4:])
    for path in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        try:
            stanzas = open(path).read().split("\n\n")
        except OSError:
            continue
        for stanza in stanzas:
            fields = {}
            for line in stanza.splitlines():
                if ":" in line and not line.startswith((" ", "#")):
                    key, value = line.split(":", 1)
                    fields[key.strip()] = value.strip()
            if "deb" not in fields.get("Types", "").split():
                continue
            opts = (f"[signed-by={fields['Signed-By']}] "
                    if "Signed-By" in fields and
                    fields["Signed-By"].startswith("/") else "")
            for uri in fields.get("URIs", "").split():
                for suite in fields.get("Suites", "").split():
                    lines.append(f"deb-src {opts}{uri} {suite} "
                                 f"{fields.get('Components', 'main')}")
    return lines


def download(work):
    """llvm-toolchain-19's original source tarball, downloaded with a
    private apt configuration under WORK (its own source list, package
    lists and cache): nothing under /etc is written, and the script checks
    that /etc/apt is unchanged afterwards."""
    dl = os.path.join(work, "download")
    orig = sorted(glob.glob(os.path.join(dl, "llvm-toolchain-19_*.orig.tar.*")))
    if orig:
        return orig[0]
    before = etc_apt_digest()
    apt = os.path.join(work, "apt")
    os.makedirs(os.path.join(apt, "lists", "partial"), exist_ok=True)
    os.makedirs(os.path.join(apt, "cache", "archives", "partial"),
                exist_ok=True)
    lines = source_lines()
    if not lines:
        sys.exit("run.py: --fetch: no Debian archive in /etc/apt to take the "
                 "source package from; pass --llvm-src DIR instead")
    sources = os.path.join(apt, "sources.list")
    with open(sources, "w") as f:
        f.write("\n".join(lines) + "\n")
    opts = ["-o", f"Dir::Etc::SourceList={sources}",
            "-o", "Dir::Etc::SourceParts=" + os.path.join(apt, "none"),
            "-o", "Dir::State::Lists=" + os.path.join(apt, "lists"),
            "-o", "Dir::Cache=" + os.path.join(apt, "cache")]
    log(f"+ apt-get update with {sources} (private lists under {apt})")
    subprocess.run(["apt-get", *opts, "update", "-qq"], check=True)
    os.makedirs(dl, exist_ok=True)
    subprocess.run(["apt-get", *opts, "source", "--download-only", "-qq",
                    "llvm-toolchain-19"], cwd=dl, check=True)
    if etc_apt_digest() != before:
        sys.exit("run.py: --fetch changed /etc/apt (it must not); please "
                 "report this")
    log("+ /etc/apt unchanged")
    orig = sorted(glob.glob(os.path.join(dl, "llvm-toolchain-19_*.orig.tar.*")))
    if not orig:
        sys.exit("run.py: no llvm-toolchain-19 orig tarball was downloaded")
    return orig[0]


def unpack(work, subdir, extra=()):
    """SUBDIR of LLVM's source (downloaded first if need be) under
    WORK/llvm-src; its path."""
    dest = os.path.join(work, "llvm-src")
    path = os.path.join(dest, subdir)
    if os.path.isdir(path):
        return path
    orig = download(work)
    os.makedirs(dest, exist_ok=True)
    log(f"+ unpacking {subdir} from {os.path.basename(orig)}")
    subprocess.run(["tar", "-xf", orig, "-C", dest, "--strip-components=1",
                    "--wildcards", f"*/{subdir}/*", *extra], check=True)
    return path


def fetch(work):
    """The libomp tests: openmp/runtime/test of LLVM's source."""
    return unpack(work, "openmp/runtime/test",
                  ["*/openmp/runtime/src/kmp_platform.h"])


def fetch_offload(work):
    """LLVM's offload OMPT tests: offload/test/ompt of LLVM's source."""
    return unpack(work, "offload/test/ompt")


def build_offload_tests(test, levels, build_bin, bindir):
    """LLVM's offload OMPT tests built for host offload at each level: the
    programs (each with "gpu": whether it REQUIRES a GPU in LLVM's suite)
    and the ones that did not build."""
    programs, failed_build = [], []
    os.makedirs(bindir, exist_ok=True)
    for src in sorted(glob.glob(os.path.join(test, "*.c"))):
        name = os.path.basename(src)
        gpu = bool(re.search(r"//\s*REQUIRES:\s*gpu", open(src).read()))
        for level in levels:
            exe = os.path.join(bindir, name + level + ".exe")
            cmd = [os.path.join(build_bin, "otter-clang"), "-fopenmp",
                   "-fopenmp-targets=x86_64-unknown-linux-gnu", level,
                   "-Dompt_start_tool=otter_peer_test_own_start_tool",
                   "-Wno-everything", "-I", test, src, "-o", exe]
            if subprocess.run(cmd, capture_output=True).returncode != 0:
                failed_build.append(f"{name} {level}")
                continue
            programs.append({"program": f"{name} {level}" +
                             (" (REQUIRES: gpu)" if gpu else ""),
                             "exe": exe, "env": {}, "args": [], "src": src,
                             "gpu": gpu})
    return programs, failed_build


def run_one(cmd, env, timeout, cwd):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True,
                           timeout=timeout)
        return {"rc": p.returncode, "out": p.stdout, "err": p.stderr,
                "hang": False, "time": time.monotonic() - t0}
    except subprocess.TimeoutExpired as e:
        return {"rc": None, "out": e.stdout or b"", "err": e.stderr or b"",
                "hang": True, "time": timeout}


def verdict(plain, traced):
    """What changed under the tracer ('' when nothing did)."""
    if traced["hang"] and not plain["hang"]:
        return "hang"
    if traced["rc"] is not None and traced["rc"] < 0 and \
            (plain["rc"] is None or plain["rc"] >= 0):
        return f"crash (signal {-traced['rc']})"
    if plain["hang"]:
        return ""  # the program's own hang: not comparable
    if traced["rc"] != plain["rc"]:
        return f"exit status {plain['rc']} -> {traced['rc']}"
    if traced["out"] != plain["out"]:
        return "output changed"
    return ""


def otter_lines(err):
    return [l for l in err.decode(errors="replace").splitlines()
            if l.startswith("otter")]


# A libomp test's RUN lines, the forms this script runs: compile (C or C++)
# then run, with environment assignments; anything else is skipped.
RUN_RE = re.compile(r"//\s*RUN:\s*(.*)$")


def plan(src):
    """The runs of a libomp test: a list of environments (one per RUN line
    of a form this script runs: `%libomp-[cxx-]compile-and-run`, or
    `[%libomp-compile && ][env A=B ...] %libomp-run`), and whether it is
    C++; (None, why) when none is."""
    text = open(src, errors="replace").read()
    if re.search(r"//\s*(XFAIL|REQUIRES)\s*:", text):
        return None, "REQUIRES/XFAIL"
    lines = [m.group(1).strip() for line in text.splitlines()
             for m in [RUN_RE.match(line.strip())] if m]
    if not lines:
        return None, "no RUN line"
    cxx, runs = None, []
    for l in lines:
        if re.search(r"\bnot\b|\|", l):
            return None, "expects a failure or pipes"
        m = re.fullmatch(r"%libomp-(cxx-)?compile-and-run", l)
        if m:
            cxx = bool(m.group(1)) if cxx is None else cxx
            runs.append({})
            continue
        m = re.fullmatch(r"(?:%libomp-(cxx-)?compile\s*&&\s*)?(?:env\s+)?"
                         r"((?:[A-Z_0-9]+=\S*\s+)*)%libomp-run", l)
        if m:
            if m.group(1) is not None or "compile" in l:
                cxx = bool(m.group(1)) if cxx is None else cxx
            runs.append(dict((k, v.strip("'\"")) for k, v in
                             (a.split("=", 1) for a in m.group(2).split())))
            continue
        if re.fullmatch(r"%libomp-(cxx-)?compile", l):
            cxx = bool(re.search("cxx", l)) if cxx is None else cxx
            continue
        # Other forms (extra flags, other compilers): not run.
    if not runs or cxx is None:
        return None, "other RUN form"
    return {"cxx": cxx, "runs": runs}, ""


def compare_shared_locations(test, plugin):
    """Each call site's directive with and without shared locations (-O0)."""
    srcs = sorted(glob.glob(os.path.join(test, "**", "*.c"), recursive=True) +
                  glob.glob(os.path.join(test, "**", "*.cpp"), recursive=True))
    site = re.compile(r"^otter: site ('[^']*') in .* -> (.*)$")
    at = re.compile(r"^otter: site '[^']*' in .* at (\S+) -> '[^']*' at (\S+)$")
    src_dir = os.path.join(os.path.dirname(test), "src")

    def compile_sites(src, extra):
        cc = "clang++-19" if src.endswith(".cpp") else "clang-19"
        cmd = [cc, "-fopenmp", "-O0", "-c", src, "-o", os.devnull, "-w",
               "-D_GNU_SOURCE", "-I", test, "-I", os.path.join(test, "ompt"),
               "-I", os.path.dirname(src), "-I", src_dir,
               f"-fplugin={plugin}", "-fplugin-arg-otter-verbose"] + extra
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            return None
        lines = p.stderr.splitlines()
        return ([site.sub(r"\1 -> \2", l) for l in lines if site.match(l)],
                [l for l in lines if l.startswith("otter:") and
                 not l.startswith(("otter: directive ", "otter: site "))],
                sum(1 for l in lines
                    if (m := at.match(l)) and m.group(1) != m.group(2)))

    compared = sites = shared = 0
    skipped, differ = [], []
    for src in srcs:
        name = os.path.relpath(src, test)
        a = compile_sites(src, [])
        b = compile_sites(src, ["-gline-tables-only"])
        if a is None or b is None:
            skipped.append(name)
            continue
        compared += 1
        sites += len(a[0])
        shared += a[2]
        if a[:2] != b[:2]:
            differ.append(name)
            log(f"DIFFERENT  {name}")
    log(f"{len(srcs)} programs: {compared} compiled, {len(skipped)} did not "
        f"compile; {sites} call sites, {shared} placed at a shared location; "
        f"{len(differ)} with another directive or warning than without "
        "sharing")
    return 1 if differ else 0


def libomp_sources(test, dirs):
    srcs = []
    for d in dirs:
        if not os.path.isdir(os.path.join(test, d)):
            sys.exit(f"run.py: --dirs: no directory {d} in {test} "
                     "(LLVM 19 names: " + ", ".join(sorted(
                         e for e in os.listdir(test)
                         if os.path.isdir(os.path.join(test, e)))) + ")")
        srcs += sorted(glob.glob(os.path.join(test, d, "**", "*.c"),
                                 recursive=True))
        srcs += sorted(glob.glob(os.path.join(test, d, "**", "*.cpp"),
                                 recursive=True))
    return srcs


def build_libomp_tests(test, dirs, levels, plugin, bindir, limit):
    """The runnable libomp tests, built with the plugin at each level:
    (programs, skipped reasons, programs that did not build)."""
    programs, skipped, failed_build = [], {}, []
    os.makedirs(bindir, exist_ok=True)
    for src in libomp_sources(test, dirs):
        name = os.path.relpath(src, test)
        how, why = plan(src)
        if not how:
            skipped[why] = skipped.get(why, 0) + 1
            continue
        cc = "clang++-19" if how["cxx"] else "clang-19"
        if not shutil.which(cc):
            cc = cc.replace("-19", "")
        for level in levels:
            exe = os.path.join(bindir, name.replace("/", "__") + level + ".exe")
            cmd = [cc, "-fopenmp", level, f"-fplugin={plugin}",
                   "-Wno-everything", "-I", test, "-I", os.path.dirname(src),
                   src, "-o", exe, "-lm", "-lpthread"]
            if subprocess.run(cmd, capture_output=True).returncode != 0:
                failed_build.append(f"{name} {level}")
                continue
            for env in how["runs"]:
                label = f"{name} {level}" + ("" if not env else " [" + " ".join(
                    f"{k}={v}" for k, v in env.items()) + "]")
                programs.append({"program": label, "exe": exe, "env": env,
                                 "args": [], "src": src})
        if limit and len(programs) >= limit:
            break
    return programs, skipped, failed_build


# Untraced reruns of a program whose traced output differed, to tell a
# program with output of its own that varies from a change under OTTER.
UNTRACED_RERUNS = 4


def run_program(prog, a, base_env, lib, build_bin):
    """One program untraced and traced; the traced run's outputs checked."""
    env = dict(base_env)
    env.update(prog["env"])
    cwd = os.path.join(a.run_dir, "cwd")
    os.makedirs(cwd, exist_ok=True)
    cmd = [prog["exe"]] + prog["args"]
    plain = run_one(cmd, env, a.timeout, cwd)
    tenv = dict(env)
    tenv["OMP_TOOL_LIBRARIES"] = lib
    tenv["OTTER_GRAPH_FORMAT"] = "all"
    out = os.path.join(a.run_dir, "out",
                       re.sub(r"[^A-Za-z0-9_.=-]+", "_", prog["program"]))
    tenv["OTTER_OUTPUT_DIR"] = out
    traced = run_one(cmd, tenv, a.timeout, cwd)
    v = verdict(plain, traced)
    nondet = False
    order_only = False
    if v == "output changed":
        # Many print addresses or thread numbers, or print from several
        # threads in a racy order: when another untraced run differs from
        # the first too (up to UNTRACED_RERUNS runs, or one that gives the
        # traced output itself), the output is not comparable.
        for _ in range(UNTRACED_RERUNS):
            again = run_one(cmd, env, a.timeout, cwd)
            if again["out"] != plain["out"]:
                v, nondet = "", True
                break
        # The same lines in another order: a race in the program's own
        # printing that the untraced reruns did not happen to show. Counted
        # and listed apart ("order only"), not as a change.
        if v and sorted(traced["out"].splitlines()) == \
                sorted(plain["out"].splitlines()):
            v, order_only = "", True
    own = "" if plain["rc"] == 0 else (
        "hangs untraced" if plain["hang"] else f"exits {plain['rc']} untraced")
    r = {"program": prog["program"], "verdict": v, "untraced_rc": plain["rc"],
         "traced_rc": traced["rc"], "untraced_s": round(plain["time"], 2),
         "traced_s": round(traced["time"], 2), "own": own,
         "nondeterministic": nondet, "order_only": order_only, "otter": otter_lines(traced["err"])[:3],
         "direct_kmpc": checks.calls_kmpc_directly(prog.get("src", "")),
         "problems": []}
    if not traced["hang"] and (traced["rc"] is None or traced["rc"] >= 0):
        c = checks.check_outputs(out, build_bin, max(120, a.timeout))
        r.update({k: c[k] for k in ("nodes", "exact", "problems")})
        r["unlabelled"] = c["unlabelled"][:5]
    if not a.keep:
        shutil.rmtree(out, ignore_errors=True)
    return r


def summarize(results, failed_build, skipped, a):
    def count(pred):
        return sum(1 for r in results if pred(r))
    problems = [p for r in results for p in r["problems"]]
    return {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "command": " ".join(sys.argv),
        "work_dir": a.run_dir,
        "programs": len(results),
        "changed": count(lambda r: r["verdict"]),
        "crashes": count(lambda r: r["verdict"].startswith("crash")),
        "hangs": count(lambda r: r["verdict"] == "hang"),
        "exit_status_changed": count(lambda r: r["verdict"].startswith("exit")),
        "output_changed": count(lambda r: r["verdict"] == "output changed"),
        "failing_untraced": count(lambda r: r["own"]),
        "nondeterministic_output": count(lambda r: r["nondeterministic"]),
        "output_order_only": count(lambda r: r.get("order_only")),
        "unbalanced": sum(p.startswith(("archive", "trace checks", "no trace"))
                          for p in problems),
        "rebuild_differs": sum(p.startswith("graph rebuilt") for p in problems),
        "with_unlabelled_nodes": sum("without a label" in p for p in problems),
        "labels": checks.label_summary(results),
        "not_built": failed_build,
        "skipped": skipped,
    }


def print_summary(s, results):
    lab = s["labels"]
    print(f"{s['programs']} programs run untraced and traced: "
          f"{s['crashes']} crashes, {s['hangs']} hangs, "
          f"{s['exit_status_changed']} changed exit status, "
          f"{s['output_changed']} changed output under OTTER "
          f"({s['nondeterministic_output']} whose output differs between "
          "untraced runs too, not compared; "
          f"{s['output_order_only']} with the same lines in another order, "
          "a race in the program's own printing: listed below); "
          f"{s['failing_untraced']} fail or hang untraced too "
          f"(the program's or libomp's own); {len(s['not_built'])} did not "
          f"build; skipped: {s['skipped'] or 'none'}")
    print(f"traces: {s['unbalanced']} unbalanced or unreadable, "
          f"{s['rebuild_differs']} whose graph rebuilt from the trace differs "
          f"from the live one; {s['with_unlabelled_nodes']} graphs with "
          "unlabelled nodes")
    print(f"labels: {lab['exact_percent_all']} % of {lab['nodes']} nodes "
          f"exact; {lab['exact_percent_without_direct_kmpc']} % without the "
          f"{len(lab['direct_kmpc_programs'])} programs that call __kmpc_* "
          "themselves (" + (", ".join(lab["direct_kmpc_programs"]) or "none")
          + ")")
    for r in results:
        if r.get("order_only"):
            print(f"  {r['program']}: output lines in another order "
                  "(the same lines; not counted as a change)")
        if r["verdict"] or r["problems"]:
            print(f"  {r['program']}: "
                  + "; ".join(filter(None, [r["verdict"]] + r["problems"]))
                  + (f"; {' | '.join(r['otter'])}" if r["otter"] else ""))


def parse_args():
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fetch", action="store_true")
    ap.add_argument("--llvm-src")
    ap.add_argument("--exe-dir")
    ap.add_argument("--build-dir", default=os.path.join(REPO, "build"))
    ap.add_argument("--work-dir", default="/tmp/otter-peers")
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--dirs", default=",".join(DEFAULT_DIRS))
    ap.add_argument("--opt", default="-O0,-O2")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--shared-locations", action="store_true")
    ap.add_argument("--compile-sweep", action="store_true")
    ap.add_argument("--runaway", type=float, default=0)
    ap.add_argument("--offload", action="store_true")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("args", nargs="*")
    return ap.parse_args()


def llvm_test_dir(a):
    test = a.llvm_src or (fetch(a.work_dir) if a.fetch else None)
    if not test:
        sys.exit("run.py: give --fetch, --llvm-src DIR or --exe-dir DIR")
    if os.path.isdir(os.path.join(test, "openmp", "runtime", "test")):
        test = os.path.join(test, "openmp", "runtime", "test")
    return test


def run_compile_sweep(a, plugin):
    test = llvm_test_dir(a)
    root = os.path.dirname(os.path.dirname(os.path.dirname(test)))
    clang_tests = os.path.join(root, "clang", "test", "OpenMP")
    if not os.path.isdir(clang_tests):
        if not a.fetch:
            sys.exit(f"run.py: --compile-sweep: no {clang_tests} (give "
                     "--fetch to unpack it)")
        clang_tests = unpack(a.work_dir, "clang/test/OpenMP")
    srcs = [s for s in libomp_sources(test, sorted(
        e for e in os.listdir(test) if os.path.isdir(os.path.join(test, e))))]
    srcs += sorted(glob.glob(os.path.join(clang_tests, "*.c")) +
                   glob.glob(os.path.join(clang_tests, "*.cpp")))
    r = checks.compile_sweep(srcs, plugin, a.j, max(120, a.timeout), a.limit)
    c = r["counts"]
    print(f"{r['sources']} sources (libomp tests, clang/test/OpenMP) x "
          f"{len(r['levels'])} levels ({', '.join(r['levels'])}) = "
          f"{r['compiles']} compiles with the plugin in {r['seconds']} s: "
          f"{c.get('crash', 0)} compiler crashes, {c.get('hang', 0)} hangs, "
          f"{c.get('plugin-only error', 0)} errors only with the plugin; "
          f"{c.get('crash without the plugin too', 0)} clang crashes "
          "without the plugin too (clang's own); "
          f"{c.get('ok', 0)} compiled, {c.get('error', 0)} failed without "
          f"the plugin too; {c.get('not compilable', 0)} sources do not "
          "compile as they stand (-fsyntax-only without the plugin: "
          "-verify tests, missing -D), not swept")
    for p in r["problems"]:
        print(f"  {p['what']}: {p['command']}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
                       "command": " ".join(sys.argv), "sweep": r}, f, indent=1)
    return 1 if r["problems"] else 0


def main():
    a = parse_args()
    build = os.path.abspath(a.build_dir)
    lib = os.path.join(build, "lib", "libotter.so")
    plugin = os.path.join(build, "lib", "otter.so")
    build_bin = os.path.join(build, "bin")
    for f in (lib, plugin):
        if not os.path.exists(f):
            sys.exit(f"run.py: no {f}: build OTTER first (or --build-dir)")
    if a.shared_locations:
        return compare_shared_locations(llvm_test_dir(a), plugin)
    if a.compile_sweep:
        return run_compile_sweep(a, plugin)
    # A fresh directory per run (binaries, outputs): nothing of an earlier
    # run, or of another OTTER build, can stand in for this one's.
    os.makedirs(a.work_dir, exist_ok=True)
    a.run_dir = os.path.join(a.work_dir, time.strftime("run-%Y%m%d-%H%M%S")
                             + f"-{os.getpid()}")
    os.makedirs(a.run_dir)
    log(f"+ work directory {a.run_dir}")
    if a.runaway:
        r = checks.runaway(a.run_dir, lib, plugin, build_bin, a.runaway)
        print(f"runaway while(1) program, SIGTERM after {r['seconds']:.0f} s: "
              f"{r['ended']}; trace {r['trace_bytes'] / (1 << 20):.0f} MiB, "
              f"default limit {r['default_limit_bytes'] / (1 << 20):.0f} MiB; "
              f"balance checked in {r['check_seconds']} s; problems: "
              + ("; ".join(r["problems"]) or "none"))
        if a.json:
            with open(a.json, "w") as f:
                json.dump(r, f, indent=1)
        return 1 if r["problems"] else 0
    base_env = dict(os.environ)
    for v in ("OMP_TOOL_LIBRARIES", "OTTER_OUTPUT_DIR", "OMP_TOOL",
              "OTTER_GRAPH_FORMAT"):
        base_env.pop(v, None)
    failed_build, skipped = [], {}
    if a.exe_dir:
        programs = [{"program": os.path.relpath(os.path.join(root, f),
                                                a.exe_dir),
                     "exe": os.path.join(root, f), "env": {}, "args": a.args}
                    for root, _, files in os.walk(a.exe_dir)
                    for f in sorted(files)
                    if os.access(os.path.join(root, f), os.X_OK)
                    and not f.endswith((".sh", ".py"))]
    elif a.offload:
        test = a.llvm_src and os.path.join(a.llvm_src, "offload", "test",
                                           "ompt")
        if not test or not os.path.isdir(test):
            if not a.fetch:
                sys.exit("run.py: --offload: give --fetch, or --llvm-src DIR "
                         "with offload/test/ompt")
            test = fetch_offload(a.work_dir)
        # The program needs libomptarget, in LLVM's library directory.
        llvm_lib = subprocess.run(["llvm-config-19", "--libdir"],
                                  capture_output=True, text=True).stdout.strip()
        base_env["LD_LIBRARY_PATH"] = ":".join(filter(None, [
            base_env.get("LD_LIBRARY_PATH"), llvm_lib or "/usr/lib/llvm-19/lib"]))
        programs, failed_build = build_offload_tests(
            test, a.opt.split(","), build_bin, os.path.join(a.run_dir, "bin"))
        skipped = {}
    else:
        programs, skipped, failed_build = build_libomp_tests(
            llvm_test_dir(a), a.dirs.split(","), a.opt.split(","), plugin,
            os.path.join(a.run_dir, "bin"), a.limit)
    if not programs:
        sys.exit("run.py: no program to run" + (
            f" ({len(failed_build)} did not build, e.g. {failed_build[0]})"
            if failed_build else ""))
    results = []
    for i, prog in enumerate(programs):
        r = run_program(prog, a, base_env, lib, build_bin)
        results.append(r)
        log(f"[{i + 1}/{len(programs)}] {r['program']}: "
            f"{r['verdict'] or 'same'}"
            f"{' (' + r['own'] + ')' if r['own'] else ''}"
            f"{'; ' + '; '.join(r['problems']) if r['problems'] else ''}")
    summary = summarize(results, failed_build, skipped, a)
    if a.offload:
        summary["offload_requires_gpu"] = sum(
            1 for p in programs if p.get("gpu"))
        print(f"offload: {len(programs)} builds of LLVM's offload OMPT tests "
              f"for host offload, {summary['offload_requires_gpu']} of them "
              "of tests that REQUIRE a GPU in LLVM's suite (their own "
              "CHECK lines)")
    print_summary(summary, results)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "results": results}, f, indent=1)
    bad = summary["changed"] or summary["unbalanced"] or \
        summary["rebuild_differs"] or summary["with_unlabelled_nodes"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
