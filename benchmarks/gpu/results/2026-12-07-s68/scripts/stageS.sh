#!/bin/bash
# s68 call S staging: the LLM suite (matmul_bench.py --shapes llm) through tessel.ops.matmul with
# session 54's H200 tuning cache, its four M = 256 keys re-tuned over gemm_split_k's space as it
# is now (128x96 tiles included: wgmma m64n96 over a padded tile) by tessel-tune-gpu --force.
set -e
cd /work/main
S=.device/s68/S
rm -rf $S && mkdir -p $S/bin $S/logs
(cd .device/s66/GS && cp -r python tessel-run-gpu verify.sh llm_shapes.py flushed.py triton_gemm.py tune tuning_s54.json ../../s68/S/)
cp benchmarks/gpu/matmul_bench.py $S/
cp build/bin/tessel-tune-gpu $S/bin/
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
/usr/bin/time -f "tune256: %e s wall" build/bin/tessel-tune dsl/kernels/gemm.cpp -k gemm_split_k --dtype=bf16 \
  --shape 256x6144x4096 --shape 256x4096x4096 --shape 256x28672x4096 --shape 256x4096x14336 \
  "$nt" --opt b_order=col --target=cuda:sm_90a --emit=cubin --compile-only -o $S/tune256 -v > $S/logs/tune256.log 2>&1
grep -E "space of|compiled [0-9]+ variants|wall|dropped" $S/logs/tune256.log | head
find $S -name "*.mlir" -delete
du -sh $S $S/*
