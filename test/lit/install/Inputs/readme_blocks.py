#!/usr/bin/env python3
"""readme_blocks.py README BUILD SOURCE WORK

The README's shell blocks work as printed (issue 28). Every fenced shell
block (```sh, ```bash, ```shell, ```console) of README must be preceded by
a marker line:

    <!-- readme-test: run -->           run by this script, as printed
    <!-- readme-test: skip (reason) --> not run, and why (the set-up and
                                        test commands themselves)

A block with neither fails the check, so a new block cannot be left out
unnoticed. The run blocks run in order, in one shell each (bash -e -o
pipefail), in the directory WORK, set up as a user's checkout after the
quick start: `build` is BUILD, `examples` is SOURCE/examples, `prog.c` is
examples/tasks.c, and `other-out` is a second traced run of it (the
README's `otter diff` compares two runs). As root, Open MPI's refusal to
run is lifted through its environment variables (the README says so next
to the command).

Prints one line per block ("block at line N: ran" / "skipped: reason"),
then "N blocks: R run, S skipped, 0 failed"; exits 1 on a block without a
marker or a run block that fails (its output shown).
"""
import os
import re
import shutil
import subprocess
import sys

FENCE = re.compile(r"^```(sh|bash|shell|console)\s*$")
MARKER = re.compile(r"^<!--\s*readme-test:\s*(run|skip\s*\((.+)\))\s*-->\s*$")


def blocks(path):
    """(line of the fence, marker or None, skip reason, text) per block."""
    lines = open(path).read().splitlines()
    out, i = [], 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            m = MARKER.match(lines[j]) if j >= 0 else None
            k = i + 1
            while k < len(lines) and not lines[k].startswith("```"):
                k += 1
            out.append((i + 1, m.group(1).split()[0] if m else None,
                        (m.group(2) or "") if m else "",
                        "\n".join(lines[i + 1:k])))
            i = k + 1
        else:
            i += 1
    return out


def setup(work, build, source):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    os.symlink(build, os.path.join(work, "build"))
    os.symlink(os.path.join(source, "examples"), os.path.join(work, "examples"))
    shutil.copy(os.path.join(source, "examples", "tasks.c"),
                os.path.join(work, "prog.c"))
    env = dict(os.environ, OMP_NUM_THREADS="2")
    for v in list(env):
        if v.startswith("OTTER_") or v in ("OMP_TOOL_LIBRARIES", "OMP_TOOL"):
            del env[v]
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1",
                   OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    subprocess.run(["clang-19", "-fopenmp", "prog.c", "-o", "other"],
                   cwd=work, env=env, check=True)
    subprocess.run([os.path.join(build, "bin", "otter-run"), "-o",
                    "other-out", "./other"], cwd=work, env=env, check=True,
                   capture_output=True)
    return env


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    readme, build, source, work = (os.path.abspath(a) for a in argv)
    found = blocks(readme)
    unmarked = [b for b in found if b[1] is None]
    for line, _, _, _ in unmarked:
        print(f"block at line {line}: no '<!-- readme-test: run -->' or "
              "'<!-- readme-test: skip (why) -->' line before it")
    env = setup(work, build, source)
    ran = skipped = failed = 0
    for line, marker, why, text in found:
        if marker == "skip":
            skipped += 1
            print(f"block at line {line}: skipped: {why}")
            continue
        if marker != "run":
            continue
        p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", text],
                           cwd=work, env=env, capture_output=True, text=True)
        if p.returncode != 0:
            failed += 1
            print(f"block at line {line}: FAILED (exit {p.returncode})")
            print(text)
            print("--- output ---")
            print((p.stdout + p.stderr)[-4000:])
        else:
            ran += 1
            print(f"block at line {line}: ran")
    print(f"{len(found)} blocks: {ran} run, {skipped} skipped, "
          f"{failed + len(unmarked)} failed")
    return 1 if failed or unmarked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
