#!/usr/bin/env python3
"""Checks `otter simulate --json` of a host offload run against the target
regions of its trace (docs/offload.md, "Simulate"). For FileCheck: one
line per check, "yes" or "NO".

usage: simulate-check.py sync|nowait DUMP SIM_JSON

DUMP: `otter dump DIR --kind target_begin,target_end,task_create,
task_schedule` (times in ns). D: the longest target region, its
target_end's time less its target_begin's.
Both modes: the replay took the regions' time (device_ns: their sum, as
the trace has them), and no prediction is below D (a device's region is
never shortened, nor divided among host cores). sync: the kernel's
threads are not host work (work_ns, the host work replayed, stays below
D: the host plugin ran the kernel on several threads, and the analyses'
work counts them). nowait: the host work (work_ns) overlaps the target
task on its device: H, the time of the host tasks created after the
target task (from their start to their completion), could overlap it;
on one core the prediction stays below D + work - min(D, H) / 2 (at
least half of that overlap), where running one after the other would
take D + work.
"""
import json
import re
import sys

EV = re.compile(r"^\s*(\d+)\s+(target_begin|target_end|task_create|"
                r"task_schedule)\s+(.*)$")


def main():
    mode, dump, sim = sys.argv[1:4]
    begins, regions = {}, []
    after_target, started, host = False, {}, 0
    created = set()
    for line in open(dump):
        m = EV.match(line)
        if not m:
            continue
        t, kind = int(m.group(1)), m.group(2)
        f = dict(kv.split("=", 1) for kv in m.group(3).split() if "=" in kv)
        if kind == "task_create":
            if "target" in f["flags"].split("|"):
                after_target = True
            elif after_target:
                created.add(f["child"])
        elif kind == "task_schedule":
            if f["status"] == "complete" and f["prior"] in started:
                host += t - started.pop(f["prior"])
            elif f["next"] in created:
                started[f["next"]] = t
        elif kind == "target_begin":
            begins[f["task"]] = t
        elif f["task"] in begins:
            regions.append(t - begins.pop(f["task"]))
    print(f"target regions: {len(regions)}")
    if not regions:
        sys.exit(1)
    d = max(regions)
    sim = json.load(open(sim))
    yes = lambda b: "yes" if b else "NO"
    print(f"target_regions: {sim['target_regions']}")
    print("device_ns is the regions' time: " +
          yes(sim["device_ns"] == sum(regions)))
    for p in sim["points"]:
        print(f"{p['cores']} cores: predicted >= the region's duration: " +
              yes(p["predicted_ns"] >= d))
    work = sim["work_ns"]
    if mode == "sync":
        print("the kernel's threads are not host work: " + yes(work < d))
    else:
        one = next(p["predicted_ns"] for p in sim["points"]
                   if p["cores"] == 1)
        print("1 core: the host tasks overlap the nowait target: " +
              yes(host > 0 and one <= d + work - min(d, host) / 2) +
              f" (predicted {one} ns, target {d} ns, host work {work} ns, "
              f"host tasks after the target {host} ns)")


if __name__ == "__main__":
    main()
