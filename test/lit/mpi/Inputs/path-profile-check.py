"""Checks `otter parallelism --json` on test/lit/mpi/path-profile.c's job:
the critical-path profile agrees with the critical path printed beside it
(per call path, the steps' time summed: the brute force), its shares add
up to the whole path, every imbalance is the time on the path minus the
mean per rank, and it names the slow rank's task (positive imbalance) and
the MPI_Recv the path crossed at (0 ns on the path, rank 0's wait there).

usage: path-profile-check.py PARALLELISM.json SOURCE.c"""
import json
import sys

doc = json.load(open(sys.argv[1]))
src = open(sys.argv[2]).read().splitlines()


def check(cond, what):
    if not cond:
        sys.exit("path-profile-check: " + what)


def line_of(text):
    """The 1-based line of the source's first line that contains text."""
    for i, s in enumerate(src):
        if text in s:
            return i + 1
    sys.exit("path-profile-check: no line with %r" % text)


prof = doc.get("critical_path_profile")
check(prof is not None, "no critical_path_profile")
check(prof["ranks"] == 2, "ranks %s" % prof["ranks"])
rows = prof["rows"]
path = doc["critical_path"]


def key(x):
    return (x["kind"], x["file"], x["line"], x.get("function", ""))


brute = {}
for s in path:
    brute[key(s)] = brute.get(key(s), 0) + s["ns"]
check(sum(s["ns"] for s in path) == prof["path_ns"],
      "path_ns %d, the path's steps %d" % (prof["path_ns"],
                                           sum(s["ns"] for s in path)))
check({key(r): r["path_ns"] for r in rows} == brute,
      "rows %s != the path's %s" % ({key(r): r["path_ns"] for r in rows},
                                    brute))
check(abs(sum(r["share"] for r in rows) - 1) < 1e-3, "shares do not add up")
check([r["path_ns"] for r in rows] ==
      sorted((r["path_ns"] for r in rows), reverse=True),
      "rows not by time on the path")
for r in rows:
    check(abs(r["path_ns"] - r["mean_ns"] - r["imbalance_ns"]) <= 1,
          "imbalance of %s" % (key(r),))

task_line = line_of("#pragma omp task")
task = [r for r in rows if r["kind"] == "task" and r["line"] == task_line]
check(len(task) == 1, "no row for the task at line %d" % task_line)
check(task[0]["path_ns"] > 550e6, "task on path %d" % task[0]["path_ns"])
check(task[0]["imbalance_ns"] > 0, "task imbalance %d" % task[0]["imbalance_ns"])
check(task == rows[:1], "the task is not the first row")

recv_line = line_of("MPI_Recv(&x, 1, MPI_INT, 1, 0,")
recv = [r for r in rows if r.get("function") == "MPI_Recv" and
        r["line"] == recv_line]
check(len(recv) == 1, "no row for the MPI_Recv at line %d" % recv_line)
check(recv[0]["path_ns"] == 0, "MPI_Recv on path %d" % recv[0]["path_ns"])
check(recv[0]["mean_mpi_ns"] > 100e6,
      "MPI_Recv's mean wait %d" % recv[0]["mean_mpi_ns"])
print("path-profile-check: ok (%d call paths)" % len(rows))
