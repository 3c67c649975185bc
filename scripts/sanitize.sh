#!/usr/bin/env bash
# OTTER's sanitizer runs, each in its own build dir. Ends with
# "N passed, M failed". See docs/reliability.md.
#
#   scripts/sanitize.sh [asan]   the whole test suite (unit + lit, through
#       ctest) on an ASan+UBSan build of OTTER's runtime, plugin and
#       utilities (build-asan/). The sanitizer runtime is linked shared and
#       LD_PRELOADed into the test programs by test/lit.cfg.py (they, libomp
#       and clang are not instrumented).
#   scripts/sanitize.sh tsan     the unit tests of concurrent recording and
#       flushing (recorder, sinks and the graph ingest behind them, the
#       background ingest queue, the nodes table fed during the walk, the
#       walk's index on two threads, filter stage, trace writer, the sampling
#       ring written by a signal handler while another thread drains it) on a TSan
#       build (build-tsan/, only the unit test program is built).
#
# A finding fails the run: the instrumented code aborts (or, TSan, exits
# non-zero), and any report written under <build>/sanitizer-logs (even by a
# step a test expects to fail) counts as one more failure.
#   OTTER_ASAN_BUILD_DIR / OTTER_TSAN_BUILD_DIR  the build dirs
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-asan}"
jobs="$(nproc 2>/dev/null || echo 2)"
case "$mode" in
  asan)
    build="${OTTER_ASAN_BUILD_DIR:-$repo/build-asan}"
    sanitize=address,undefined
    target=all
    select=() ;;
  tsan)
    build="${OTTER_TSAN_BUILD_DIR:-$repo/build-tsan}"
    sanitize=thread
    target=otter_unit_tests
    # The suites that run threads recording, flushing and consuming at once
    # (the other unit tests are single-threaded: nothing for TSan to see).
    select=(-R '^(RecorderTest|RecorderIngestQueue|Sinks|FilterTest|Trace|Writers|Builder|BuilderNodeFeed|BuilderIndex|SampleRing|Sampler)\.') ;;
  *) echo "usage: $0 [asan|tsan]" >&2; echo "0 passed, 1 failed"; exit 1 ;;
esac

# -Werror stays off here: clang-19 with Debian 12's libstdc++ 12 warns inside
# <algorithm> (get_temporary_buffer deprecated), which is not OTTER's code;
# the regular build (scripts/test.sh) keeps -Werror.
mkdir -p "$build"
if ! cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
       -DOTTER_SANITIZE=$sanitize -DOTTER_WERROR=OFF >"$build/cmake.log" 2>&1 ||
   ! cmake --build "$build" -j "$jobs" --target "$target" >"$build/build.log" 2>&1; then
  tail -30 "$build/cmake.log" "$build/build.log" 2>/dev/null
  echo "0 passed, 1 failed"
  exit 1
fi

rm -rf "$build/sanitizer-logs"
mkdir -p "$build/sanitizer-logs"
log="$build/ctest.log"
# The unit tests run outside lit: they are instrumented executables (the
# runtime is linked first), and keep leak checking on.
# TSan: reports to files as well (counted below), suppressions justified in
# test/sanitize/tsan.supp.
(cd "$build" && UBSAN_OPTIONS=print_stacktrace=1 \
   LSAN_OPTIONS="suppressions=$repo/test/sanitize/lsan.supp" \
   TSAN_OPTIONS="suppressions=$repo/test/sanitize/tsan.supp:log_path=$build/sanitizer-logs/tsan" \
   ctest --output-on-failure -j "$jobs" "${select[@]}" 2>&1) | tee "$log"
status=${PIPESTATUS[0]}
total=$(sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\2/p' "$log" | tail -1)
failed=$(sed -n 's/.*tests passed, \([0-9]*\) tests\{0,1\} failed out of \([0-9]*\).*/\1/p' "$log" | tail -1)
if [ -z "$total" ]; then echo "0 passed, 1 failed"; exit 1; fi
reports=$(find "$build/sanitizer-logs" -type f | wc -l)
if [ "$reports" -gt 0 ]; then
  echo "sanitizer reports in $build/sanitizer-logs:"
  for f in "$build"/sanitizer-logs/*; do echo "== $f"; head -40 "$f"; done
  failed=$((failed + 1)); total=$((total + 1)); status=1
fi
echo "$((total - failed)) passed, $failed failed"
exit $status
