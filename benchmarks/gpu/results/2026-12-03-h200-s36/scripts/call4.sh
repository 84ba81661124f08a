#!/usr/bin/env bash
# Session 36 call 4: tessel.ops.matmul with the final tile model (operand loads counted for
# tiles below 128x128), each row's plan printed.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT
timeout 400 env OUT=$o python3 matmul_bench.py --shapes f16:1000x999x1001,bf16:1000x999x1001,f16:1024x1024x2048,f16:1024x1024x2048:bT,f16:500x499x501,f16:2000x1999x2001,f16:127x255x129,bf16:4096x4096x4096,bf16:4096x4096x4096:bT,bf16:8192x8192x8192,bf16:1x4096x4096:bT,bf16:16x6144x4096:bT,bf16:64x4096x4096:bT,bf16:1x28672x4096:bT,bf16:16x28672x4096:bT,bf16:1x4096x14336:bT,bf16:256x4096x14336:bT > $o/matmul.txt 2>&1; echo "matmul rc=$?"
grep -E "rel_err" $o/matmul.txt | cut -c1-200
sed -n '/^do_bench medians/,$p' $o/matmul.txt
