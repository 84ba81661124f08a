#!/usr/bin/env bash
# Session 43, call 1: stream-K (gemm_stream_k) beside gemm_block_ptr and gemm_split_k at the
# LLM suite's M = 256 and decode rows; the persistent cubins of session 42's last fix re-verified.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$root/.device/s40/triton_gemm.py" "$dest/"
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
comp() { # comp KERNEL ARGS...
  local k=$1 tmp; shift; tmp=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k "$k" --target=cuda:sm_90a \
    --emit=cubin -o "$tmp" -D HAS_BIAS=false -D ACT=none "$@" "$nn" "$nt" > "$tmp.log" 2>&1 || { grep -m3 error "$tmp.log" || true; }
  find "$tmp" -name '*.json' ! -name '*__nn.json' ! -name '*__nt.json' -delete
  cp "$tmp"/* "$dest/kernels/" 2>/dev/null || true; rm -rf "$tmp" "$tmp.log"
}
for dt in bf16 f16; do
  for cfg in "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4" \
             "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6"; do
    comp gemm_stream_k --dtype $dt $cfg -D warp_specialize=1 --specialize=false
  done
  comp gemm_stream_k --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 -D warp_specialize=0 --specialize=false
  # The persistent kernels as session 42 staged them (its last fix moved their epilogue scratch).
  comp gemm_persistent --dtype $dt -D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=2 -D warp_specialize=1 --specialize=false
  comp gemm_persistent --dtype $dt -D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6 -D warp_specialize=1 --specialize=false
  comp gemm_persistent --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 -D warp_specialize=1 --specialize=false
  # Baselines: the block-pointer tiles the LLM table chose at M = 256, and WS twins.
  comp gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 --specialize=false
  comp gemm_block_ptr --dtype $dt -D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 --specialize=false
  comp gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4 -D warp_specialize=1 --specialize=false
  comp gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3 -D warp_specialize=1 --specialize=false
done
# The split-K library configs (bf16), the decode rows' baseline.
for cfg in "-D BLOCK_N=64 -D BLOCK_K=128 -D num_stages=4" "-D BLOCK_N=128 -D BLOCK_K=128 -D num_stages=3" "-D BLOCK_N=128 -D BLOCK_K=64 -D num_stages=6"; do
  comp gemm_split_k --dtype bf16 -D BLOCK_M=64 $cfg -D num_warps=4 --specialize=false
done
ls "$dest/kernels" | wc -l; du -sh "$dest"
