#!/usr/bin/env python3
# check-states.py [--expect-wait KIND]... [--report] DIR
#
# The state timeline's property on a real trace (docs/utils.md, "The state
# timeline"): `otter export --format states` of DIR against `otter dump`,
# `otter summary`, `otter diagnose` and (--report) `otter report` of it:
#  - rows sorted by thread then start, each thread's intervals adjacent and
#    non-empty, idle and tool (OTTER's own time) rows without construct or
#    task, waiting rows with a
#    construct a thread can wait in;
#  - per thread, running + waiting + scheduling + idle + tool = its wall
#    time, from its first event to its last as `otter dump` prints them;
#  - every waiting interval lies inside a wait of its task on its thread
#    that `otter dump` shows (sync_wait_begin..end, mutex_acquire..
#    acquired, mpi_call_begin..end, target_begin..end), a taskwait's
#    inside a taskwait's;
#  - the waiting per construct kind and region id is `otter summary`'s
#    wait_ns (summed over its rows of that kind and region id), and every
#    sync_wait/contention finding of `otter diagnose` loses exactly that;
#  - exclusive time over every construct + idle + tool = the thread time,
#    and the tool rows sum to `otter summary`'s tool_ns; its OpenMP idle
#    threads (idle_threads_ns) are part of the idle rows, and its causes
#    add up to it;
#  - the running time of all threads is `otter parallelism`'s work;
#  - the JSON form (--json) has the same rows, and per-thread totals equal
#    to the rows' sums;
#  - --report: the report's timeline data (its otter-data block) has, per
#    thread, the same totals per state and per construct waited in, and
#    the same bins (a character per bin: what the thread did most there)
#    as the export's rows binned here: a task waiting in its taskwait is
#    drawn waiting;
#  - --expect-wait KIND: some thread waits in KIND (e.g. taskwait).
# Prints "states: ok (N threads)" and, sorted, the construct kinds waited
# in, or each failure on a line of its own (exit status 1).
import csv
import io
import json
import os
import re
import subprocess
import sys
import tempfile

STATES = ["running", "waiting", "scheduling", "idle", "tool"]
WAITABLE = {"taskwait", "taskgroup", "barrier", "barrier_implicit",
            "critical", "lock", "nest_lock", "ordered", "mpi", "target",
            "target_enter_data", "target_exit_data", "target_update"}

failures = []


def check(what, ok):
    if not ok:
        failures.append(what)


def otter(*args):
    return subprocess.run(["otter", *args], check=True,
                          stdout=subprocess.PIPE, text=True).stdout


# The report's bin classes (utils/otter/report_timeline.cpp), in its
# order: a tie goes to the first.
CLASSES = "tiwlmv-o"


def row_class(r):
    if r["state"] == "running":
        return "t" if r["construct"] == "task" else "i"
    if r["state"] == "waiting":
        c = r["construct"]
        return ("l" if c in ("critical", "lock", "nest_lock", "ordered")
                else "m" if c == "mpi"
                else "v" if c in ("target", "target_enter_data",
                                  "target_exit_data", "target_update")
                else "w")
    return "o" if r["state"] == "tool" else "-"


