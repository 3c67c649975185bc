#!/usr/bin/env python3
"""check-samples.py [--order C1,C2,...] [--min N] DIR

Reads DIR/samples.csv (the samples a run with OTTER_SAMPLE wrote,
docs/sampling.md) and checks it: every row has the header's columns, a
known state class, a weight of at least 1, at least one frame, and a
region (the task's construct) that is 0 exactly when its kind is empty,
and of kind parallel or task otherwise. With
--order, the sample counts (the sums of their weights: timer periods) of
the state classes named must be in that order, each strictly more than
the next, and the last one at least --min (default 5). Prints one line per
class, "CLASS COUNT", then "ok"; exits 1 with the reason otherwise.
"""
import csv
import sys

CLASSES = ["work", "barrier", "taskwait", "lock", "idle", "overhead", "other"]


def main(argv):
    order, minimum, args = None, 5, []
    i = 0
    while i < len(argv):
        if argv[i] == "--order":
            order = argv[i + 1].split(",")
            i += 2
        elif argv[i] == "--min":
            minimum = int(argv[i + 1])
            i += 2
        else:
            args.append(argv[i])
            i += 1
    if len(args) != 1:
        sys.exit(__doc__)
    counts = {c: 0 for c in CLASSES}
    with open(args[0] + "/samples.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for r in rows:
        if r["class"] not in counts:
            sys.exit("unknown state class: %r" % r)
        if not r["stack"]:
            sys.exit("a sample without frames: %r" % r)
        if int(r["weight"]) < 1:
            sys.exit("a sample of weight < 1: %r" % r)
        if (int(r["region"], 16) == 0) != (r["region_kind"] == "") or \
                r["region_kind"] not in ("", "parallel", "task"):
            sys.exit("a sample's region and its kind disagree: %r" % r)
        counts[r["class"]] += int(r["weight"])
    for c in CLASSES:
        print(c, counts[c])
    if not rows:
        sys.exit("no samples")
    if order:
        for a, b in zip(order, order[1:]):
            if counts[a] <= counts[b]:
                sys.exit("%s (%d) not above %s (%d)" %
                         (a, counts[a], b, counts[b]))
        if counts[order[-1]] < minimum:
            sys.exit("%s: %d samples, fewer than %d" %
                     (order[-1], counts[order[-1]], minimum))
    print("ok")


main(sys.argv[1:])
