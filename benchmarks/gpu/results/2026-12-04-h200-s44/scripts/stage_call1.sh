#!/usr/bin/env bash
# Session 44, call 1: where stream-K's time goes (ncu beside gemm_block_ptr at equal tile, warps
# and ring), stream-K at f16 1024x1024x2048, and which kernels cuBLAS runs on the short rows.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$(dirname "$0")/cublas_probe.py" "$dest/"
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
e="-D HAS_BIAS=false -D ACT=none --specialize=false -D warp_specialize=1"
for dt in bf16 f16; do
  comp gemm_stream_k --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4 $e
  comp gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4 $e
done
comp gemm_block_ptr --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6 $e
comp gemm_block_ptr --dtype f16 -D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=8 $e
comp gemm_stream_k --dtype f16 -D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6 $e
ls "$dest/kernels"/*.json | wc -l; du -sh "$dest"
