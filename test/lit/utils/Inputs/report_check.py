#!/usr/bin/env python3
"""Checks the DOM of `otter report`'s HTML as headless Chromium rendered it
(test/lit/utils/report.c):

  report_check.py DOM PARALLELISM_JSON SIMULATE_JSON SCREENSHOT LOG GRAPH
                  [annotations]

DOM: chromium --dump-dom; the JSONs: `otter parallelism --json` and `otter
simulate --json` of the same trace; SCREENSHOT: chromium --screenshot;
LOG: chromium's stderr with --enable-logging=stderr; GRAPH: full or
aggregate (which graph picture the report must hold). The graph's box
must have been fitted by the page's script: the whole graph inside the box
(data-graph within data-box, as the script measured them after load) and
filling it in one direction. annotations: the program has phases, task
labels and marks, and the report must show them.
"""
import json
import sys
from html.parser import HTMLParser

dom_file, par_file, sim_file, png_file, log_file, graph = sys.argv[1:7]
annotations = sys.argv[7:8] == ["annotations"]
par = json.load(open(par_file))
sim = json.load(open(sim_file))


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.by_id = {}      # id -> attributes
        self.text = {}       # id -> text inside (direct)
        self.stack = []
        self.body = {}
        self.svgs = []
        self.sections = []
        self.scaling = []    # (cores, data-ns) from the scaling table
        self.in_scaling = False
        self.row = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "body":
            self.body = a
        if tag == "svg":
            self.svgs.append(a)
        if tag == "section":
            self.sections.append(a.get("id"))
        if tag == "table" and a.get("id") == "scaling":
            self.in_scaling = True
        if self.in_scaling and tag == "tr":
            self.row = []
        if self.in_scaling and tag == "td":
            self.row.append(a)
        if "id" in a:
            self.by_id[a["id"]] = a
            self.text.setdefault(a["id"], "")
        self.stack.append(a.get("id"))

    def handle_endtag(self, tag):
        if self.in_scaling and tag == "tr" and self.row:
            self.scaling.append((int(self.row[0]["data-v"]),
                                 int(self.row[1]["data-ns"])))
        if tag == "table":
            self.in_scaling = False
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        for i in self.stack:
            if i:
                self.text[i] = self.text.get(i, "") + data


d = Dom()
d.feed(open(dom_file).read())
ok = True


def check(what, good, detail=""):
    global ok
    print(f"{what}: {'ok' if good else 'FAIL ' + str(detail)}")
    ok = ok and good


check("the page's script ran", d.body.get("data-ready") == "1", d.body)
check("no script error in the page",
      "hidden" in d.by_id.get("js-errors", {}) and
      not d.text.get("js-errors", "").strip(), d.text.get("js-errors"))
log = open(log_file, errors="replace").read().splitlines()
console = [l for l in log if ":CONSOLE" in l or "Uncaught" in l]
check("no console message", not console, console[:3])
for s in ("overview", "constructs", "paths", "diagnostics",
          "scalability", "graph", "timeline", "phases", "task-labels",
          "marks"):
    check(f"section {s}", s in d.sections)
# The key numbers: exactly otter parallelism's.
for k in ("work_ns", "span_ns", "burdened_span_ns", "run_ns", "threads"):
    v = d.by_id.get(k, {}).get("data-value")
    check(f"{k} = {par[k]}", v is not None and int(float(v)) == int(par[k]), v)
for k in ("parallelism", "burdened_parallelism"):
    v = d.by_id.get(k, {}).get("data-value")
    check(f"{k} = {par[k]}", v is not None and abs(float(v) - par[k]) < 1e-3, v)
data = json.loads(d.text.get("otter-data", "{}"))
check("the data block has parallelism's numbers",
      all(data.get(k) == par[k] for k in ("work_ns", "span_ns", "run_ns",
                                          "threads")), data)
# The scalability table: exactly otter simulate's predictions.
want = [(p["cores"], p["predicted_ns"]) for p in sim["points"]]
check("the scaling table is otter simulate's", d.scaling == want,
      (d.scaling, want))
check("a scalability plot",
      any(s.get("class") == "otter-scalability" for s in d.svgs))
check(f"the {graph} graph picture", f"graph-{graph}" in d.by_id,
      [k for k in d.by_id if k.startswith("graph")])
check("three pictures (scalability, graph, timeline)", len(d.svgs) >= 3,
      len(d.svgs))
# Fitted: the graph's box and the graph in it (left, top, width, height in
# px, as the script measured them after fitting).
box = d.by_id.get(f"graph-{graph}", {})
check("the graph's box was fitted", box.get("data-fitted") == "1", box)
try:
    bx, by, bw, bh = map(int, box["data-box"].split(","))
    gx, gy, gw, gh = map(int, box["data-graph"].split(","))
    inside = (gx >= bx - 2 and gy >= by - 2 and gx + gw <= bx + bw + 2 and
              gy + gh <= by + bh + 2)
    fills = gw >= 0.9 * bw - 4 or gh >= 0.9 * bh - 4
    check("the whole graph is in its box", inside, (box["data-box"],
                                                     box["data-graph"]))
    check("the graph fills its box one way", fills and gw > 0 and gh > 0,
          (box["data-box"], box["data-graph"]))
except (KeyError, ValueError) as e:
    check("the box's and graph's places", False, e)
check("the graph's legend", "graph-legend" in d.by_id)
if annotations:
    check("phases in the data block", data.get("phases", 0) > 0, data)
    check("task labels in the data block", data.get("task_labels", 0) > 0,
          data)
    check("marks in the data block", data.get("marks", 0) > 0, data)
    for t in ("phase-table", "label-table", "mark-table"):
        check(f"table {t}", t in d.by_id)
png = open(png_file, "rb").read()
check("a screenshot", png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10000,
      len(png))
sys.exit(0 if ok else 1)
