#!/bin/bash
# s52 call 2 (same machine as call 1): gemm_split_k tuned at the decode rows as written (the
# __nt twins), into call 1's cache (the transposed keys), then the whole LLM suite through the op.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
cp tuning_c1.json $OUT/tuning.json
SECONDS=0
timeout 200 bin/tessel-tune-gpu tune/gemm_split_k__bf16 --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_split_k.txt 2>&1
echo "tune rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune_split_k.txt | grep -v "^  \[" | sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/bp:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16 \
  TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT timeout 330 python3 matmul_bench.py --shapes llm > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_split_k__bf16__//;s/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-170
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
