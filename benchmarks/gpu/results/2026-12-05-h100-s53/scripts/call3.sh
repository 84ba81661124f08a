#!/bin/bash
# s53 call 3 (H100, the machine of calls 1-2; run inline): five suite rows again in 5 rotated
# rounds, Tessel and cuBLAS only, with call 1's cache.
cd .device/r55 && export TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16 TESSEL_TUNING_CACHE=/tmp/s53/tuning.json && mkdir -p $OUT && OUT=$OUT PYTHONUNBUFFERED=1 timeout 200 python3 matmul_bench.py --no-triton --rounds 5 --shapes bf16:2048x4096x4096:bT,bf16:16x4096x4096:bT,bf16:64x4096x4096:bT,bf16:8192x4096x4096:bT,bf16:2048x8192x8192:bT > $OUT/rows.txt 2>&1; echo rc=$?
