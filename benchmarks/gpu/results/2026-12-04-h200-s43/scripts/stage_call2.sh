#!/usr/bin/env bash
# Session 43, call 2: tiles of all 256 rows (BLOCK_M = 256: each column of B read by one tile),
# data-parallel and stream-K, at the M = 256 rows.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$dest/"
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
comp() { # comp KERNEL ARGS...
  local k=$1 tmp; shift; tmp=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k "$k" --target=cuda:sm_90a \
    --emit=cubin -o "$tmp" -D HAS_BIAS=false -D ACT=none -D BLOCK_M=256 -D num_warps=8 --dtype bf16 "$@" "$nt" > "$tmp.log" 2>&1 || { grep -m3 error "$tmp.log" || true; }
  find "$tmp" -name '*.json' ! -name '*__nt.json' -delete; find "$tmp" -name '*.cubin' ! -name '*__nt.cubin' -delete
  cp "$tmp"/* "$dest/kernels/" 2>/dev/null || true; rm -rf "$tmp" "$tmp.log"
}
for ws in 0 1; do
  for cfg in "-D BLOCK_N=64 -D num_stages=3" "-D BLOCK_N=64 -D num_stages=4" "-D BLOCK_N=128 -D num_stages=2" "-D BLOCK_N=128 -D num_stages=3"; do
    comp gemm_block_ptr $cfg -D warp_specialize=$ws --specialize=false
  done
done
for cfg in "-D BLOCK_N=64 -D BLOCK_K=32 -D num_stages=4" "-D BLOCK_N=64 -D BLOCK_K=32 -D num_stages=6" "-D BLOCK_N=128 -D BLOCK_K=32 -D num_stages=2"; do
  comp gemm_stream_k $cfg --specialize=false
done
ls "$dest/kernels" | wc -l; du -sh "$dest"
