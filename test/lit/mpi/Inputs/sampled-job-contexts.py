#!/usr/bin/env python3
"""sampled-job-contexts.py JOB

The job's OTF2 archive (JOB/trace) holds as many CallingContextSample
records as the ranks' own archives (JOB/rank-N/trace) together, and every
one of them names a calling context the job's definitions hold (otf2-print
shows an undefined one as INVALID).
"""
import glob
import subprocess
import sys


def samples(archive):
    out = subprocess.run(["otf2-print", archive], capture_output=True,
                         text=True, check=True).stdout
    rows = [l for l in out.splitlines()
            if l.startswith("CALLING_CONTEXT_SAMPLE")]
    undefined = sum("Calling Context: INVALID" in l or
                    "Interrupt Generator: INVALID" in l for l in rows)
    return len(rows), undefined


job = sys.argv[1]
n, undefined = samples(job + "/trace/traces.otf2")
ranks = sum(samples(a)[0]
            for a in glob.glob(job + "/rank-*/trace/traces.otf2"))
print("samples %d, the ranks' %d, undefined contexts %d" % (n, ranks, undefined))
print("equal" if n == ranks and n > 0 else "differ")
