#!/usr/bin/env bash
# Session 43, call 4 (the final build): gemm_stream_k's library configs and the 6-stage 128x128
# tiles that prepare.sh now stages, in their TMA twins, verified; the M = 256 and 2048 rows of
# the LLM suite timed over every candidate prepare.sh stages for them.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$dest/"
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
comp() { # comp KERNEL ARGS...
  local k=$1 tmp; shift; tmp=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k "$k" --target=cuda:sm_90a \
    --emit=cubin -o "$tmp" "$@" "$nn" "$nt" > "$tmp.log" 2>&1 || { grep -m3 error "$tmp.log" || true; }
  find "$tmp" -name '*.json' ! -name '*__nn.json' ! -name '*__nt.json' -delete
  find "$tmp" -name '*.cubin' ! -name '*__nn.cubin' ! -name '*__nt.cubin' -delete
  cp "$tmp"/* "$dest/kernels/" 2>/dev/null || true; rm -rf "$tmp" "$tmp.log"
}
comp gemm_stream_k --specialize=false
e="-D HAS_BIAS=false -D ACT=none --specialize=false"
for dt in bf16 f16; do
  for ws in 0 1; do
    comp gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6 -D warp_specialize=$ws $e
  done
done
# The other candidates of the rows (bf16), as prepare.sh stages them.
comp gemm_block_ptr --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 $e
comp gemm_block_ptr --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 -D warp_specialize=1 $e
comp gemm_block_ptr --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3 $e
comp gemm_block_ptr --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3 -D warp_specialize=1 $e
comp gemm_block_ptr --dtype bf16 -D BLOCK_M=256 -D BLOCK_N=128 -D num_warps=8 -D num_stages=3 $e
comp gemm_persistent --dtype bf16 -D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6 -D warp_specialize=1 $e
comp gemm_split_k --dtype bf16 --specialize=false
ls "$dest/kernels"/*.json | wc -l; du -sh "$dest"
