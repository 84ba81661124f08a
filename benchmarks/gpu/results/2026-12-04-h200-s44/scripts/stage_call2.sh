#!/usr/bin/env bash
# Session 44, call 2: LayerNorm's backward from the forward's saved mean and rstd (new/) against
# the recomputing kernels of the parent commit (old/), through tessel.ops in norm_bench.py; the
# new norm kernels verified on the GPU; stream-K's structure at f16 1024x1024x2048.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build; base=${BASE:-HEAD}
rm -rf "$dest"; mkdir -p "$dest"
cp "$build/bin/tessel-run-gpu" "$(dirname "$0")/call2.sh" "$dest/"
cp /tmp/wheels/liger_kernel-0.8.5-py3-none-any.whl "$dest/"
norms() { # norms SRC-DIR OUT-DIR: the norm kernels as the library and prepare.sh compile them
  local src=$1 out=$2 k block
  for k in rmsnorm layernorm rmsnorm_backward layernorm_backward; do
    "$build/bin/tesselc" "$src/$k.cpp" --target=cuda:sm_90a --emit=cubin -o "$out" >/dev/null
  done
  for k in rmsnorm layernorm; do
    "$build/bin/tesselc" "$src/$k.cpp" -k $k --dtype bf16 -D BLOCK=1024 -D num_warps=1 \
      --target=cuda:sm_90a --emit=cubin -o "$out" >/dev/null
  done
  for k in rmsnorm_backward layernorm_backward; do
    for block in 4096 8192 16384; do
      "$build/bin/tesselc" "$src/$k.cpp" -k $k -D BLOCK=$block -D num_warps=32 \
        --target=cuda:sm_90a --emit=cubin -o "$out" >/dev/null
    done
  done
}
for v in new old; do
  mkdir -p "$dest/$v/kernels" "$dest/$v/python/tessel/lib"
  cp "$root/benchmarks/gpu/norm_bench.py" "$dest/$v/"
  cp "$build/lib/libtessel_launcher.so" "$dest/$v/python/tessel/lib/"
done
norms "$root/dsl/kernels" "$dest/new/kernels"
cp "$root"/python/tessel/*.py "$dest/new/python/tessel/"
old=$(mktemp -d)
for f in rmsnorm layernorm rmsnorm_backward layernorm_backward RowSpaces; do
  ext=cpp; [[ $f == RowSpaces ]] && ext=h
  git -C "$root" show "$base:dsl/kernels/$f.$ext" > "$old/$f.$ext"
done
norms "$old" "$dest/old/kernels"
for f in $(git -C "$root" ls-tree --name-only "$base" python/tessel/ | grep '\.py$'); do
  git -C "$root" show "$base:$f" > "$dest/old/python/tessel/$(basename "$f")"
done
rm -rf "$old"
# Stream-K's structure: its 128x128 twin (call 1's) and gemm_persistent's at the same config.
mkdir -p "$dest/gemm"
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
for k in gemm_stream_k gemm_persistent gemm_block_ptr; do
  t=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k $k --target=cuda:sm_90a --emit=cubin \
    -o "$t" --dtype f16 -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4 \
    -D warp_specialize=1 -D HAS_BIAS=false -D ACT=none --specialize=false "$nn" >/dev/null
  cp "$t"/*__nn.* "$dest/gemm/"; rm -rf "$t"
done
ls "$dest"/new/kernels/*.json | wc -l; ls "$dest"/old/kernels/*.json | wc -l; du -sh "$dest"
