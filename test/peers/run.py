#!/usr/bin/env python3
"""Peer test suites under OTTER, by hand (not part of ctest or .ci/run: it
downloads a large source package). Issue 14, item 3.

LLVM's own libomp tests (openmp/runtime/test of Debian's llvm-toolchain-19
source package) are self-checking programs: each one is built with clang-19
and OTTER's plugin, then run untraced and traced (OMP_TOOL_LIBRARIES), each
with a timeout; a program whose traced run crashes, hangs, exits with
another status or prints something else than untraced is reported.

  python3 test/peers/run.py --fetch                # apt-get source, then run
  python3 test/peers/run.py --llvm-src DIR         # an unpacked source tree
  python3 test/peers/run.py --exe-dir DIR [-- ARGS...]
        # any other suite built beforehand (BOTS, KaStORS, task-bench,
        # dataracebench: not in Debian): every executable file under DIR is
        # run untraced and traced the same way, with ARGS

Options: --build-dir (OTTER's, default ./build), --work-dir (default
/tmp/otter-peers), --timeout seconds per run (default 60), --dirs (libomp
test directories, default tasking,worksharing,parallel,barrier,critical,
lock,misc_bugs,atomic,flush,master... see DEFAULT_DIRS; a directory that
does not exist is an error, not 0 programs), --limit N (first N
programs), --json FILE.

--fetch downloads `llvm-toolchain-19`'s source package with a private apt
configuration under the work directory (deb-src entries made from the
machine's own apt sources, private package lists and cache: nothing under
/etc is written, and the script checks /etc/apt is unchanged), and unpacks
only openmp/runtime/test from the original tarball.

  python3 test/peers/run.py --llvm-src DIR --shared-locations
        # no run: every program of the libomp tests (all directories) is
        # compiled at -O0 twice with the plugin, with the locations of a
        # function's directives shared (the default without -g: docs/plugin.md
        # "Shared locations at -O0") and without (-gline-tables-only); every
        # call site must get the same directive, and the plugin the same
        # warnings, in both

Exit status: 0 when no program changed under the tracer, 1 otherwise.
Standard library only.
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


def fetch(work):
    """The openmp/runtime/test directory of llvm-toolchain-19's source,
    downloaded with a private apt configuration under WORK (its own source
    list, package lists and cache): nothing under /etc is written, and the
    script checks that /etc/apt is unchanged afterwards."""
    dest = os.path.join(work, "llvm-src")
    test = os.path.join(dest, "openmp", "runtime", "test")
    if os.path.isdir(test):
        return test
    before = etc_apt_digest()
    os.makedirs(dest, exist_ok=True)
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
    dl = os.path.join(work, "download")
    os.makedirs(dl, exist_ok=True)
    subprocess.run(["apt-get", *opts, "source", "--download-only", "-qq",
                    "llvm-toolchain-19"], cwd=dl, check=True)
    orig = sorted(glob.glob(os.path.join(dl, "llvm-toolchain-19_*.orig.tar.*")))
    if not orig:
        sys.exit("run.py: no llvm-toolchain-19 orig tarball was downloaded")
    log(f"+ unpacking openmp/runtime/test from {os.path.basename(orig[0])}")
    subprocess.run(["tar", "-xf", orig[0], "-C", dest, "--strip-components=1",
                    "--wildcards", "*/openmp/runtime/test/*",
                    "*/openmp/runtime/src/kmp_platform.h"], check=True)
    if etc_apt_digest() != before:
        sys.exit("run.py: --fetch changed /etc/apt (it must not); please "
                 "report this")
    log("+ /etc/apt unchanged")
    return test


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


def main():
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
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--shared-locations", action="store_true")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    if a.shared_locations:
        test = a.llvm_src or (fetch(a.work_dir) if a.fetch else None)
        if not test:
            sys.exit("run.py: --shared-locations needs --llvm-src DIR or "
                     "--fetch")
        if os.path.isdir(os.path.join(test, "openmp", "runtime", "test")):
            test = os.path.join(test, "openmp", "runtime", "test")
        plugin = os.path.join(os.path.abspath(a.build_dir), "lib", "otter.so")
        if not os.path.exists(plugin):
            sys.exit(f"run.py: no {plugin}: build OTTER first (or --build-dir)")
        return compare_shared_locations(test, plugin)
    os.makedirs(a.work_dir, exist_ok=True)
    lib = os.path.join(os.path.abspath(a.build_dir), "lib", "libotter.so")
    plugin = os.path.join(os.path.abspath(a.build_dir), "lib", "otter.so")
    if not os.path.exists(lib):
        sys.exit(f"run.py: no {lib}: build OTTER first (or --build-dir)")
    base_env = dict(os.environ)
    for v in ("OMP_TOOL_LIBRARIES", "OTTER_OUTPUT_DIR", "OMP_TOOL"):
        base_env.pop(v, None)

    programs = []  # (name, exe, env, args)
    skipped = {}
    failed_build = []
    if a.exe_dir:
        for root, _, files in os.walk(a.exe_dir):
            for f in sorted(files):
                p = os.path.join(root, f)
                if os.access(p, os.X_OK) and not f.endswith((".sh", ".py")):
                    programs.append((os.path.relpath(p, a.exe_dir), p, {},
                                     a.args))
    else:
        test = a.llvm_src
        if a.fetch and not test:
            test = fetch(a.work_dir)
        if not test:
            sys.exit("run.py: give --fetch, --llvm-src DIR or --exe-dir DIR")
        if os.path.isdir(os.path.join(test, "openmp", "runtime", "test")):
            test = os.path.join(test, "openmp", "runtime", "test")
        bindir = os.path.join(a.work_dir, "bin")
        os.makedirs(bindir, exist_ok=True)
        srcs = []
        for d in a.dirs.split(","):
            if not os.path.isdir(os.path.join(test, d)):
                sys.exit(f"run.py: --dirs: no directory {d} in {test} "
                         "(LLVM 19 names: " + ", ".join(sorted(
                             e for e in os.listdir(test)
                             if os.path.isdir(os.path.join(test, e)))) + ")")
            srcs += sorted(glob.glob(os.path.join(test, d, "**", "*.c"),
                                     recursive=True))
            srcs += sorted(glob.glob(os.path.join(test, d, "**", "*.cpp"),
                                     recursive=True))
        for src in srcs:
            name = os.path.relpath(src, test)
            how, why = plan(src)
            if not how:
                skipped[why] = skipped.get(why, 0) + 1
                continue
            exe = os.path.join(bindir, name.replace("/", "__") + ".exe")
            cc = "clang++-19" if how["cxx"] else "clang-19"
            if not shutil.which(cc):
                cc = cc.replace("-19", "")
            cmd = [cc, "-fopenmp", f"-fplugin={plugin}", "-Wno-everything",
                   "-I", test, "-I", os.path.dirname(src), src, "-o", exe,
                   "-lm", "-lpthread"]
            fresh = os.path.exists(exe) and all(
                os.path.getmtime(exe) > os.path.getmtime(x)
                for x in (src, plugin))
            p = subprocess.run(["true"] if fresh else cmd, capture_output=True)
            if p.returncode != 0:
                failed_build.append(name)
                continue
            for env in how["runs"]:
                label = name + ("" if not env else " [" + " ".join(
                    f"{k}={v}" for k, v in env.items()) + "]")
                programs.append((label, exe, env, []))
            if a.limit and len(programs) >= a.limit:
                break

    results = []
    changed = 0
    nondet = 0
    for i, (name, exe, env_add, args) in enumerate(programs):
        env = dict(base_env)
        env.update(env_add)
        cwd = os.path.join(a.work_dir, "run")
        os.makedirs(cwd, exist_ok=True)
        plain = run_one([exe] + args, env, a.timeout, cwd)
        tenv = dict(env)
        tenv["OMP_TOOL_LIBRARIES"] = lib
        out = os.path.join(a.work_dir, "out", name.replace("/", "__"))
        shutil.rmtree(out, ignore_errors=True)
        tenv["OTTER_OUTPUT_DIR"] = out
        traced = run_one([exe] + args, tenv, a.timeout, cwd)
        v = verdict(plain, traced)
        if v == "output changed":
            # Many print addresses or thread numbers: when a second untraced
            # run differs from the first too, the output is not comparable.
            again = run_one([exe] + args, env, a.timeout, cwd)
            if again["out"] != plain["out"]:
                v = ""
                nondet += 1
        own = "" if plain["rc"] == 0 else (
            "hangs untraced" if plain["hang"] else f"exits {plain['rc']} untraced")
        r = {"program": name, "verdict": v, "untraced_rc": plain["rc"],
             "traced_rc": traced["rc"], "untraced_s": round(plain["time"], 2),
             "traced_s": round(traced["time"], 2), "own": own,
             "otter": otter_lines(traced["err"])[:3]}
        results.append(r)
        if v:
            changed += 1
        log(f"[{i + 1}/{len(programs)}] {name}: "
            f"{v or 'same'}{' (' + own + ')' if own else ''}")
    summary = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "command": " ".join(sys.argv),
        "programs": len(programs),
        "changed": changed,
        "crashes": sum(r["verdict"].startswith("crash") for r in results),
        "hangs": sum(r["verdict"] == "hang" for r in results),
        "exit_status_changed": sum(r["verdict"].startswith("exit") for r in results),
        "output_changed": sum(r["verdict"] == "output changed" for r in results),
        "failing_untraced": sum(bool(r["own"]) for r in results),
        "nondeterministic_output": nondet,
        "not_built": failed_build,
        "skipped": skipped,
    }
    print(f"{summary['programs']} programs run untraced and traced: "
          f"{summary['crashes']} crashes, {summary['hangs']} hangs, "
          f"{summary['exit_status_changed']} changed exit status, "
          f"{summary['output_changed']} changed output under OTTER "
          f"({nondet} whose output differs between untraced runs too, not "
          f"compared); "
          f"{summary['failing_untraced']} fail or hang untraced too "
          f"(the program's or libomp's own); {len(failed_build)} did not "
          f"build; skipped: {skipped or 'none'}")
    for r in results:
        if r["verdict"]:
            print(f"  {r['program']}: {r['verdict']}"
                  f"{'; ' + ' | '.join(r['otter']) if r['otter'] else ''}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "results": results}, f, indent=1)
    return 1 if changed else 0


if __name__ == "__main__":
    sys.exit(main())
