#!/usr/bin/env bash
# Builds OTTER's libFuzzer targets (test/fuzz/; clang-19, -DOTTER_FUZZ=ON) in
# their own build dir (build-fuzz/, only the otter_fuzzers target) and fuzzes
# each for a while, starting from its checked-in seed corpus. A crash, leak,
# sanitizer report or timeout fails that target; its input is left in
# build-fuzz/fuzz-artifacts/<target>/ (add it to test/fuzz/regressions/
# <target>/ once fixed). Ends with "N passed, M failed" (one per target).
#   scripts/fuzz.sh [TARGET...]      default: every target
#   OTTER_FUZZ_SECONDS  time per target (default 30)
#   OTTER_FUZZ_BUILD_DIR  build dir (default <repo>/build-fuzz)
# See docs/reliability.md (e.g. fuzzing one target for 10 minutes).
set -uo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${OTTER_FUZZ_BUILD_DIR:-$repo/build-fuzz}"
secs="${OTTER_FUZZ_SECONDS:-30}"
jobs="$(nproc 2>/dev/null || echo 2)"
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$repo"/test/fuzz/corpus/*/; do targets+=("$(basename "$d")"); done
fi

mkdir -p "$build"
if ! cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
       -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
       -DOTTER_FUZZ=ON -DOTTER_WERROR=OFF >"$build/cmake.log" 2>&1 ||
   ! cmake --build "$build" -j "$jobs" --target otter_fuzzers \
       >"$build/build.log" 2>&1; then
  tail -30 "$build/cmake.log" "$build/build.log" 2>/dev/null
  echo "0 passed, 1 failed"
  exit 1
fi

passed=0 failed=0
for t in "${targets[@]}"; do
  fuzzer="$build/bin/fuzz/$t-fuzzer"
  work="$build/fuzz-work/$t"           # the corpus grows here, not in git
  art="$build/fuzz-artifacts/$t/"
  mkdir -p "$work" "$art"
  log="$build/fuzz-$t.log"
  # -timeout: one input taking this long is a finding (a hang); the
  # reader's own anchor probe gives up after 3 s. -rss_limit_mb: OTF2 must
  # not be let to reserve gigabytes for a damaged archive.
  # Leaks: the justified suppressions of the sanitizer runs (OTF2's own
  # allocations on its error paths, test/sanitize/lsan.supp).
  # allocator_may_return_null: a damaged archive may make OTF2 ask for tens
  # of GiB at once (a count read from the file); as under glibc's malloc in
  # a real run, the allocation fails and OTF2 reports an error, which the
  # reader turns into its one line (the plain build's fuzz/trace_reader
  # replay of such an input passes).
  ASAN_OPTIONS="allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
  LSAN_OPTIONS="suppressions=$repo/test/sanitize/lsan.supp" \
  "$fuzzer" "$work" "$repo/test/fuzz/corpus/$t" -max_total_time="$secs" \
    -timeout=30 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$art" >"$log" 2>&1
  rc=$?
  stats="$(grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$log" | tr '\n' ' ')"
  if [ $rc -eq 0 ]; then
    echo "PASS: fuzz/$t ($secs s): $stats"
    passed=$((passed + 1))
  else
    echo "FAIL: fuzz/$t (rc $rc), inputs in $art:"
    grep -E 'ERROR|SUMMARY|Test unit written' "$log" | head -20
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
