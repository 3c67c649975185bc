#!/bin/sh
# check-rebuild.sh [--format LIST] [-o OUT] [--trace TRACE] DIR
#
# The graph files that otter-graph rebuilds from the OTF2 trace in DIR (a
# run's OTTER_OUTPUT_DIR) equal, byte for byte, the ones the runtime wrote in
# DIR at exit: the trace alone holds the whole graph. Tests call it as
# %check-rebuild (test/lit.cfg.py).
#
#   --format LIST  comma list of the formats the run wrote, which are the
#                  files compared (default canon,csv): canon graph.txt;
#                  csv nodes.csv, graph.csv and mpi.csv when either side has
#                  one (the writers add it only for a graph with MPI calls);
#                  dot graph.gv; all every one
#   -o OUT         where the rebuilt files go (default DIR.rebuilt; emptied
#                  first, so files of an earlier run never stand in)
#   --trace TRACE  what otter-graph reads (default DIR): the archive
#                  directory or its traces.otf2, the other forms it accepts
#   --open         the run was cut off: regions may be left open at the end
#
# The archive is also checked for other OTF2 tools (check-trace.py: balanced
# Enter/Leave per location, otf2-print and otf2-snapshots accept it).
#
# Exits 0 when every file is equal; otherwise prints each difference (diff)
# and one "check-rebuild: ... differs" line per file, and exits 1. A bad
# argument or an otter-graph failure exits non-zero too.
set -eu

usage() {
  echo "usage: check-rebuild.sh [--format LIST] [-o OUT] [--trace TRACE] [--open] DIR" >&2
  exit 2
}

formats=canon,csv
open=
out=
trace=
dir=
while [ $# -gt 0 ]; do
  case $1 in
  --format) [ $# -ge 2 ] || usage; formats=$2; shift 2 ;;
  -o) [ $# -ge 2 ] || usage; out=$2; shift 2 ;;
  --trace) [ $# -ge 2 ] || usage; trace=$2; shift 2 ;;
  --open) open=--allow-open; shift ;;
  -*) usage ;;
  *) [ -z "$dir" ] || usage; dir=$1; shift ;;
  esac
done
[ -n "$dir" ] || usage
dir=${dir%/}
[ -n "$out" ] || out=$dir.rebuilt
[ -n "$trace" ] || trace=$dir

# The files each format names, as the runtime's writers name them
# (runtime/lib/graph/writers.cpp). An unknown name is an error, so that a typo
# cannot make the check compare nothing.
files=
csv=no
for f in $(echo "$formats" | tr ',' ' '); do
  case $f in
  canon) files="$files graph.txt" ;;
  csv) files="$files nodes.csv graph.csv"; csv=yes ;;
  dot) files="$files graph.gv" ;;
  all) files="$files graph.txt nodes.csv graph.csv graph.gv"; csv=yes ;;
  *) echo "check-rebuild: unknown format '$f' (canon, csv, dot, all)" >&2
     exit 2 ;;
  esac
done
[ -n "$files" ] || usage

rm -rf "$out"
otter-graph --format "$formats" -o "$out" "$trace"
python3 "$(dirname "$0")/check-trace.py" $open "$trace"

if [ "$csv" = yes ] && { [ -e "$dir/mpi.csv" ] || [ -e "$out/mpi.csv" ]; }; then
  files="$files mpi.csv"
fi
status=0
for f in $files; do
  if ! diff "$dir/$f" "$out/$f"; then
    echo "check-rebuild: $dir/$f differs from the one rebuilt from the trace" \
      "($out/$f)" >&2
    status=1
  fi
done
exit $status
