# Runs an MPI job in the background, ends its launcher with SIGTERM once the
# program has made the file READY, and waits until every rank's graph is
# written (the ranks' writers may outlive the launcher: docs/mpi.md).
# Usage: sh term-job.sh READY RANKS DIR LAUNCHER-COMMAND...
ready=$1 ranks=$2 dir=$3
shift 3
rm -f "$ready"
"$@" > "$dir.out" 2> "$dir.err" &
pid=$!
i=0
while [ ! -e "$ready" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
# The launcher itself (timeout, which runs it, would signal its whole
# process group, ranks included, and so race with the launcher).
pkill -TERM -P $pid || kill -TERM $pid
wait $pid
echo "launcher ended: $?" >> "$dir.out"
i=0
while [ $i -lt 600 ]; do
  n=0
  for r in $(seq 0 $((ranks - 1))); do
    [ -s "$dir/rank-$r/graph.gv" ] && n=$((n + 1))
  done
  [ $n -eq "$ranks" ] && break
  sleep 0.1
  i=$((i + 1))
done
# Let the last writer finish its files.
sleep 1
