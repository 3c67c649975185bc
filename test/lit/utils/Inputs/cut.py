"""Cuts the largest event file of an OTF2 archive's traces/ directory in
half (inside a later chunk, when it has more than one)."""
import os
import sys

d = sys.argv[1]
files = [os.path.join(d, f) for f in os.listdir(d) if f.endswith(".evt")]
big = max(files, key=os.path.getsize)
n = os.path.getsize(big)
chunk = 4 * 2**20  # OTTER's OTF2 event chunk
assert n > 2 * chunk, f"{big}: only {n} bytes, want more than two 4 MiB chunks"
os.truncate(big, n // 2)
