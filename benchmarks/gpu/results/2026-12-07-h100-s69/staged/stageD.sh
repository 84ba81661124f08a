#!/bin/bash
# s69 call D's staging (.device/s69/D, 9.7 MB): gemm_split_k's space as it is now (64x96 tiles
# added) compiled at the LLM suite's 16 decode keys with the __nt twin (B = W^T, column-major);
# the 64x96 one-slice variants also in kernels/ for verify.sh; tessel-tune-gpu, tessel-run-gpu,
# verify.sh, matmul_bench.py and the python package.
set -e
cd /work/main
D=.device/s69/D
rm -rf $D && mkdir -p $D/bin $D/logs
cp build/bin/tessel-tune-gpu $D/bin/
cp build/bin/tessel-run-gpu benchmarks/gpu/verify.sh benchmarks/gpu/matmul_bench.py benchmarks/gpu/llm_shapes.py \
  benchmarks/gpu/flushed.py $D/
# matmul_bench.py imports the anchor's Triton GEMM only without --no-triton (prepare.sh cuts it out
# of shared/anchors/triton_reference.py); the staged copy is session 66's.
cp .device/s66/GS/triton_gemm.py $D/
mkdir -p $D/python/tessel/lib && cp python/tessel/*.py $D/python/tessel/ &&
  cp build/python/tessel/lib/libtessel_launcher.so $D/python/tessel/lib/
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
shapes=()
for m in 1 16 64; do for s in 6144x4096 4096x4096 28672x4096 4096x14336; do shapes+=(--shape ${m}x$s); done; done
for s in 16x10240x8192 16x8192x8192 16x57344x8192 16x8192x28672; do shapes+=(--shape $s); done
/usr/bin/time -f "%e s wall" build/bin/tessel-tune dsl/kernels/gemm.cpp -k gemm_split_k --dtype=bf16 "${shapes[@]}" \
  "$nt" --opt b_order=col --opt check_rows=4 --target=cuda:sm_90a --emit=cubin --compile-only -o $D/tune -v \
  > $D/logs/tune.log 2>&1
grep -E "space of|compiled [0-9]+ variants|wall" $D/logs/tune.log
find $D -name "*.mlir" -delete
mkdir -p $D/kernels && cp $D/tune/gemm_split_k__bf16/*BLOCK_N_96*SPLIT_K_1__* $D/kernels/
cp benchmarks/gpu/results/2026-12-07-h100-s69/staged/callD.sh $D/
du -sh $D
