#!/usr/bin/env python3
"""maxrss.py OUT COMMAND...: runs COMMAND (stdin, stdout, stderr passed
through), writes its peak resident set size in KiB to OUT, and exits with
its status (128+N when killed by signal N, as a shell says)."""
import resource
import subprocess
import sys

p = subprocess.run(sys.argv[2:])
with open(sys.argv[1], "w") as f:
    f.write(f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}\n")
sys.exit(p.returncode if p.returncode >= 0 else 128 - p.returncode)
