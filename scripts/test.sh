#!/usr/bin/env bash
# Sets up, builds and runs every Tessel test: the lit suite (IR, passes, lowerings, DSL, tools,
# kernel tests on the interpreter) and the GoogleTest unit tests; a full run (no lit arguments)
# then builds the libFuzzer targets with ASan + UBSan and runs each on a fixed seed for
# TESSEL_TEST_FUZZ_RUNS inputs (default 2000; 0 skips; scripts/fuzz.sh), one test per target.
# Ends with one summary line.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSEL_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh" || exit 1
"$root/scripts/build.sh" || { echo "TESSEL TESTS: build failed"; exit 1; }
log=$(mktemp)
# check-tessel (test/CMakeLists.txt) runs lit -sv on the lit suite and the unit tests; lit reads
# this script's arguments (--filter ...) from LIT_OPTS.
LIT_OPTS="${*@Q}" ninja -C "$build" check-tessel 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
# lit pads the summary's labels ("  Passed     : 97 (...)") when several categories appear.
count() { grep -E "^ *$1 *: *[0-9]+" "$log" | sed -E 's/^[^:]*: *([0-9]+).*/\1/' | awk '{s += $1} END {print s + 0}'; }
passed=$(( $(count Passed) + $(count "Expectedly Failed") ))
failed=$(( $(count Failed) + $(count "Unexpectedly Passed") + $(count Unresolved) + $(count "Timed Out") ))
unsupported=$(count Unsupported)
if [[ $# -eq 0 && ${TESSEL_TEST_FUZZ_RUNS:-2000} -gt 0 ]]; then
  TESSEL_FUZZ_SEED=1 TESSEL_FUZZ_JOBS=1 "$root/scripts/fuzz.sh" 600 "${TESSEL_TEST_FUZZ_RUNS:-2000}" \
    2>&1 | tee "$log"
  fuzz_passed=$(grep -cE "^fuzz: tessel-fuzz-[a-z]+ PASS$" "$log")
  fuzz_failed=$(grep -cE "^fuzz: tessel-fuzz-[a-z]+ FAIL$" "$log")
  [[ $((fuzz_passed + fuzz_failed)) -eq 3 ]] || fuzz_failed=$((3 - fuzz_passed)) # a build failure
  passed=$((passed + fuzz_passed))
  failed=$((failed + fuzz_failed))
fi
rm -f "$log"
extra=""; [[ $unsupported -gt 0 ]] && extra=", $unsupported unsupported (missing optional tools)"
echo "TESSEL TESTS: $passed passed, $failed failed$extra"
[[ $rc -eq 0 && $failed -eq 0 ]]
