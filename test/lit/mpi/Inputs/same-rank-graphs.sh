#!/bin/sh
# same-rank-graphs.sh JOBDIR NRANKS: for every rank, the graph (graph.txt)
# and its MPI calls (mpi.csv) rebuilt from the rank's archive by otter-graph
# equal the ones the runtime wrote at exit. Needs OTTER_GRAPH_FORMAT with
# canon and csv for the run.
set -e
dir=$1
n=$2
r=0
while [ "$r" -lt "$n" ]; do
  otter-graph "$dir/rank-$r" -o "$dir/rebuilt-$r" --format canon,csv
  diff "$dir/rank-$r/graph.txt" "$dir/rebuilt-$r/graph.txt"
  if [ -f "$dir/rank-$r/mpi.csv" ]; then
    diff "$dir/rank-$r/mpi.csv" "$dir/rebuilt-$r/mpi.csv"
  fi
  r=$((r + 1))
done
