#!/bin/bash
# s67 call N staging: gemm_block_ptr and gemm_split_k with BLOCK_N = 96 / 192 (padded tiles,
# wgmma m64n96 / m64n192) beside their 128 / 256 baselines, for verify.sh gemm and
# matmul_bench.py --explore on the suite rows they are for.
set -e
cd /work/main
N=.device/s67/N
rm -rf $N && mkdir -p $N/kernels
(cd .device/s66/GS && cp -r python tessel-run-gpu verify.sh llm_shapes.py flushed.py triton_gemm.py ../../s67/N/)
cp benchmarks/gpu/matmul_bench.py $N/
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
nna=--twin=nna:stride_ak=1,stride_bn=1,stride_cn=1,stride_am%8,stride_bk%8
nta=--twin=nta:stride_ak=1,stride_bk=1,stride_cn=1,stride_am%8,stride_bn%8
tc() { build/bin/tesselc dsl/kernels/gemm.cpp --target=cuda:sm_90a --emit=cubin -o $N/kernels -D HAS_BIAS=false -D ACT=none "$@" > /dev/null; }
for dt in bf16 f16; do
  for bn in 96 128; do
    tc -k gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=$bn -D num_warps=8 -D num_stages=4 "$nn" "$nt" "$nna" "$nta"
    tc -k gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=$bn -D num_warps=4 -D num_stages=6 "$nn" "$nt" "$nna" "$nta"
    tc -k gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=$bn -D num_warps=4 -D num_stages=6 -D warp_specialize=1 --specialize=false "$nn" "$nt" "$nna" "$nta"
    tc -k gemm_block_ptr --dtype $dt -D BLOCK_M=64 -D BLOCK_N=$bn -D num_warps=4 -D num_stages=6 "$nn" "$nt" "$nna" "$nta"
  done
  for bn in 192 256; do
    tc -k gemm_block_ptr --dtype $dt -D BLOCK_M=128 -D BLOCK_N=$bn -D num_warps=8 -D num_stages=3 "$nn" "$nt" "$nna" "$nta"
  done
done
for bn in 96 128; do
  for st in 6 8; do
    tc -k gemm_split_k --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=$bn -D BLOCK_K=64 -D num_warps=8 -D num_stages=$st -D SPLIT_K=0 "$nn" "$nt"
  done
done
rm -f $N/kernels/*.mlir
ls $N/kernels/*.json | wc -l
du -sh $N
