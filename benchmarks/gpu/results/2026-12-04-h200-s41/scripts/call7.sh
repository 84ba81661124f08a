#!/usr/bin/env bash
cd "$(dirname "$0")"
python3 gemm_bench.py --no-triton --reps 30 --shapes f16:1024x1024x2048,bf16:256x6144x4096:bT,bf16:2048x4096x4096:bT,bf16:4096x4096x4096:bT,bf16:8192x8192x8192 2>&1 | tee $OUT/bench.txt | tail -9
grep "^  tessel" $OUT/bench.txt | sed 's/gemm_block_ptr__//; s/__HAS_BIAS_false__ACT_none//; s/__BLOCK_K_64__GROUP_M_8//' | sort -k3,3 -k5,5n | awk '{print $2, $3, $4, $5, $6}' > $OUT/configs.txt
cat $OUT/configs.txt | head -80
