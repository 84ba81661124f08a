#!/usr/bin/env bash
# fuzz.sh [SECONDS]: builds the libFuzzer targets (tile IR, GPU pipeline, tessel-run's command
# line) with clang-19 and UndefinedBehaviorSanitizer
# (CMakeLists.txt says why not ASan by default) in ${TESSEL_FUZZ_BUILD_DIR:-build-fuzz} and runs
# each for SECONDS (default 60) on a corpus seeded with the lit suite's .mlir inputs. A crash
# leaves crash-* (the input) and the run's log in build-fuzz/fuzz/<target>/ and exits non-zero:
# reduce it to a lit test. For ASan too, configure the build directory with
# -DTESSEL_FUZZ_SANITIZERS=address,undefined first; ASAN_OPTIONS then defaults to
# allow_user_poisoning=0 (LLVM's allocators poison through instrumented headers memory that the
# uninstrumented libMLIR uses) and detect_leaks=0 (MLIR's registries live until exit), and to a
# small quarantine and allocation stack (quarantine_size_mb=8, malloc_context_size=5): each
# input forks a child (tools/tessel-fuzz/ParseInChild.h), and a smaller heap to copy makes the
# tile-IR target 2.5x faster (18 -> 47 inputs/s on 2 cores) at a shorter use-after-free window.
set -euo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:quarantine_size_mb=8:malloc_context_size=5}
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
# The shared libMLIR/libLLVM, as before TESSEL_STATIC_LLVM: the sanitizer notes above were
# worked out with them, and the fuzz build has not been tried with the static archives.
if [[ ! -f $build/build.ninja ]]; then
  CC=clang-19 CXX=clang++-19 cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release \
    -DTESSEL_BUILD_FUZZERS=ON -DTESSEL_BUILD_TESTS=OFF -DTESSEL_STATIC_LLVM=OFF >/dev/null
fi
ninja -C "$build" tessel-fuzz-tileir tessel-fuzz-gpupipeline tessel-fuzz-runargs | grep -v '^\[' || true
rc=0
for t in tileir gpupipeline runargs; do
  corpus=$build/fuzz/$t/corpus
  mkdir -p "$corpus"
  if [[ $t == runargs ]]; then
    # Seeds: the lit suite's tessel-run command lines (FuzzRunArgs.cpp reads one per input).
    grep -rhoE "tessel-run(-gpu)? [^|]*" "$root/test" --include='*.test' | sed -E 's/^[^ ]+ //' |
      while IFS= read -r line; do
        printf '%s\n' "$line" > "$corpus/$(printf '%s' "$line" | sha1sum | cut -c1-12)"
      done
  fi
  # Seeds: the lit inputs (the GPU target prefixes a byte choosing the target).
  [[ $t == runargs ]] || while IFS= read -r f; do
    if [[ $t == gpupipeline ]]; then
      for b in 0 1 2 3 4; do { printf "\\x0$b"; cat "$f"; } > "$corpus/$(basename "$f").$b"; done
    else
      cp "$f" "$corpus/"
    fi
  done < <(find "$root/test" -name '*.mlir' -size -16k)
  echo "fuzz: tessel-fuzz-$t for ${seconds}s"
  (cd "$build/fuzz/$t" && "$build/bin/tessel-fuzz-$t" corpus \
     -max_total_time="$seconds" -max_len=16384 -timeout=20 -rss_limit_mb=4096 \
     $([[ $t == runargs ]] && echo -close_fd_mask=3) -print_final_stats=1 > log 2>&1) || { rc=1; grep -E "ERROR|runtime error|#[0-9]+ 0x" "$build/fuzz/$t/log" | head -20; }
  tail -6 "$build/fuzz/$t/log"
done
exit $rc
