#!/usr/bin/env bash
# fuzz.sh [SECONDS [RUNS]]: builds the libFuzzer targets (tile IR, GPU pipeline, tessel-run's command
# line) with clang-19, AddressSanitizer and UndefinedBehaviorSanitizer in
# ${TESSEL_FUZZ_BUILD_DIR:-build-fuzz} and runs each for SECONDS (default 60; at most RUNS inputs) with
# fuzz-run.sh (TESSEL_FUZZ_JOBS=N: N processes per target), on a corpus seeded with the lit
# suite's inputs. A crash leaves crash-* (the input) and the run's log in
# build-fuzz/fuzz/<target>/ and exits non-zero: reduce it to a lit test. ASAN_OPTIONS defaults
# to allow_user_poisoning=0 (LLVM's allocators poison through instrumented headers memory that
# the uninstrumented MLIR code uses), detect_leaks=0 (MLIR's registries live until exit), and a
# small quarantine and allocation stack (quarantine_size_mb=8, malloc_context_size=5), which
# keep the forks of ParseInChild.h cheap. The executables link LLVM/MLIR's static archives
# (TESSEL_STATIC_LLVM), so they run on machines without LLVM: strip --strip-debug and copy them
# with the tree's test/ (the seeds) and scripts/fuzz-run.sh.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath -m "${TESSEL_FUZZ_BUILD_DIR:-$root/build-fuzz}") # the runs cd into it
seconds=${1:-60}
"$root/scripts/setup.sh"
for p in clang-19 libclang-rt-19-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=" $p"
done
if [[ -n ${missing:-} ]]; then
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
if [[ ! -f $build/build.ninja ]]; then
  CC=clang-19 CXX=clang++-19 cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DTESSEL_BUILD_FUZZERS=ON -DTESSEL_BUILD_TESTS=OFF -DTESSEL_STATIC_LLVM=ON \
    -DTESSEL_FUZZ_SANITIZERS=address,undefined >/dev/null
fi
ninja -C "$build" tessel-fuzz-tileir tessel-fuzz-gpupipeline tessel-fuzz-runargs | grep -v '^\[' || true
exec "$root/scripts/fuzz-run.sh" "$build/bin" "$build/fuzz" "$seconds" "${2:-0}"
