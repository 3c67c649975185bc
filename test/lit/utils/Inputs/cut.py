"""Cuts the largest event file of an OTF2 archive's traces/ directory in
half (inside a later chunk, when it has more than one)."""
import os
import sys

d = sys.argv[1]
files = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".evt")]
big = max(files, key=os.path.getsize)
n = os.path.getsize(big)
assert n > 2 * 2**20, f"{big}: only {n} bytes, want more than two 1 MiB chunks"
os.truncate(big, n // 2)
