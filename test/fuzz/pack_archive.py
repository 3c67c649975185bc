#!/usr/bin/env python3
"""Packs an OTF2 archive directory into one input of the trace_reader fuzz
target (test/fuzz/trace_reader_fuzz.cpp): for each file, its path relative
to the archive directory, a NUL, its size (uint32 little endian), its bytes.

    pack_archive.py ARCHIVE_DIR OUTPUT_FILE

ARCHIVE_DIR is the trace/ directory (holding traces.otf2) of a run.
"""
import os
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root, out = sys.argv[1], sys.argv[2]
    parts = []
    for dirpath, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root)
            data = open(path, "rb").read()
            parts.append(rel.encode() + b"\0" + struct.pack("<I", len(data)) + data)
    with open(out, "wb") as f:
        f.write(b"".join(parts))


if __name__ == "__main__":
    main()
