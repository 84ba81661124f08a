#!/usr/bin/env bash
# Compile time of tesselc from a cached generator (the kernel file's shared object) to tile IR,
# for softmax: one variant (bf16, BLOCK 4096, num_warps 8) and the whole softmax.cpp
# (2 kernels x 3 dtypes x their configs). Runs each RUNS times (default 20) after one warm-up
# run that fills the cache, and prints the median and the minimum wall time.
#   benchmarks/tesselc_compile_time.sh [RUNS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tesselc=${TESSELC:-$root/build/bin/tesselc}
runs=${1:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TESSEL_CACHE_DIR=$work/cache
unset TESSEL_ALWAYS_COMPILE

measure() { # label, tesselc arguments...
  local label=$1; shift
  "$tesselc" "$@" -o "$work/out" # warm-up: builds and caches the generator
  local times=()
  for ((i = 0; i < runs; i++)); do
    local t0 t1
    t0=$(date +%s%N)
    "$tesselc" "$@" -o "$work/out"
    t1=$(date +%s%N)
    times+=($(( (t1 - t0) / 1000 )))
  done
  local sorted
  sorted=($(printf '%s\n' "${times[@]}" | sort -n))
  local n=${#sorted[@]}
  local median
  if (( n % 2 )); then median=${sorted[n / 2]}; else median=$(( (sorted[n / 2 - 1] + sorted[n / 2]) / 2 )); fi
  awk -v l="$label" -v m="$median" -v lo="${sorted[0]}" -v n="$n" \
    'BEGIN { printf "%-44s median %6.1f ms   min %6.1f ms   (%d runs)\n", l, m / 1000, lo / 1000, n }'
}

softmax=$root/dsl/kernels/softmax.cpp
measure "softmax, 1 variant (bf16, BLOCK 4096)" "$softmax" -k softmax --dtype=bf16 \
  -DBLOCK=4096 -Dnum_warps=8
variants=$("$tesselc" "$softmax" --list | grep -c '__')
measure "softmax.cpp, all $variants variants" "$softmax"
