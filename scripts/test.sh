#!/usr/bin/env bash
# Sets up, builds and runs every Tessel test: the lit suite (IR, passes, lowerings, DSL, tools,
# kernel tests on the interpreter) and the GoogleTest unit tests. Ends with one summary line.
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
rm -f "$log"
extra=""; [[ $unsupported -gt 0 ]] && extra=", $unsupported unsupported (missing optional tools)"
echo "TESSEL TESTS: $passed passed, $failed failed$extra"
[[ $rc -eq 0 && $failed -eq 0 ]]
