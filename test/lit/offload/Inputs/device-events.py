#!/usr/bin/env python3
"""Prints the regions of a trace's locations from otf2-print's output, one
a line, in each location's order (docs/trace.md, "Devices"). For FileCheck.

usage: otf2-print ARCHIVE | device-events.py ARCHIVE [--host]

Default: the device streams' regions, "LOCATION: REGION[ bytes=N]" (N: the
otter:bytes parameter at the region's begin). --host: the first OpenMP
thread's Enter and Leave records, "enter REGION" / "leave REGION".
"""
import re
import subprocess
import sys

LOCDEF = re.compile(r'^LOCATION\s+(\d+)\s+Name: "([^"]*)"')
REGION = re.compile(r'^(ENTER|LEAVE)\s+(\d+)\s+\d+\s+Region: "(.*)" <\d+>')
PARAM = re.compile(r'^PARAMETER_UINT64\s+(\d+)\s+\d+\s+'
                   r'Parameter: "otter:bytes" <\d+>, Value: (\d+)')


def main():
    archive = sys.argv[1]
    host = "--host" in sys.argv[2:]
    defs = subprocess.run(["otf2-print", "-G", archive], capture_output=True,
                          text=True, check=True).stdout
    names = {}
    for line in defs.splitlines():
        m = LOCDEF.match(line)
        if m:
            names[m.group(1)] = m.group(2)
    out = {}
    order = []
    for line in sys.stdin:
        m = REGION.match(line)
        if m:
            loc = names.get(m.group(2), m.group(2))
            if host and loc == "OpenMP thread 0":
                out.setdefault(loc, []).append(
                    "%s %s" % (m.group(1).lower(), m.group(3)))
            elif not host and loc.startswith("device ") and m.group(1) == "ENTER":
                out.setdefault(loc, []).append("%s: %s" % (loc, m.group(3)))
            if loc not in order:
                order.append(loc)
            continue
        m = PARAM.match(line)
        if m and not host:
            loc = names.get(m.group(1), m.group(1))
            if out.get(loc):
                out[loc][-1] += " bytes=" + m.group(2)
    for loc in order:
        for line in out.get(loc, []):
            print(line)


main()
