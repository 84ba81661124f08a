#!/bin/bash
# s52 call 3 (same H100 as calls 1-2): gemm_block_ptr tuned at the suite's 12 M >= 2048 rows
# (82 configs, B column-major, 4 rows checked), then those rows through the op with cuBLAS.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
cp tuning_c2.json $OUT/tuning.json
SECONDS=0
timeout 300 bin/tessel-tune-gpu tune --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_block_ptr.txt 2>&1
echo "tune rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune_block_ptr.txt | grep -v "^  \[" | sed 's/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
rows=bf16:2048x6144x4096:bT,bf16:8192x6144x4096:bT,bf16:2048x4096x4096:bT,bf16:8192x4096x4096:bT,bf16:2048x28672x4096:bT,bf16:8192x28672x4096:bT
rows+=,bf16:2048x4096x14336:bT,bf16:8192x4096x14336:bT,bf16:2048x10240x8192:bT,bf16:2048x8192x8192:bT,bf16:2048x57344x8192:bT,bf16:2048x8192x28672:bT
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/tune/gemm_block_ptr__bf16 TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT \
  timeout 150 python3 matmul_bench.py --no-triton --shapes $rows > $OUT/suite.txt 2>&1
echo "rows rc=$? in ${SECONDS}s"
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-150
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
