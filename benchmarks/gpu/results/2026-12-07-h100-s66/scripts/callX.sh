#!/bin/bash
# s66 call X (the machine of call G, 182 s of device time left): matmul_bench.py --explore at the
# two suite rows below cuBLAS; cut at 240 s after the op's own rows (explore.txt).
cd .device/s66/GS && export TESSEL_KERNEL_PATH=$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16 TESSEL_TUNING_CACHE=/tmp/tuning_here.json PYTHONUNBUFFERED=1
OUT=$OUT timeout 240 python3 matmul_bench.py --explore --no-triton --rounds 3 --shapes bf16:256x6144x4096:bT,bf16:64x4096x4096:bT > $OUT/explore.txt 2>&1; echo rc=$?
