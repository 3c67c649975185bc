#!/usr/bin/env bash
# Sets up OTTER (packages + build) and runs every test: GoogleTest unit tests
# and the lit end-to-end suites, through ctest; then the same suite on an
# ASan+UBSan build, the concurrency unit tests on a TSan build, and each
# libFuzzer target for a short while (scripts/sanitize.sh, scripts/fuzz.sh;
# docs/reliability.md). Ends with one line
# "N passed, M failed" summing every part; the exit status is non-zero if
# any part failed.
#   OTTER_TEST_SANITIZERS=0  only the regular suite (quick local runs)
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
passed=$((total - failed))

# One more part: its output shown as it runs, its own closing line
# relabelled "<name>: ..." (so the last line stays the only bare summary)
# and added to the totals. A part that ends without a summary counts as one
# failure.
part() {
  local name="$1"; shift
  local plog="$build/test-$name.log" start=$SECONDS
  echo "== $name: $*"
  "$@" 2>&1 | tee "$plog" | sed -u -E "s/^([0-9]+ passed, [0-9]+ failed)\$/$name: \\1/"
  local rc=${PIPESTATUS[0]}
  local line p f
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$plog" | tail -1)
  if [ -z "$line" ]; then p=0; f=1; else
    p=${line%% passed*}; f=${line#*, }; f=${f%% failed*}
  fi
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  echo "== $name: $p passed, $f failed in $((SECONDS - start)) s"
  passed=$((passed + p)); failed=$((failed + f))
  if [ "$rc" -ne 0 ]; then status=1; fi
}
if [ "${OTTER_TEST_SANITIZERS:-1}" != 0 ]; then
  part asan bash "$repo/scripts/sanitize.sh" asan
  part tsan bash "$repo/scripts/sanitize.sh" tsan
  part fuzz bash "$repo/scripts/fuzz.sh"
fi
echo "$passed passed, $failed failed"
exit $status
