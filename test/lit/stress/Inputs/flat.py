#!/usr/bin/env python3
"""flat.py SMALL LARGE LIMIT_KIB: the peak RSS in file LARGE (KiB, from
maxrss.py) exceeds the one in SMALL by at most LIMIT_KIB. Prints both."""
import sys

small = int(open(sys.argv[1]).read())
large = int(open(sys.argv[2]).read())
limit = int(sys.argv[3])
print(f"peak RSS {small} KiB -> {large} KiB (+{large - small})")
sys.exit(0 if large - small <= limit else 1)
