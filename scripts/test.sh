#!/usr/bin/env bash
# Sets up OTTER (packages + build) and runs every test: GoogleTest unit tests
# and the lit end-to-end suites, through ctest. Ends with "N passed, M failed".
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OTTER_BUILD_DIR:-$repo/build}"
bash "$repo/scripts/setup.sh" || { echo "0 passed, 1 failed"; exit 1; }

jobs="$(nproc 2>/dev/null || echo 2)"
log="$build/ctest.log"
(cd "$build" && ctest --output-on-failure -j "$jobs" 2>&1) | tee "$log"
status=${PIPESTATUS[0]}
total=$(sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
if [ -z "$total" ]; then echo "0 passed, 1 failed"; exit 1; fi
echo "$((total - failed)) passed, $failed failed"
exit $status
