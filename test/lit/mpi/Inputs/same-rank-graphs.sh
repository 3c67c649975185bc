#!/bin/sh
# same-rank-graphs.sh JOBDIR NRANKS: for every rank, the graph files
# (graph.txt, nodes.csv, graph.csv, and mpi.csv, its MPI calls) rebuilt from
# the rank's archive by otter-graph equal the ones the runtime wrote at exit
# (test/lit/Inputs/check-rebuild.sh, once per rank). Needs OTTER_GRAPH_FORMAT
# with canon and csv for the run.
set -e
here=$(dirname "$0")
dir=$1
n=$2
r=0
while [ "$r" -lt "$n" ]; do
  sh "$here/../../Inputs/check-rebuild.sh" -o "$dir/rebuilt-$r" "$dir/rank-$r"
  r=$((r + 1))
done
