#!/usr/bin/env python3
"""check-profile.py [--folded FILE] [--json FILE|-] [--hot FUNCTION]
                    [--order C1,C2,...] [--blamed FUNCTION [--wait KIND]]
                    [--svg FILE --label TEXT...]

Checks `otter profile`'s outputs (docs/sampling.md). --folded: every line
is "frame;frame;... COUNT" (no empty frame, COUNT a whole number >= 1), no
frame of the OpenMP runtime (__kmp*, __kmpc*, ompt_*). --json: the JSON parses; its class times add
up to total_ns; every row's exclusive time is at most its inclusive time
and its classes add up to its inclusive time. --hot F: the function with
the most exclusive time is named F (or starts with "F("). --order: the
class times in that order, each strictly more than the next, the last
above zero. --blamed F: no function but main (every serial path's root) has
more blamed time than F, and F has at least a quarter of the workers' idle time (idle_ns);
with --wait KIND (barrier, lock, taskwait), a quarter of that wait's
time instead (waits.KIND.ns), and at least half of that wait is blamed. --svg: the flame graph is
well-formed XML, 1200 px wide, at most 2 MB, every box (rect) has a
title, and a box is titled by each --label TEXT (its start). Prints "ok"; exits 1 with the reason otherwise.
"""
import json
import re
import sys

RUNTIME = re.compile(r"^(__kmp|__kmpc|__ompt|ompt_|kmp_)")


def check_folded(path):
    n = 0
    with open(path) as f:
        for line in f:
            m = re.match(r"^(.+) (\d+)\n$", line)
            if not m or int(m.group(2)) < 1:
                sys.exit("not a folded line: %r" % line)
            frames = m.group(1).split(";")
            for fr in frames:
                if not fr:
                    sys.exit("an empty frame: %r" % line)
                if RUNTIME.match(fr):
                    sys.exit("a runtime frame: %r in %r" % (fr, line))
            n += 1
    if not n:
        sys.exit("no folded stacks")


def check_json(path, hot, order, blamed, wait=None):
    text = sys.stdin.read() if path == "-" else open(path).read()
    p = json.loads(text)
    if sum(p["classes"].values()) != p["total_ns"]:
        sys.exit("classes do not add up to total_ns")
    for table in ("constructs", "functions"):
        for r in p[table]:
            if r["exclusive_ns"] > r["inclusive_ns"]:
                sys.exit("exclusive above inclusive: %r" % r)
            if sum(r["classes"].values()) != r["inclusive_ns"]:
                sys.exit("classes do not add up: %r" % r)
    if hot:
        top = max(p["functions"], key=lambda r: r["exclusive_ns"])
        if top["name"] != hot and not top["name"].startswith(hot + "("):
            sys.exit("hottest function is %r, not %s" % (top["name"], hot))
    if blamed:
        most = max(r["blamed_ns"] for r in p["functions"]
                   if r["name"] != "main")
        rows = [r for r in p["functions"] if r["name"] == blamed or
                r["name"].startswith(blamed + "(")]
        if not rows or rows[0]["blamed_ns"] != most:
            sys.exit("%s is not the most blamed function (%d ns)" %
                     (blamed, most))
        top = rows[0]
        waited = p["waits"][wait]["ns"] if wait else p["idle_ns"]
        if top["blamed_ns"] * 4 < waited or not waited:
            sys.exit("%s blamed for %d of %d ns %s" %
                     (blamed, top["blamed_ns"], waited, wait or "idle"))
        if wait and p["waits"][wait]["blamed_ns"] * 2 < waited:
            sys.exit("only %d of %d ns %s wait blamed" %
                     (p["waits"][wait]["blamed_ns"], waited, wait))
    if order:
        c = p["classes"]
        for a, b in zip(order, order[1:]):
            if c[a] <= c[b]:
                sys.exit("%s (%d) not above %s (%d)" % (a, c[a], b, c[b]))
        if c[order[-1]] <= 0:
            sys.exit("no %s time" % order[-1])


def check_svg(path, labels):
    import os
    import xml.etree.ElementTree as ET
    if os.path.getsize(path) > 2 * 1024 * 1024:
        sys.exit("svg above 2 MB")
    root = ET.parse(path).getroot()
    if root.get("width") != "1200":
        sys.exit("svg width %r" % root.get("width"))
    ns = "{http://www.w3.org/2000/svg}"
    titles = []
    for g in root.iter(ns + "g"):
        t = g.find(ns + "title")
        if g.find(ns + "rect") is not None:
            if t is None:
                sys.exit("a box without a title")
            titles.append(t.text)
    for label in labels:
        if not any(t.startswith(label) for t in titles):
            sys.exit("no box titled %r" % label)


def main(argv):
    folded = js = hot = order = blamed = svg = wait = None
    labels = []
    i = 0
    while i < len(argv):
        if argv[i] == "--folded":
            folded = argv[i + 1]
        elif argv[i] == "--json":
            js = argv[i + 1]
        elif argv[i] == "--hot":
            hot = argv[i + 1]
        elif argv[i] == "--svg":
            svg = argv[i + 1]
        elif argv[i] == "--label":
            labels.append(argv[i + 1])
        elif argv[i] == "--blamed":
            blamed = argv[i + 1]
        elif argv[i] == "--wait":
            wait = argv[i + 1]
        elif argv[i] == "--order":
            order = argv[i + 1].split(",")
        else:
            sys.exit(__doc__)
        i += 2
    if folded:
        check_folded(folded)
    if js:
        check_json(js, hot, order, blamed, wait)
    if svg:
        check_svg(svg, labels)
    print("ok")


main(sys.argv[1:])
