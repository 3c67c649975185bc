#!/usr/bin/env python3
"""sampled-job-sums.py JOB.json RANK0.json RANK1.json

`otter profile --json` of a job and of each of its ranks: the job's
samples, total time, threads and time in MPI calls are the sums of the
ranks' (1 when equal),
its rank count the number of ranks given, and each rank's own function
(rank0Work, rank1Work) is in the job's profile and in its rank's only.
"""
import json
import sys

job = json.load(open(sys.argv[1]))
ranks = [json.load(open(p)) for p in sys.argv[2:]]


def same(key):
    return int(job[key] == sum(r[key] for r in ranks))


def functions(p):
    return {f["name"] for f in p["functions"]}


print("samples %d total_ns %d threads %d mpi_ns %d ranks %d" %
      (same("samples"), same("total_ns"), same("threads"), same("mpi_ns"),
       job["ranks"]))
where = []
for name in ("rank0Work", "rank1Work"):
    owners = [i for i, r in enumerate(ranks) if name in functions(r)]
    if name not in functions(job):
        where.append(name + " not in the job")
    else:
        where.append(name + " only in rank " + ",".join(map(str, owners)))
print(", ".join(where))
