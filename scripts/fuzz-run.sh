#!/usr/bin/env bash
# fuzz-run.sh BIN_DIR WORK_DIR SECONDS [RUNS] [TARGET...]: runs prebuilt libFuzzer targets
# (tessel-fuzz-<target> in BIN_DIR; default all three: tileir gpupipeline runargs), each on a
# corpus in WORK_DIR/<target>/corpus seeded with the lit suite's inputs, for at most SECONDS
# and, when RUNS is given and not 0, RUNS inputs in all. TESSEL_FUZZ_JOBS=N (default 1) runs N
# libFuzzer processes per target on the shared corpus (-jobs=N -workers=N), each for RUNS/N
# inputs. TESSEL_FUZZ_SEED=N fixes libFuzzer's seed (with RUNS and one process, a repeatable
# run: the test suite's). TESSEL_FUZZ_TIMEOUT=S (default 20) is libFuzzer's per-input limit, in
# wall-clock seconds: raise it for a campaign that shares its cores with other work (a niced
# campaign starved by a build reported inputs of 0.4-1.8 s as 20-s timeouts). Needs no build
# tree: scripts/fuzz.sh builds and calls it, and a machine with more cores runs the copied
# binaries with it. Prints per target the inputs executed (the sum of
# each process's stat::number_of_executed_units) and whether anything crashed; exits non-zero
# when a target left a crash-*, leak-*, timeout-* or oom-* input or a sanitizer report other
# than MLIR 19's known parser crashes (tools/tessel-fuzz/open/upstream-parser-crashes.txt).
set -euo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-allow_user_poisoning=0:detect_leaks=0:quarantine_size_mb=8:malloc_context_size=5}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$(realpath "$1")
work=$(realpath -m "$2") # the runs cd into it
seconds=$3
runs=${4:-0}
shift $(($# < 4 ? $# : 4))
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(tileir gpupipeline runargs)
jobs=${TESSEL_FUZZ_JOBS:-1}
rc=0
for t in "${targets[@]}"; do
  dir=$work/$t
  corpus=$dir/corpus
  mkdir -p "$corpus"
  if [[ $t == runargs ]]; then
    # Seeds: the lit suite's tessel-run command lines (FuzzRunArgs.cpp reads one per input).
    grep -rhoE "tessel-run(-gpu)? [^|]*" "$root/test" --include='*.test' | sed -E 's/^[^ ]+ //' |
      while IFS= read -r line; do
        printf '%s\n' "$line" > "$corpus/$(printf '%s' "$line" | sha1sum | cut -c1-12)"
      done
  else
    # Seeds: the lit inputs (the GPU target prefixes a byte choosing the target).
    while IFS= read -r f; do
      if [[ $t == gpupipeline ]]; then
        for b in 0 1 2 3 4; do { printf "\\x0$b"; cat "$f"; } > "$corpus/$(basename "$f").$b"; done
      else
        cp "$f" "$corpus/"
      fi
    done < <(find "$root/test" -name '*.mlir' -size -16k)
  fi
  flags=(-max_total_time="$seconds" -max_len=16384 -timeout="${TESSEL_FUZZ_TIMEOUT:-20}"
         -rss_limit_mb=4096 -print_final_stats=1)
  [[ $t == runargs ]] && flags+=(-close_fd_mask=3)
  [[ $runs -gt 0 ]] && flags+=(-runs=$(((runs + jobs - 1) / jobs)))
  [[ -n ${TESSEL_FUZZ_SEED:-} ]] && flags+=(-seed="$TESSEL_FUZZ_SEED")
  rm -f "$dir"/fuzz-*.log "$dir"/log "$dir"/parser-crash-*
  echo "fuzz: tessel-fuzz-$t, $jobs process(es), ${seconds}s$([[ $runs -gt 0 ]] && echo ", $runs inputs")"
  start=$(date +%s)
  if [[ $jobs -gt 1 ]]; then
    # libFuzzer writes each job's output to fuzz-<job>.log in the working directory.
    (cd "$dir" && "$bin/tessel-fuzz-$t" corpus -jobs="$jobs" -workers="$jobs" "${flags[@]}" \
       > log 2>&1) || rc=1
    logs=("$dir"/fuzz-*.log)
  else
    (cd "$dir" && "$bin/tessel-fuzz-$t" corpus "${flags[@]}" > log 2>&1) || rc=1
    logs=("$dir/log")
  fi
  executed=$(grep -h "stat::number_of_executed_units" "${logs[@]}" | awk '{s += $2} END {print s + 0}')
  # Children that crashed in the parser (tools/tessel-fuzz/ParseInChild.h) leave
  # parser-crash-* and their sanitizer report; only MLIR's own known crashes may be among them.
  found=$(find "$dir" -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  parser=$(find "$dir" -maxdepth 1 -name 'parser-crash-*' | wc -l)
  summaries=$( (grep -hE "^SUMMARY: |runtime error:" "${logs[@]}" || true) | sort | uniq -c)
  unknown=$( (grep -hE "^SUMMARY: |runtime error:" "${logs[@]}" || true) |
    (grep -vEf <(grep -v '^#' "$root/tools/tessel-fuzz/open/upstream-parser-crashes.txt") || true) | wc -l)
  echo "fuzz: tessel-fuzz-$t: $executed inputs in $(($(date +%s) - start)) s, $(ls "$corpus" | wc -l) in the corpus, $found crash/leak/timeout/oom inputs, $parser parser-crash inputs, $unknown reports not of MLIR 19's known parser crashes"
  [[ -n $summaries ]] && echo "$summaries" | cut -c1-300
  if [[ $found -gt 0 || $unknown -gt 0 || $executed -eq 0 ]]; then
    echo "fuzz: tessel-fuzz-$t FAIL"
    rc=1
    grep -hE "ERROR|runtime error|#[0-9]+ 0x" "${logs[@]}" | head -20
  else
    echo "fuzz: tessel-fuzz-$t PASS"
  fi
done
exit $rc
