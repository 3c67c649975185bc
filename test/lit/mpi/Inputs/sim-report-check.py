"""Checks test/lit/mpi/sim-report.c's outputs: the job's prediction per
core count is its slowest rank's, each rank's part equals `otter simulate`
on that rank's own archive, the job's directory and its archive give the
same answer, and the report shows the ranks and the same predicted times.

usage: sim-report-check.py JOB.json ARCHIVE.json RANK0.json RANK1.json
                           REPORT.html NOSIM.html"""
import json
import re
import sys

job, archive, r0, r1 = (json.load(open(f)) for f in sys.argv[1:5])
html = open(sys.argv[5]).read()
nosim = open(sys.argv[6]).read()


def check(cond, what):
    if not cond:
        sys.exit("sim-report-check: " + what)


def timeless(x):
    """x without its "seconds" fields: how long a replay took to run is the
    one thing two runs of the same replay may disagree on."""
    if isinstance(x, dict):
        return {k: timeless(v) for k, v in x.items() if k != "seconds"}
    if isinstance(x, list):
        return [timeless(v) for v in x]
    return x


check(timeless(job) == timeless(archive), "the job's directory and its archive differ")
check(job["job"]["ranks"] == 2, "not 2 ranks")
ranks = {r["rank"]: r for r in job["ranks"]}
check(sorted(ranks) == [0, 1], "ranks %s" % sorted(ranks))
# A rank's part of the job is the rank's own replay (same trace, same
# deterministic replay).
for k, own in ((0, r0), (1, r1)):
    part = timeless(ranks[k])
    del part["rank"]
    check(part == timeless(own), "rank %d's part differs from its own replay" % k)
pts = job["points"]
check([p["cores"] for p in pts] == [1, 2, 4], "cores")
for i, p in enumerate(pts):
    each = {k: ranks[k]["points"][i]["predicted_ns"] for k in (0, 1)}
    check(p["predicted_ns"] == max(each.values()),
          "not the slowest rank at %d cores" % p["cores"])
    check(each[p["slowest_rank"]] == p["predicted_ns"],
          "slowest rank %d is not the slowest" % p["slowest_rank"])
    check(p["simulated_ns"] == max(ranks[k]["points"][i]["simulated_ns"]
                                   for k in (0, 1)), "simulated_ns")
# One core runs every task of the slowest rank: at least its work; more
# cores are never predicted slower (the best replay on at most P cores).
check(pts[0]["predicted_ns"] >= max(r["work_ns"] for r in ranks.values()),
      "1 core below a rank's work")
check(all(a["predicted_ns"] >= b["predicted_ns"]
          for a, b in zip(pts, pts[1:])), "slower on more cores")
check(abs(pts[0]["speedup"] - 1) < 1e-3, "speedup on 1 core")
check(job["measured"]["run_ns"] == max(r["measured"]["run_ns"]
                                       for r in ranks.values()), "measured")
# The report: a section per rank, the same predicted times.
check('id="ranks"' in html and 'id="rank-0"' in html and 'id="rank-1"' in html,
      "no ranks section")
data = json.loads(re.search(
    r'<script type="application/json" id="otter-data">(.*?)</script>',
    html).group(1))
check([(p["cores"], p["predicted_ns"]) for p in data["points"]] ==
      [(p["cores"], p["predicted_ns"]) for p in pts], "report's points differ")
check(data["threads"] == 4, "the job has 4 threads, report says %d"
      % data["threads"])
# The timeline's rows grouped by rank: rank R's threads 0 and 1, in order,
# in the picture and in the data block.
rows = re.findall(r'<text x="4" y="[0-9.]+">(rank \d+ thread \d+)</text>',
                  html)
check(rows == ["rank 0 thread 0", "rank 0 thread 1", "rank 1 thread 0",
               "rank 1 thread 1"], "timeline rows %s" % rows)
check([(t["rank"], t["rank_thread"]) for t in data["timeline"]["threads"]]
      == [(0, 0), (0, 1), (1, 0), (1, 1)], "timeline data's ranks")
check("<th>rank.thread</th>" in html, "timeline totals by rank.thread")
# An MPI call site's row names its function.
constructs = re.search(r'<section id="constructs">.*?</table>', html,
                       re.S).group(0)
check("<tr><td>mpi MPI_Barrier</td>" in constructs and
      "<td>mpi</td>" not in constructs, "MPI rows without their function")
# The critical path has a rank column, and each crossing to another rank
# is a row of its own kind: as many as the heading counts (no repeated
# runs to hide one in a two-rank job of one barrier).
path = re.search(r'<h3>Critical path.*?</table>', html, re.S).group(0)
crossings = re.search(r'crossing ranks (\d+) times', path)
check(crossings and "<th>rank</th>" in path, "critical path without ranks")
check('class="repeat"' in path or
      path.count('<tr class="cross">') == int(crossings.group(1)),
      "crossing rows %d, heading %s" % (path.count('<tr class="cross">'),
                                        crossings.group(1)))
check("<td>mpi MPI_Barrier</td>" in path or "MPI_" not in path,
      "MPI steps without their function")
check("not simulated (--no-simulate)" in nosim and 'id="rank-1"' in nosim,
      "--no-simulate report")
print("ok")
