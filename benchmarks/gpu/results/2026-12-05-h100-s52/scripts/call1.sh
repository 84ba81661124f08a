#!/bin/bash
# s52 call 1: the transposed decode product (c^T = W x^T, 64x16 tiles, __ntt twins): verify the
# twins on odd shapes, tune gemm_split_k at the suite's decode rows transposed (s51's cache for the
# rest), then the suite's M <= 256 rows through tessel.ops.matmul beside cuBLAS and Triton.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
SECONDS=0
GEMM_FILTER='kernels/gemm_split_k__bf16__*BLOCK_N_16*' VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=60 timeout 90 bash verify.sh gemm > $OUT/verify_swap.txt 2>&1
echo "verify rc=$? in ${SECONDS}s"; grep -E "FAIL|variants:" $OUT/verify_swap.txt | head -20
cp tuning_s51.json $OUT/tuning.json
SECONDS=0
timeout 190 bin/tessel-tune-gpu tune/gemm_split_k_swap --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_swap.txt 2>&1
echo "tune rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune_swap.txt | grep -v "^  \[" | sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-230
rows=""
for m in 1 16 64 256; do for nk in 6144x4096 4096x4096 28672x4096 4096x14336; do rows+="bf16:${m}x${nk}:bT,"; done; done
rows+="bf16:16x10240x8192:bT,bf16:16x8192x8192:bT,bf16:16x8192x28672:bT,bf16:16x57344x8192:bT"
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/bp:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16 \
  TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT timeout 250 python3 matmul_bench.py --shapes $rows > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_split_k__bf16__//;s/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
grep "do_bench us" $OUT/suite.txt
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
