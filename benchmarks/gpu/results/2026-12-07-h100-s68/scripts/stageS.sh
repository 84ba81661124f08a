#!/bin/bash
# s68 call S staging (rerun after the session's H100 calls: the fixed tuner, gemm_block_ptr's 96): the LLM suite (matmul_bench.py --shapes llm) through tessel.ops.matmul with
# session 54's H200 tuning cache, its four M = 256 keys re-tuned over gemm_split_k's space as it
# is now (128x96 tiles included: wgmma m64n96 over a padded tile) by tessel-tune-gpu --force.
set -e
cd /work/main
S=.device/s68/S
rm -rf $S && mkdir -p $S/bin $S/logs
(cd .device/s66/GS && cp -r python llm_shapes.py flushed.py triton_gemm.py tune tuning_s54.json ../../s68/S/)
cp benchmarks/gpu/matmul_bench.py $S/
cp build/bin/tessel-tune-gpu $S/bin/
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
/usr/bin/time -f "tune256: %e s wall" build/bin/tessel-tune dsl/kernels/gemm.cpp -k gemm_split_k --dtype=bf16 \
  --shape 256x6144x4096 --shape 256x4096x4096 --shape 256x28672x4096 --shape 256x4096x14336 \
  "$nt" --opt b_order=col --target=cuda:sm_90a --emit=cubin --compile-only -o $S/tune256 -v > $S/logs/tune256.log 2>&1
grep -E "space of|compiled [0-9]+ variants|wall" $S/logs/tune256.log | head -3
# gemm_block_ptr at the same keys (its space now has 128x96: the H100's winner at 256x6144x4096,
# results/2026-12-07-h100-s68), beside split-K's in tune256/ (both re-timed with --force).
build/bin/tessel-tune dsl/kernels/gemm.cpp -k gemm_block_ptr --dtype=bf16 \
  --shape 256x6144x4096 --shape 256x4096x4096 --shape 256x28672x4096 --shape 256x4096x14336 \
  "$nt" --opt b_order=col --opt check_rows=4 --target=cuda:sm_90a --emit=cubin --compile-only -o $S/tune256 -v > $S/logs/tune256_bp.log 2>&1
grep -E "space of|compiled [0-9]+ variants" $S/logs/tune256_bp.log
find $S -name "*.mlir" -delete
du -sh $S $S/*
# gemm_persistent at the suite's 16 M >= 256 rows (its new tuning space: 128x256 on 2 stages,
# 128x128 and 64x128 on 2-6, with and without the TMA-store epilogue, a producer warpgroup
# always), for tessel.ops.matmul's new persistent entry.
large=()
for m in 2048 8192 256; do
  large+=("${m}x6144x4096" "${m}x4096x4096" "${m}x28672x4096" "${m}x4096x14336")
done
large+=(2048x10240x8192 2048x8192x8192 2048x57344x8192 2048x8192x28672)
shapes=(); for s in "${large[@]}"; do shapes+=(--shape "$s"); done
/usr/bin/time -f "tunep: %e s wall" build/bin/tessel-tune dsl/kernels/gemm.cpp -k gemm_persistent --dtype=bf16 \
  "${shapes[@]}" "$nt" --opt b_order=col --opt check_rows=4 --target=cuda:sm_90a --emit=cubin --compile-only \
  -o $S/tunep -v > $S/logs/tunep.log 2>&1
grep -E "space of|compiled [0-9]+ variants|wall" $S/logs/tunep.log
find $S -name "*.mlir" -delete
cp python/tessel/_matmul.py $S/python/tessel/_matmul.py
cp "$(dirname "$0")/callS.sh" $S/
du -sh $S $S/*
# (The f16 rows' kernels travel in call P's carry, .device/s68/P/kf16: with them this carry
# is over the device tool's 64 MiB beside the tree.)
du -sh $S