def bins(rows, thread, origin, width, n):
    """The report's bin string of a thread, binned here from the export's
    rows: per bin the class with most time, if it covers 30% of it."""
    ns = [[0] * len(CLASSES) for _ in range(n)]
    for r in rows:
        if int(r["thread"]) != thread:
            continue
        s, e = int(r["start_ns"]) - origin, int(r["end_ns"]) - origin
        k = CLASSES.index(row_class(r))
        for b in range(s // width, min(n, -(-e // width))):
            ns[b][k] += min(e, (b + 1) * width) - max(s, b * width)
    out = ""
    for x in ns:
        m = max(x)
        out += "." if m < 0.3 * width else CLASSES[x.index(m)]
    return out


def main(argv):
    expect, report, args = [], False, []
    i = 0
    while i < len(argv):
        if argv[i] == "--expect-wait":
            expect.append(argv[i + 1])
            i += 2
            continue
        if argv[i] == "--report":
            report = True
        else:
            args.append(argv[i])
        i += 1
    (d,) = args

    rows = list(csv.DictReader(io.StringIO(
        otter("export", "--format", "states", "-o", "-", d))))
    check("no rows", rows)
    key = [(int(r["thread"]), int(r["start_ns"])) for r in rows]
    check("rows not sorted by thread, then start", key == sorted(key))

    per_thread = {}
    waiting = {}  # (construct, region id) -> ns
    running = {}  # (task construct, region id) -> ns
    for r in rows:
        th, s, e = int(r["thread"]), int(r["start_ns"]), int(r["end_ns"])
        st = r["state"]
        check(f"thread {th}: empty interval at {s}", e > s)
        check(f"thread {th}: unknown state {st!r}", st in STATES)
        t = per_thread.setdefault(th, {"first": s, "last": s,
                                       **{x: 0 for x in STATES},
                                       "by": {}})
        check(f"thread {th}: gap or overlap at {s} (previous end "
              f"{t['last']})", s == t["last"])
        t["last"] = e
        t[st] += e - s
        if st in ("idle", "tool"):
            check(f"thread {th}: {st} row with a task at {s}",
                  r["construct"] == "" and r["task"] == "")
        else:
            check(f"thread {th}: {st} row without a task at {s}",
                  r["task"] != "" and r["label"] != "")
        if st == "running":
            k = (r["construct"], int(r["region_id"] or 0))
            running[k] = running.get(k, 0) + e - s
        if st == "waiting":
            c = r["construct"]
            check(f"thread {th}: waiting in {c!r} at {s}", c in WAITABLE)
            t["by"][c] = t["by"].get(c, 0) + e - s
            k = (c, int(r["region_id"]))
            waiting[k] = waiting.get(k, 0) + e - s

    # Each thread's wall time: its first to its last event, and its waits:
    # sync waits, mutex acquisitions, MPI calls, as `otter dump` shows them.
    first, last, windows = {}, {}, {}
    thread, open_waits = None, {}
    begins = {"sync_wait_begin": "sync_wait_end",
              "mutex_acquire": "mutex_acquired",
              "mpi_call_begin": "mpi_call_end",
              "target_begin": "target_end"}
    for line in otter("dump", d).splitlines():
        m = re.match(r"thread (\d+)$", line)
        if m:
            thread = int(m.group(1))
            continue
        words = line.split(" ")
        t, kind = int(words[0]), words[1]
        fields = dict(w.split("=", 1) for w in words[2:] if "=" in w)
        first[thread] = min(first.get(thread, t), t)
        last[thread] = max(last.get(thread, t), t)
        if kind in begins:
            open_waits.setdefault((thread, begins[kind]), []).append(
                (t, fields.get("task", "0"), fields.get("kind", "")))
        elif (thread, kind) in open_waits and open_waits[(thread, kind)]:
            b, task, what = open_waits[(thread, kind)].pop()
            windows.setdefault(thread, []).append((b, t, task, what))
    for (th, _), rest in open_waits.items():  # never ended: to the end
        for b, task, what in rest:
            windows.setdefault(th, []).append((b, last[th], task, what))
    for r in rows:
        if r["state"] != "waiting":
            continue
        th, s, e = int(r["thread"]), int(r["start_ns"]), int(r["end_ns"])
        inside = [w for w in windows.get(th, ())
                  if w[0] <= s and e <= w[1] and w[2] in (r["task"], "0")]
        check(f"thread {th}: waiting {s}-{e} in {r['construct']} (task "
              f"{r['task']}) is in no wait of that task in otter dump",
              inside)
        if r["construct"] == "taskwait":
            check(f"thread {th}: taskwait wait {s}-{e} is in no taskwait "
                  f"wait in otter dump", any(w[3] == "taskwait"
                                             for w in inside))
    check(f"threads {sorted(per_thread)} != dump's {sorted(first)}",
          sorted(per_thread) == sorted(first))
    for th, t in per_thread.items():
        total = sum(t[x] for x in STATES)
        wall = last.get(th, 0) - first.get(th, 0)
        check(f"thread {th}: first interval at {t['first']}, first event at "
              f"{first.get(th)}", t["first"] == first.get(th))
        check(f"thread {th}: running + waiting + scheduling + idle + tool = "
              f"{total} != wall time {wall}", total == wall)

    # Waiting per construct: summary's wait_ns, diagnose's time lost.
    summary = {}
    for c in json.loads(otter("summary", "--json", d))["constructs"]:
        if c["wait_ns"]:
            k = (c["kind"], c["region_id"])
            summary[k] = summary.get(k, 0) + c["wait_ns"]
    check(f"waiting per (construct, region id): timeline {sorted(waiting.items())}"
          f" != summary {sorted(summary.items())}", waiting == summary)
    # Exclusive time per construct (summary): the timeline's running time
    # of a task construct, the waiting time of the rest; over every
    # construct, with the idle time, the thread time; shares at most 100 %.
    sj = json.loads(otter("summary", "--json", d))
    thread_ns = sum(t["last"] - t["first"] for t in per_thread.values())
    check(f"summary thread_ns {sj['thread_ns']} != timeline {thread_ns}",
          sj["thread_ns"] == thread_ns)
    exclusive = {}
    for c in sj["constructs"]:
        k = (c["kind"], c["region_id"])
        exclusive[k] = exclusive.get(k, 0) + c["exclusive_ns"]
        check(f"summary {k}: share {c['share']} over 100 %",
              0 <= c["share"] <= 1.0)
    timeline = {k: v for k, v in list(running.items()) + list(waiting.items())}
    check(f"exclusive per (construct, region id): summary "
          f"{sorted((k, v) for k, v in exclusive.items() if v)} != timeline "
          f"{sorted(timeline.items())}",
          {k: v for k, v in exclusive.items() if v} ==
          {k: v for k, v in timeline.items() if v})
    idle = sum(t["idle"] for t in per_thread.values())
    tool = sum(t["tool"] for t in per_thread.values())
    check(f"exclusive {sum(exclusive.values())} + idle {idle} + tool {tool} "
          f"!= thread time {thread_ns}",
          sum(exclusive.values()) + idle + tool == thread_ns)
    check(f"summary tool_ns {sj.get('tool_ns', 0)} != timeline {tool}",
          sj.get("tool_ns", 0) == tool)
    # OpenMP idle threads: part of the idle rows, the causes adding up.
    idle_threads = sj.get("idle_threads_ns", 0)
    check(f"summary idle_threads_ns {idle_threads} > timeline idle {idle}",
          idle_threads <= idle)
    causes = sum(c["ns"] for c in sj.get("idle_threads", []))
    check(f"idle_threads causes {causes} != idle_threads_ns {idle_threads}",
          causes == idle_threads)
    for f in json.loads(otter("diagnose", "--json", d))["findings"]:
        if f["check"] in ("sync_wait", "contention"):
            k = (f["kind"], f["region_id"])
            check(f"diagnose {f['check']} {k}: lost {f['lost_ns']} != "
                  f"timeline {waiting.get(k)}", f["lost_ns"] == waiting.get(k))

    # Work (otter parallelism) is the running time of every thread.
    work = json.loads(otter("parallelism", "--json", d))["work_ns"]
    running = sum(t["running"] for t in per_thread.values())
    check(f"parallelism's work {work} != running {running}", work == running)

    # The JSON form.
    js = json.loads(otter("export", "--format", "states", "--json", "-o", "-",
                          d))
    check("JSON rows differ from CSV rows",
          [(str(x["thread"]), str(x["start_ns"]), str(x["end_ns"]),
            x["state"], x["construct"] or "", "" if x["region_id"] is None
            else str(x["region_id"]), "" if x["task"] is None
            else str(x["task"]), x["label"] or "")
           for x in js["intervals"]] ==
          [tuple(r[c] for c in ("thread", "start_ns", "end_ns", "state",
                                "construct", "region_id", "task", "label"))
           for r in rows])
    for x in js["threads"]:
        t = per_thread.get(x["thread"], {})
        for st in STATES:
            check(f"JSON thread {x['thread']}: {st}_ns {x[st + '_ns']} != "
                  f"{t.get(st)}", x[st + "_ns"] == t.get(st))
        check(f"JSON thread {x['thread']}: wall_ns", x["wall_ns"] ==
              t.get("last", 0) - t.get("first", 0))
        check(f"JSON thread {x['thread']}: waiting_by", x["waiting_by"] ==
              t.get("by"))

    if report:
        with tempfile.TemporaryDirectory() as tmp:
            page = os.path.join(tmp, "report.html")
            otter("report", "--no-simulate", "-o", page, d)
            html = open(page).read()
        m = re.search(r'<script type="application/json" id="otter-data">'
                      r'(.*?)</script>', html, re.S)
        check("report: no data block", m)
        tl = json.loads(m.group(1))["timeline"] if m else {"threads": []}
        for x in tl["threads"]:
            t = per_thread.get(x["thread"], {})
            for st in STATES:
                check(f"report thread {x['thread']}: {st}_ns "
                      f"{x[st + '_ns']} != {t.get(st)}",
                      x[st + "_ns"] == t.get(st))
            check(f"report thread {x['thread']}: waiting_by "
                  f"{x['waiting_by']} != {t.get('by')}",
                  x["waiting_by"] == t.get("by"))
            want = bins(rows, x["thread"], min(first.values()),
                        tl["bin_ns"], len(x["bins"]))
            check(f"report thread {x['thread']}: bins\n  {x['bins']}\n"
                  f"  binned from the export:\n  {want}", x["bins"] == want)
        check("report: a thread missing from the timeline",
              sorted(x["thread"] for x in tl["threads"]) ==
              sorted(per_thread))

    kinds = sorted({c for t in per_thread.values() for c in t["by"]})
    for k in expect:
        check(f"no thread waits in {k} (waits in: {kinds})", k in kinds)
    if failures:
        for f in failures:
            print("states: FAIL: " + f)
        return 1
    print(f"states: ok ({len(per_thread)} threads)")
    print("waiting in: " + ", ".join(kinds))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
