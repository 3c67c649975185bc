#!/usr/bin/env python3
"""Prints the device tracks of a Perfetto export (otter export --format
perfetto, docs/offload.md), for FileCheck: "track NAME" per device track,
then each device slice in time order, "TRACK: NAME bytes=N", then
"flows: N, M to a device slice from a host thread" (an offload flow's
start on an OpenMP thread, its end on a device track at a slice's begin).

usage: perfetto-device.py EXPORT.json
"""
import json
import sys


def main():
    with open(sys.argv[1]) as f:
        events = json.load(f)["traceEvents"]
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    devices = {k for k, v in names.items() if v.startswith("device ")}
    for k in sorted(devices, key=lambda k: names[k]):
        print("track", names[k])
    slices = sorted((e for e in events if e.get("cat") == "device"),
                    key=lambda e: e["ts"])
    starts = set()
    for e in slices:
        print("%s: %s bytes=%d" % (names.get((e["pid"], e["tid"]), "?"),
                                   e["name"], e["args"]["bytes"]))
        starts.add((e["pid"], e["tid"], e["ts"]))
    begin = {e["id"]: e for e in events
             if e.get("cat") == "offload" and e.get("ph") == "s"}
    ok = 0
    for e in events:
        if e.get("cat") == "offload" and e.get("ph") == "f":
            s = begin.get(e["id"])
            if (s and (e["pid"], e["tid"]) in devices
                    and (e["pid"], e["tid"], e["ts"]) in starts
                    and names.get((s["pid"], s["tid"]), "").startswith(
                        "OpenMP thread")):
                ok += 1
    print("flows: %d, %d to a device slice from a host thread" %
          (len(begin), ok))


main()
