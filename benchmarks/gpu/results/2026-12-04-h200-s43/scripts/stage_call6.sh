#!/usr/bin/env bash
# Session 43, call 6: stream-K on two consumer warpgroups (128x128, 8 warps: 64 accumulator
# registers a thread, no spills; the 4-warp variants spill 36-124 bytes).
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$dest/"
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
comp() { # comp KERNEL ARGS...
  local k=$1 tmp; shift; tmp=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k "$k" --target=cuda:sm_90a \
    --emit=cubin -o "$tmp" "$@" "$nt" > "$tmp.log" 2>&1 || { grep -m3 error "$tmp.log" || true; }
  find "$tmp" -name '*.json' ! -name '*__nt.json' -delete
  find "$tmp" -name '*.cubin' ! -name '*__nt.cubin' -delete
  cp "$tmp"/* "$dest/kernels/" 2>/dev/null || true; rm -rf "$tmp" "$tmp.log"
}
e="--dtype bf16 -D BLOCK_M=128 -D BLOCK_N=128 -D HAS_BIAS=false -D ACT=none --specialize=false"
comp gemm_stream_k $e -D num_warps=8 -D num_stages=4 -D warp_specialize=0
comp gemm_stream_k $e -D num_warps=8 -D num_stages=4 -D warp_specialize=1
comp gemm_block_ptr $e -D num_warps=4 -D num_stages=6 -D warp_specialize=1
comp gemm_persistent --dtype bf16 -D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6 -D warp_specialize=1 -D HAS_BIAS=false -D ACT=none --specialize=false
ls "$dest/kernels"/*.json | wc -l
