#!/usr/bin/env python3
"""Compile time and .text size of a generated many-directive source, with and
without the OTTER plugin.

usage: measure.py [--plugin build/lib/otter.so] [--clang clang-19]
                  [--funcs 200] [--reps 5] [--opt -O2]
Prints both measurements and the ratios (targets, issue 11: compile
<= 1.15x at -O0 and <= 1.05x at -O2; .text <= 1.05x). Times are the minimum CPU time (user+sys) of --reps runs of `clang -c`.
"""
import argparse, os, resource, subprocess, sys, tempfile, time

def text_size(obj):
    out = subprocess.run(["llvm-readelf-19", "-S", "-W", obj], check=True,
                         capture_output=True, text=True).stdout
    total = 0
    for line in out.splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) > 6 and parts[1].startswith(".text"):
            total += int(parts[5], 16)
    return total

def compile_min(cmd, reps):
    best = None
    for _ in range(reps):
        # CPU time (user+sys) of the compiler: robust against a loaded machine
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True)
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        dt = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
        best = dt if best is None else min(best, dt)
    return best

def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("--plugin", default=os.path.join(here, "..", "..", "build", "lib", "otter.so"))
    ap.add_argument("--clang", default="clang-19")
    ap.add_argument("--funcs", type=int, default=200)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--opt", default="-O2")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, "many.c")
        with open(src, "w") as f:
            subprocess.run([sys.executable, os.path.join(here, "gen.py"), str(a.funcs)],
                           stdout=f, check=True)
        directives = sum(l.startswith("#pragma omp") for l in open(src))
        base = [a.clang, "-fopenmp", a.opt, "-c", src]
        plain_o, otter_o = os.path.join(d, "plain.o"), os.path.join(d, "otter.o")
        cmds = {"plain": base + ["-o", plain_o],
                "otter": base + ["-fplugin=" + a.plugin, "-o", otter_o]}
        # interleave to even out machine noise
        times = {"plain": None, "otter": None}
        for _ in range(a.reps):
            for k in ("plain", "otter"):
                t = compile_min(cmds[k], 1)
                times[k] = t if times[k] is None else min(times[k], t)
        tp, to = text_size(plain_o), text_size(otter_o)
        print(f"source: {directives} directives ({a.funcs} functions), {a.opt}")
        target = "1.15" if a.opt == "-O0" else "1.05"
        print(f"compile time: plain {times['plain']:.3f}s  otter {times['otter']:.3f}s  "
              f"ratio {times['otter'] / times['plain']:.3f} (target <= {target})")
        print(f".text size:   plain {tp} B  otter {to} B  ratio {to / tp:.3f} (target <= 1.05)")
    return 0

if __name__ == "__main__":
    sys.exit(main())
