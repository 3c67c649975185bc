"""Checks that `otter report` on an MPI job shows the MPI wait states that
`otter diagnose` finds, with the same numbers: per finding the check, the
call site, the time lost and the time lost per rank, both in the page's
data block (id "otter-data") and in the findings a reader sees.

usage: report-waits-check.py DIAGNOSE.json REPORT.html"""
import html as htmllib
import json
import re
import sys

diag = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read()


def check(cond, what):
    if not cond:
        sys.exit("report-waits-check: " + what)


# The report shows source paths relative to the directory its constructs
# share, said under its title; diagnose --json keeps them as recorded.
rel = re.search(r'<div class="muted" id="paths">Source paths relative to '
                r'([^<]*)</div>', page)
prefix = htmllib.unescape(rel.group(1)) if rel else ""


def shown_where(where):
    # A delay cost names two sites: every path in it is shown relative.
    return where.replace(prefix, "") if prefix else where


def key(f):
    return (f["check"], shown_where(f["where"]), f["lost_ns"],
            tuple((r["rank"], r["lost_ns"]) for r in f["ranks"]))


want = [key(f) for f in diag["diagnose"]["findings"] if f["kind"] == "mpi"]
check(len(want) >= 3, "diagnose found %d MPI wait states" % len(want))
checks = {w[0] for w in want}
check(checks == {"late_sender", "late_receiver", "wait_at_collective",
                 "delay_cost"},
      "checks %s" % sorted(checks))

m = re.search(r'<script type="application/json" id="otter-data">(.*?)</script>',
              page, re.S)
check(m, "no otter-data block")
data = json.loads(m.group(1))
got = [key(f) for f in data.get("mpi_waits", [])]
check(got == want, "report's mpi_waits %s != diagnose's %s" % (got, want))
# Every finding of diagnose (MPI or not) is on the page, in diagnose's
# order, with its time lost.
shown = re.findall(r'<div class="finding" data-check="([a-z_]+)" data-ns="(\d+)">'
                   r'(.*?)</div>', page, re.S)
check([(c, int(n)) for c, n, _ in shown] ==
      [(f["check"], f["lost_ns"]) for f in diag["diagnose"]["findings"]],
      "findings shown %s" % [(c, n) for c, n, _ in shown])
for (c, n, body), f in zip(shown, diag["diagnose"]["findings"]):
    check(htmllib.escape(shown_where(f["where"]), quote=False) in body,
          "%s: site %s not shown" % (c, f["where"]))
    ranks = [(int(r), int(ns)) for r, ns in
             re.findall(r'data-rank="(\d+)" data-ns="(\d+)"', body)]
    check(ranks == [(r["rank"], r["lost_ns"]) for r in f.get("ranks", [])],
          "%s at %s: ranks shown %s" % (c, f["where"], ranks))
print("report-waits-check: %d MPI wait states agree" % len(want))
