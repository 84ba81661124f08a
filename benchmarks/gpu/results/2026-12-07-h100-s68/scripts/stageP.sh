#!/bin/bash
# s68 call P staging: gemm_persistent against gemm_block_ptr at four large suite keys, both
# tuned on the same card by the fixed tessel-tune-gpu (a persistent problem on the device's SMs),
# then those rows through tessel.ops.matmul beside cuBLAS.
set -e
cd /work/main
P=.device/s68/P
rm -rf $P && mkdir -p $P/bin $P/logs
(cd .device/s66/GS && cp -r python tessel-run-gpu llm_shapes.py flushed.py triton_gemm.py ../../s68/P/)
cp benchmarks/gpu/matmul_bench.py $P/ && cp python/tessel/_matmul.py $P/python/tessel/
cp build/bin/tessel-tune-gpu $P/bin/
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
shapes=(--shape 2048x6144x4096 --shape 2048x4096x4096 --shape 8192x4096x4096 --shape 2048x8192x8192 --shape 256x6144x4096)
for k in gemm_persistent gemm_block_ptr; do
  build/bin/tessel-tune dsl/kernels/gemm.cpp -k $k --dtype=bf16 "${shapes[@]}" "$nt" --opt b_order=col \
    --opt check_rows=4 --target=cuda:sm_90a --emit=cubin --compile-only -o $P/tune -v > $P/logs/$k.log 2>&1
  grep -E "space of|compiled [0-9]+ variants" $P/logs/$k.log
done
find $P -name "*.mlir" -delete
du -sh $P
