#!/bin/bash
# s52 call 4 (same H100 as calls 1-3): the whole LLM suite through tessel.ops.matmul in one run
# with every entry of calls 1-3 (transposed and as-written split-K, gemm_block_ptr at M >= 2048).
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
cp tuning_c3.json $OUT/tuning.json
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/bp:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16 \
  TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT timeout 300 python3 matmul_bench.py --shapes llm > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_split_k__bf16__//;s/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-170
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
