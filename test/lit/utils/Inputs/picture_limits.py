#!/usr/bin/env python3
"""Checks that every SVG picture in the given files (an .svg file, or the
<svg> elements inlined in an .html report) is within the limits OTTER's
pictures keep (docs/utils.md, "otter picture"): at most 20,000 pt tall and
wide, at most 2 MB (2,000,000 bytes) of SVG.

  picture_limits.py [--min-nodes N --pictured OUTPUT] FILE...

--pictured OUTPUT: `otter picture`'s output; with --min-nodes N, the full
graph it names ("the full graph (2,239 nodes, ...") has at least N nodes.
"""
import re
import sys

MAX_PT, MAX_BYTES = 20000, 2000000


def length_pt(value):
    m = re.match(r"\s*([0-9.]+)\s*(pt|px)?\s*$", value or "")
    if not m:
        return None
    v = float(m.group(1))
    return v if m.group(2) == "pt" else v * 0.75  # CSS px: 0.75 pt


def svgs(text):
    """(attributes of the root tag, its bytes) of each top-level <svg>."""
    pos = 0
    while True:
        start = text.find("<svg", pos)
        if start < 0:
            return
        end = text.find("</svg>", start)
        if end < 0:
            end = len(text)
        tag = text[start:text.find(">", start) + 1]
        attrs = dict(re.findall(r'\s([\w:-]+)="([^"]*)"', tag))
        yield attrs, len(text[start:end + 6].encode())
        pos = end + 6


args = sys.argv[1:]
ok = True
min_nodes, pictured = 0, None
while args and args[0].startswith("--"):
    if args[0] == "--min-nodes":
        min_nodes = int(args[1])
    elif args[0] == "--pictured":
        pictured = args[1]
    args = args[2:]
if pictured:
    out = open(pictured).read()
    m = re.search(r"the full graph \(([0-9,]+) nodes", out)
    nodes = int(m.group(1).replace(",", "")) if m else 0
    good = nodes >= min_nodes
    print(f"full graph of {nodes} nodes (at least {min_nodes}): "
          f"{'ok' if good else 'FAIL'}")
    ok = ok and good
for name in args:
    text = open(name, encoding="utf-8", errors="replace").read()
    found = 0
    for attrs, size in svgs(text):
        found += 1
        w, h = length_pt(attrs.get("width")), length_pt(attrs.get("height"))
        good = size <= MAX_BYTES and (w is None or w <= MAX_PT) and \
            (h is None or h <= MAX_PT)
        print(f"{name} svg {found}: {size} bytes, {w} x {h} pt: "
              f"{'ok' if good else 'FAIL'}")
        ok = ok and good
    if not found:
        print(f"{name}: no svg: FAIL")
        ok = False
sys.exit(0 if ok else 1)
