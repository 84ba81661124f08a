#!/usr/bin/env bash
# Session 36 call 3: tessel.ops.matmul with the decode rule and the host fast path; the decode
# rows under write- and read-flushed L2 again.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
t "matmul_bench"
timeout 300 env OUT=$o python3 matmul_bench.py --shapes f16:1000x999x1001,bf16:1000x999x1001,f16:1024x1024x2048,f16:1024x1024x2048:bT,f16:500x499x501,f16:2000x1999x2001,f16:127x255x129,bf16:4096x4096x4096:bT,bf16:8192x8192x8192,bf16:1x4096x4096:bT,bf16:16x6144x4096:bT,bf16:64x4096x4096:bT,bf16:1x28672x4096:bT,bf16:16x28672x4096:bT,bf16:1x4096x14336:bT,bf16:256x4096x14336:bT > $o/matmul.txt 2>&1; echo "matmul rc=$?" | tee -a $o/log.txt
t "explore 1024"
timeout 200 env python3 matmul_bench.py --explore --shapes f16:1024x1024x2048,f16:1024x1024x2048:bT,f16:1000x999x1001 > $o/explore.txt 2>&1; echo "explore rc=$?" | tee -a $o/log.txt
t "decode_l2"
timeout 200 python3 exp/decode_l2.py > $o/decode_l2.txt 2>&1; echo "decode rc=$?" | tee -a $o/log.txt
t "ce_profile"
timeout 90 env PYTHONPATH=/tmp/lg python3 exp/ce_profile.py > $o/ce_profile.txt 2>&1; echo "ce rc=$?" | tee -a $o/log.txt
t done
echo "== summary"
sed -n '/^do_bench medians/,$p' $o/matmul.txt
grep -E "FAIL" $o/matmul.txt | head
grep -E "tessel|cublas" $o/decode_l2.txt
grep -B1 -A7 "rel_err" $o/explore.txt | cut -c1-140
