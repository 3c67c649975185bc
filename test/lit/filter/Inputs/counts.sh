#!/bin/sh
# counts.sh GRAPH_TXT: how many nodes of each kind a canonical graph has, one
# "kind count" line per kind, sorted (the filter tests compare them).
awk '$1 ~ /^n[0-9]+$/ { c[$2]++ } END { for (k in c) print k, c[k] }' "$1" | sort
