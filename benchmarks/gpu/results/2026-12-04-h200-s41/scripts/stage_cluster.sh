#!/usr/bin/env bash
# stage_cluster.sh DEST: tessel-run-gpu, gemm_bench.py and the GEMM variants that compare
# cluster multicast with the same configs without it.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$root/benchmarks/gpu/verify.sh" "$dest/"
cp "$root/.device/s40/triton_gemm.py" "$dest/"
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
nna=--twin=nna:stride_ak=1,stride_bn=1,stride_cn=1,stride_am%8,stride_bk%8
nta=--twin=nta:stride_ak=1,stride_bk=1,stride_cn=1,stride_am%8,stride_bn%8
comp() {
  local tmp; tmp=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k gemm_block_ptr --target=cuda:sm_90a \
    --emit=tile,cubin -o "$tmp" -D HAS_BIAS=false -D ACT=none "$@" "$nn" "$nt" "$nna" "$nta" \
    > "$tmp.log" 2>&1 || { grep -m3 error "$tmp.log"; exit 1; }
  # only the TMA twins: the base and __div8 variants are the same kernel without the cluster
  find "$tmp" -name '*.json' ! -name '*__nn.json' ! -name '*__nt.json' ! -name '*__nna.json' ! -name '*__nta.json' -delete
  find "$tmp" -name '*.tile.mlir' -delete
  cp "$tmp"/* "$dest/kernels/"; rm -rf "$tmp" "$tmp.log"
}
for dt in f16 bf16; do
  for cfg in "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=8" \
             "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3" \
             "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=4"; do
    comp --dtype $dt $cfg -D warp_specialize=1 -D cluster_size=2 --specialize=false
    comp --dtype $dt $cfg -D warp_specialize=1 --specialize=false
    comp --dtype $dt $cfg --specialize=false
  done
done
ls "$dest/kernels" | wc -l; du -sh "$dest"
