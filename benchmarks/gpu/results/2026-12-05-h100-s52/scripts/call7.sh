#!/bin/bash
# s52 call 7: gemm_block_ptr tuned at the suite's 4 M = 256 rows (the 12 M >= 2048 keys are
# call 3's cache hits), then the 32-row suite through the op with every H100 entry.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
cp tuning_c3.json $OUT/tuning.json
SECONDS=0
timeout 45 bin/tessel-tune-gpu tune/gemm_block_ptr_llm --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_block_ptr_m256.txt 2>&1
echo "tune rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune_block_ptr_m256.txt | grep -v "^  \[" | sed 's/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16 \
  TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT timeout 200 python3 matmul_bench.py --shapes llm > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "^bf16:256" $OUT/suite.txt | sed 's/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-170
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
