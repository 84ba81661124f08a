#!/bin/bash
# call 3b: matmul_bench's default rows (1000x999x1001, 1024x1024x2048, 4096^3 ...) and 8192^3,
# with Triton, and the host time of small op calls.
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1 TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent
mkdir -p $OUT
SECONDS=0
OUT=$OUT timeout 230 python3 matmul_bench.py --shapes f16:1000x999x1001,f16:1024x1024x2048,f16:1024x1024x2048:bT,bf16:1000x999x1001,f16:500x499x501,f16:2000x1999x2001,f16:127x255x129,bf16:4096x4096x4096:bT,bf16:8192x8192x8192:bT > $OUT/matmul_default.txt 2>&1; echo "matmul default rc=$? in ${SECONDS}s"
timeout 40 python3 host_profile.py matmul --shape 64x4096x4096 --calls 300 > $OUT/host_matmul.txt 2>&1; echo "host matmul rc=$?"
timeout 40 python3 host_profile.py add_rms_norm --shape 64x4096 --calls 300 > $OUT/host_addrms_small.txt 2>&1; echo "host addrms small rc=$?"
grep rel_err $OUT/matmul_default.txt
sed -n '/^do_bench medians/,$p' $OUT/matmul_default.txt
head -30 $OUT/host_matmul.txt; head -30 $OUT/host_addrms_small.txt
