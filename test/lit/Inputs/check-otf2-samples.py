#!/usr/bin/env python3
"""check-otf2-samples.py DIR

The samples a run with OTTER_SAMPLE and the trace on wrote into its OTF2
archive (docs/trace.md, "Samples"), read back by otf2-print, are those of
DIR/samples.csv: per thread the same number, in the same order, each with
the same OpenMP state, the same call path (its calling context and the
parents' otter:sample_address properties, innermost first, equal to the
csv's stack) and a time no earlier than the csv's (the writer moves a
sample only forward, to the time of a record written before it), most of
them (at least 90 %) at exactly the csv's time. Every sample's calling
context is defined, with a region of paradigm SAMPLING, and the interrupt
generator's period is 1e9 / rate ns.

Prints "threads T samples N contexts C regions R" and "ok"; exits 1 with
the first problem otherwise.
"""
import csv
import re
import subprocess
import sys

SAMPLE = re.compile(r'^CALLING_CONTEXT_SAMPLE\s+(\d+)\s+(\d+)\s+(.*)$')
CTX_REF = re.compile(r'Calling Context: .*?<(\d+)>')
CTX_DEF = re.compile(r'^CALLING_CONTEXT\s+(\d+)\s+(.*)$')
PROP_DEF = re.compile(
    r'^CALLING_CONTEXT_PROPERTY\s+Calling Context: .*?<(\d+)>, (.*)$')
REGION_DEF = re.compile(r'^REGION\s+(\d+)\s+(.*)$')
GEN_DEF = re.compile(r'^INTERRUPT_GENERATOR\s+(\d+)\s+(.*)$')


def fail(msg):
    sys.exit("check-otf2-samples: " + msg)


def field(text, name):
    m = re.search(name + r': (?:"[^"]*" )?<?([^,>]*)>?', text)
    return m.group(1) if m else None


def main(argv):
    if len(argv) != 1:
        sys.exit(__doc__)
    d = argv[0]
    anchor = d + "/trace/traces.otf2"
    defs = subprocess.run(["otf2-print", "-G", anchor], capture_output=True,
                          text=True, check=True).stdout
    ctx_parent, ctx_region, ctx_addr, regions, period = {}, {}, {}, {}, None
    for line in defs.splitlines():
        m = CTX_DEF.match(line)
        if m:
            ref, rest = int(m.group(1)), m.group(2)
            region = re.search(r'Region: .*?<(\d+)>', rest)
            parent = re.search(r'Parent: (?:.*?<(\d+)>|UNDEFINED)', rest)
            ctx_region[ref] = int(region.group(1))
            ctx_parent[ref] = (int(parent.group(1))
                               if parent and parent.group(1) else None)
            continue
        m = PROP_DEF.match(line)
        if m and '"otter:sample_address"' in m.group(2):
            v = re.search(r'Value: (\d+)', m.group(2))
            ctx_addr[int(m.group(1))] = int(v.group(1))
            continue
        m = REGION_DEF.match(line)
        if m:
            regions[int(m.group(1))] = m.group(2)
            continue
        m = GEN_DEF.match(line)
        if m:
            p = re.search(r'Period: (\d+)', m.group(2))
            period = int(p.group(1))
    # The samples' contexts: those of the sampled functions' regions (the
    # others are the events' code addresses).
    sampled = {r for r, text in regions.items() if "SAMPLING" in text}
    for ref in [c for c, r in ctx_region.items() if r not in sampled]:
        del ctx_region[ref], ctx_parent[ref]
    if not ctx_parent:
        fail("no sample calling contexts in the definitions")
    for ref, r in ctx_region.items():
        if "otter:sampled_function" not in regions[r]:
            fail("context %d: region %d: %s" % (ref, r, regions[r]))
        if ref not in ctx_addr:
            fail("context %d has no otter:sample_address" % ref)
        if ctx_parent[ref] is not None and ctx_parent[ref] not in ctx_parent:
            fail("context %d: parent %d undefined" % (ref, ctx_parent[ref]))
    with open(d + "/sampling.csv") as f:
        rate = int(list(csv.DictReader(f))[0]["rate_hz"])
    if period != 10**9 // rate:
        fail("interrupt generator period %s, not %d" % (period, 10**9 // rate))

    events = subprocess.run(["otf2-print", anchor], capture_output=True,
                            text=True, check=True).stdout
    got = {}
    lines = events.splitlines()
    for i, line in enumerate(lines):
        m = SAMPLE.match(line)
        if not m:
            continue
        loc, t, rest = int(m.group(1)), int(m.group(2)), m.group(3)
        if i + 1 < len(lines) and "ADDITIONAL ATTRIBUTES" in lines[i + 1]:
            rest += lines[i + 1]
        ctx = int(CTX_REF.search(rest).group(1))
        path = []
        while ctx is not None:
            if ctx not in ctx_parent:
                fail("sample at %d: undefined context %d" % (t, ctx))
            if ctx_addr[ctx]:
                path.append(ctx_addr[ctx])
            ctx = ctx_parent[ctx]
        st = re.search(r'"otter:sample_state" <\d+>; UINT32; (\d+)', rest)
        got.setdefault(loc, []).append((t, int(st.group(1)) if st else None,
                                        path))
    want = {}
    with open(d + "/samples.csv", newline="") as f:
        for r in csv.DictReader(f):
            want.setdefault(int(r["thread"]), []).append(
                (int(r["time_ns"]), int(r["state"], 16),
                 [int(a, 16) for a in r["stack"].split(";") if a]))
    if sorted(got) != sorted(want):
        fail("threads in the trace %s, in samples.csv %s" %
             (sorted(got), sorted(want)))
    n = exact = 0
    for th in want:
        g, w = got[th], want[th]
        if len(g) != len(w):
            fail("thread %d: %d samples in the trace, %d in samples.csv" %
                 (th, len(g), len(w)))
        for (gt, gs, gp), (wt, ws, wp) in zip(g, w):
            if gs != ws or gp != wp:
                fail("thread %d: sample at %d differs: %s %s / %s %s" %
                     (th, wt, gs, [hex(a) for a in gp], ws,
                      [hex(a) for a in wp]))
            if gt < wt:
                fail("thread %d: sample at %d written earlier, at %d" %
                     (th, wt, gt))
            exact += gt == wt
            n += 1
    if exact < 0.9 * n:
        fail("only %d of %d samples at their own time" % (exact, n))
    print("threads %d samples %d contexts %d regions %d" %
          (len(want), n, len(ctx_parent), len(set(ctx_region.values()))))
    print("ok")


main(sys.argv[1:])
