#!/usr/bin/env bash
# compile-library.sh SRC OUT TARGET: `tesselc --target=TARGET --emit=tile,cubin` on every kernel
# file of SRC/dsl/kernels/ (every kernel, dtype, config and specialized twin, GEMM included);
# checks that each cubin is an ELF whose variant JSON holds ptxas's resource report. Prints one
# line per kernel file (variants, the most registers, variants that spill) and a summary;
# exits non-zero on the first failure.
set -euo pipefail
src=$1 out=$2 target=$3
rm -rf "$out" && mkdir -p "$out"
total=0
for f in "$src"/dsl/kernels/*.cpp; do
  k=$(basename "$f" .cpp)
  # stderr: the FMA-fallback remarks of f32 dots and the num_stages remarks (errors still fail).
  tesselc "$f" --target="$target" --emit=tile,cubin -o "$out/$k" >/dev/null 2>"$out/$k.log" ||
    { cat "$out/$k.log"; exit 1; }
  n=0 maxregs=0 spilling=0
  for json in "$out/$k"/*.json; do
    v=$(basename "$json" .json)
    if [[ $(od -A n -t x1 -N 4 "$out/$k/$v.cubin") != " 7f 45 4c 46" ]]; then
      echo "$v: no cubin"
      exit 1
    fi
    regs=$(grep -o '"registers": [0-9]*' "$json" | grep -o '[0-9]*$' || true)
    spill=$(grep -o '"spill_bytes": [0-9]*' "$json" | grep -o '[0-9]*$' || true)
    if [[ -z $regs || -z $spill ]]; then
      echo "$v: no resource report in $v.json"
      exit 1
    fi
    ((regs > maxregs)) && maxregs=$regs
    ((spill > 0)) && spilling=$((spilling + 1))
    n=$((n + 1))
  done
  echo "$k: $n variants, at most $maxregs registers, $spilling spilling"
  total=$((total + n))
done
echo "$target: $total variants compiled to cubin"
