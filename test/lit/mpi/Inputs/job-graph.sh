#!/bin/sh
# job-graph.sh JOBDIR NRANKS: rebuilds the job's graph with otter-graph into
# JOBDIR/job (all formats) and checks that
#  - the same graph comes from the job's directory, its merged archive
#    (JOBDIR/trace) and that archive's anchor (traces.otf2);
#  - the job has NRANKS ranks, and each rank's part of the job graph
#    (graph.txt lines of r<N>.* nodes and their edges but message and
#    collective ones, the
#    names back to the rank's own n<id>) is the graph the rank wrote at exit
#    (rank-<N>/graph.txt): the job graph adds edges, it never changes a
#    rank's graph.
# The run must write canon graphs (otter-run -f all). Exits non-zero on any
# difference, after printing it.
set -eu
dir=${1%/}
n=$2
out=$dir/job
rm -rf "$out" "$out.trace" "$out.anchor"
otter-graph --format all -o "$out" "$dir" 2> "$out.err" || {
  cat "$out.err" >&2
  exit 1
}
otter-graph --format all -o "$out.trace" "$dir/trace" 2> /dev/null
otter-graph --format all -o "$out.anchor" "$dir/trace/traces.otf2" 2> /dev/null
for f in graph.txt nodes.csv graph.csv messages.csv collectives.csv graph.gv; do
  diff "$out/$f" "$out.trace/$f"
  diff "$out/$f" "$out.anchor/$f"
done
head -1 "$out/graph.txt" | grep -q "job graph v1: $n ranks," || {
  echo "job-graph: expected $n ranks: $(head -1 "$out/graph.txt")" >&2
  exit 1
}
r=0
while [ "$r" -lt "$n" ]; do
  # The rank's nodes and the edges under them that stay in the rank.
  awk -v p="r$r." '
    /^[^ ]/ { mine = index($1, p) == 1 }
    mine && /^  -> / && ($3 == "message" || $3 == "collective") { next }
    mine { print }' "$out/graph.txt" |
    sed -e "s/\br$r\.n/n/g" > "$out/rank-$r.txt"
  tail -n +2 "$dir/rank-$r/graph.txt" | diff - "$out/rank-$r.txt" || {
    echo "job-graph: rank $r's part of the job graph differs from" \
      "$dir/rank-$r/graph.txt" >&2
    exit 1
  }
  r=$((r + 1))
done
