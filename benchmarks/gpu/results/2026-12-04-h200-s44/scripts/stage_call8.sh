#!/usr/bin/env bash
# Session 44, call 8: RMSNorm's backward from the forward's saved rstd. Replaces the norm
# kernels of a directory made by prepare.sh (DEST, at the parent commit) with this tree's,
# compiled as prepare.sh compiles them, puts this tree's Python package there, and stages the
# parent commit's RMSNorm kernels and Python in DEST/old for norm_bench.py's A/B.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build; base=${BASE:-HEAD}
c() { "$build/bin/tesselc" "$1" --target=cuda:sm_90a --emit=cubin "${@:3}" -o "$2" >/dev/null; }
norms() { # norms SRC OUT: the norm kernels as the library and prepare.sh compile them
  local src=$1 out=$2 k cfg block
  for k in rmsnorm layernorm rmsnorm_backward layernorm_backward; do c "$src/$k.cpp" "$out"; done
  for k in rmsnorm layernorm; do
    for cfg in "16384 32" "4096 4" "4096 16" "1024 2" "1024 8" "1024 1"; do
      set -- $cfg; c "$src/$k.cpp" "$out" -k $k --dtype bf16 -D BLOCK=$1 -D num_warps=$2
    done
  done
  for k in add_rmsnorm add_rmsnorm_out; do
    for cfg in "4096 16" "4096 4"; do
      set -- $cfg; c "$src/rmsnorm.cpp" "$out" -k $k --dtype bf16 -D BLOCK=$1 -D num_warps=$2
    done
  done
  c "$src/rmsnorm.cpp" "$out" -k add_rmsnorm_out --dtype bf16 -D BLOCK=1024 -D num_warps=1
  c "$src/rmsnorm.cpp" "$out" -k rmsnorm_looped --dtype bf16 -D BLOCK=4096 -D num_warps=16
  for k in rmsnorm_backward layernorm_backward; do
    for block in 4096 8192 16384; do
      c "$src/$k.cpp" "$out" -k $k -D BLOCK=$block -D num_warps=32
    done
  done
}
rm -f "$dest"/kernels/{rmsnorm,add_rmsnorm,layernorm}*
norms "$root/dsl/kernels" "$dest/kernels"
cp "$root"/python/tessel/*.py "$dest/python/tessel/"
cp "$(dirname "$0")/call8.sh" "$(dirname "$0")/ln_check.py" "$dest/"
rm -rf "$dest/old"; mkdir -p "$dest/old/kernels" "$dest/old/python/tessel/lib"
old=$(mktemp -d)
for f in rmsnorm.cpp layernorm.cpp rmsnorm_backward.cpp layernorm_backward.cpp RowSpaces.h; do
  git -C "$root" show "$base:dsl/kernels/$f" > "$old/$f"
done
norms "$old" "$dest/old/kernels"; rm -rf "$old"
for f in $(git -C "$root" ls-tree --name-only "$base" python/tessel/ | grep '\.py$'); do
  git -C "$root" show "$base:$f" > "$dest/old/python/tessel/$(basename "$f")"
done
cp "$build/lib/libtessel_launcher.so" "$dest/old/python/tessel/lib/"
cp "$root/benchmarks/gpu/norm_bench.py" "$dest/old/"
du -sh "$dest"
