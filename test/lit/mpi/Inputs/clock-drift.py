#!/usr/bin/env python3
# The clocks of two ranks as a ping-pong sees them, from `otter export
# --format perfetto` of a job (times on the job's clock): each message's
# one-way time (receiving call's end minus sending call's begin); the skew
# between the ranks' clocks at a round trip is half the difference of its
# two one-way times, and its drift the change of the skew's median from the
# first fifth of the run to the last, per second.
# Usage: clock-drift.py JSON MAX_DRIFT_US_PER_S
import json
import statistics
import sys

events = json.load(open(sys.argv[1]))
if isinstance(events, dict):
    events = events.get("traceEvents", [])
flows = {}
for e in events:
    if e.get("cat") == "message":
        flows.setdefault(e["id"], {})[e["ph"]] = e
msgs = sorted((f["s"]["ts"], f["s"]["pid"], f["f"]["ts"] + 0.001 - f["s"]["ts"])
              for f in flows.values() if "s" in f and "f" in f)
before = sum(1 for m in msgs if m[2] <= 0)
print("messages:", len(msgs))
print("received before sent:", before)
skews = []  # (time us, skew us): a message one way, the next the other
for a, b in zip(msgs, msgs[1:]):
    if a[1] != b[1]:
        skews.append((a[0], (a[2] - b[2]) / 2 * (1 if a[1] < b[1] else -1)))
n = len(skews) // 5
if n < 10:
    print("too few round trips")
    sys.exit(1)
first, last = skews[:n], skews[-n:]
dt = (statistics.median(t for t, _ in last) -
      statistics.median(t for t, _ in first)) / 1e6
drift = (statistics.median(s for _, s in last) -
         statistics.median(s for _, s in first)) / dt
print("drift: %.3f us/s over %.1f s" % (drift, dt), file=sys.stderr)
print("drift within %s us/s: %s" % (sys.argv[2],
      "yes" if abs(drift) <= float(sys.argv[2]) else "no (%.3f)" % drift))
