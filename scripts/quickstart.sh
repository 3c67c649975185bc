#!/usr/bin/env bash
# The quick start: set up OTTER (packages + build), compile the bundled
# example with the plugin, run it under the OTTER runtime and render its
# task graph. Prints where the results are.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OTTER_BUILD_DIR:-$repo/build}"
bash "$repo/scripts/setup.sh"

out="${1:-$repo/otter-out}"
rm -rf "$out" && mkdir -p "$out"
plugin="$build/lib/otter.so"
cc_flags=(-O2 -fopenmp)
if [ -f "$plugin" ]; then cc_flags+=("-fplugin=$plugin"); fi
clang-19 "${cc_flags[@]}" "$repo/examples/tasks.c" -o "$out/tasks"

echo "otter quickstart: running examples/tasks.c under the OTTER runtime"
OMP_TOOL_LIBRARIES="$build/lib/libotter.so" OTTER_OUTPUT_DIR="$out" \
  OMP_NUM_THREADS=2 "$out/tasks"
dot -Tsvg "$out/graph.gv" -o "$out/graph.svg"
echo
echo "otter quickstart: what the trace says (build/bin/otter summary $out)"
"$build/bin/otter" summary --top 5 "$out" || true
echo
echo "otter quickstart: results in $out"
ls -1 "$out" | sed 's/^/  /'
