#!/bin/bash
# s69 call V's staging (.device/s69/V): gemm, gemm_block_ptr and gemm_split_k for cuda:sm_80 as
# PTX (the driver compiles it for the card at load), on tiles that tile-gpu-pad-shapes pads to
# powers of two, each with its __div8 twin: 128x96, 96x128, 96x96 (8 warps) and 64x48 in f16 and
# bf16, 128x96 with bias + ReLU, gemm_block_ptr 128x96 f16, gemm_split_k 64x96 bf16.
set -e
cd /work/main
V=.device/s69/V
rm -rf $V && mkdir -p $V/kernels && cp build/bin/tessel-run-gpu benchmarks/gpu/verify.sh $V/
tc() { build/bin/tesselc dsl/kernels/gemm.cpp "$@" --target=cuda:sm_80 --emit=tile,ptx -o $V/kernels; }
for dt in f16 bf16; do
  for cfg in "-D BLOCK_M=128 -D BLOCK_N=96 -D num_warps=4" "-D BLOCK_M=96 -D BLOCK_N=128 -D num_warps=4" \
             "-D BLOCK_M=96 -D BLOCK_N=96 -D num_warps=8" "-D BLOCK_M=64 -D BLOCK_N=48 -D num_warps=4"; do
    tc -k gemm --dtype=$dt $cfg -D num_stages=3 -D HAS_BIAS=false -D ACT=none
  done
  tc -k gemm --dtype=$dt -D BLOCK_M=128 -D BLOCK_N=96 -D num_warps=4 -D num_stages=3 -D HAS_BIAS=true -D ACT=relu
done
tc -k gemm_block_ptr --dtype=f16 -D BLOCK_M=128 -D BLOCK_N=96 -D num_warps=4 -D num_stages=3 -D HAS_BIAS=false -D ACT=none
tc -k gemm_split_k --dtype=bf16 -D BLOCK_M=64 -D BLOCK_N=96 -D BLOCK_K=64 -D num_warps=4 -D num_stages=3 -D SPLIT_K=0
cp benchmarks/gpu/results/2026-12-07-h100-s69/callV-sm80-padded/callV.sh $V/
