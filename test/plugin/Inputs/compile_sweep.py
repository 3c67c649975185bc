#!/usr/bin/env python3
"""Compile sweep: the plugin never crashes the compiler (issue 25, item 1).

Compiles every C and C++ source of the test suites, the benchmarks and the
examples with the plugin, at each optimisation and debug-info level given
(-O0 -g and -O2 -g by default), object files only. A compile with the plugin
that fails is compiled again without it: if that succeeds the plugin broke
the compile (a failure); if it fails too the source is not meant to compile
alone (an input that needs other files or flags) and is skipped. Any sign
of a compiler crash (a signal, clang's "PLEASE submit a bug report") fails
whatever the plain compile does.

Prints one line per failure and ends with "N passed, M failed"; exits 1 on
any failure.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys
import tempfile

# What clang prints when its frontend crashes (it then exits 1, not with
# the signal).
CRASH_SIGNS = ("PLEASE submit a bug report", "Stack dump:",
               "frontend command failed due to signal")


def sources(root, dirs):
    for d in dirs:
        for base, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if f.endswith((".c", ".cpp")):
                    yield os.path.join(base, f)


def mpi_flags():
    mpicc = shutil.which("mpicc")
    if not mpicc:
        return []
    out = subprocess.run([mpicc, "-showme:compile"], capture_output=True,
                         text=True)
    return out.stdout.split() if out.returncode == 0 else []


def compile_one(args, extra, src, levels, out_dir):
    """(source, level, message) for each failing level of one source."""
    compiler = args.clangxx if src.endswith(".cpp") else args.clang
    failures, skipped = [], 0
    for level in levels:
        obj = os.path.join(out_dir, f"{abs(hash((src, level)))}.o")
        base = [compiler, "-fopenmp", "-w", "-c", src, "-o", obj]
        base += level.split() + extra
        with_plugin = subprocess.run(base + ["-fplugin=" + args.plugin],
                                     capture_output=True, text=True,
                                     timeout=300)
        text = with_plugin.stdout + with_plugin.stderr
        if with_plugin.returncode < 0:
            failures.append((src, level, "compiler crash: signal "
                             f"{-with_plugin.returncode}"))
            continue
        if any(sign in text for sign in CRASH_SIGNS):
            crash = [l for l in text.splitlines() if "#" in l and "otter" in l]
            failures.append((src, level, "compiler crash" +
                             (": " + crash[0].strip() if crash else "")))
            continue
        if with_plugin.returncode == 0:
            continue
        plain = subprocess.run(base, capture_output=True, timeout=300)
        if plain.returncode == 0:
            first = text.strip().splitlines()[0] if text.strip() else ""
            failures.append((src, level, "fails only with the plugin: " +
                             first))
        else:
            skipped += 1
    return failures, skipped


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clang", required=True)
    p.add_argument("--clangxx", required=True)
    p.add_argument("--plugin", required=True)
    p.add_argument("--root", required=True, help="the source tree")
    p.add_argument("--dirs", default="test/lit,test/plugin,bench,examples",
                   help="comma list of folders under --root")
    p.add_argument("--levels", default="-O0 -g,-O2 -g",
                   help="comma list of flag sets, one compile each")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    args = p.parse_args()
    levels = args.levels.split(",")
    extra = ["-I" + os.path.join(args.root, "include")] + mpi_flags()
    srcs = list(sources(args.root, args.dirs.split(",")))
    failures, skipped = [], 0
    with tempfile.TemporaryDirectory() as out_dir, \
            concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for f, s in pool.map(
                lambda src: compile_one(args, extra, src, levels, out_dir),
                srcs):
            failures += f
            skipped += s
    for src, level, why in failures:
        print(f"FAIL {os.path.relpath(src, args.root)} [{level}]: {why}")
    total = len(srcs) * len(levels)
    print(f"compile sweep: {len(srcs)} sources x {len(levels)} levels, "
          f"{skipped} compiles skipped (they fail without the plugin too)")
    print(f"{total - skipped - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
