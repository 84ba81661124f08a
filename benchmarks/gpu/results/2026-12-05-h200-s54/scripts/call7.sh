#!/bin/bash
# s54 call 2 (H200, the machine of call 1): the 32-row LLM suite through tessel.ops.matmul with
# every H200 entry (call 1's cache), beside cuBLAS and Triton, in 3 rotated rounds per row.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
src=/tmp/s54/tuning.json; [ -f $src ] || src=seed_tuning.json
cp $src $OUT/tuning.json; echo "cache: $src"
export TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16
export TESSEL_TUNING_CACHE=$OUT/tuning.json
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0
OUT=$OUT timeout 390 python3 matmul_bench.py --shapes llm --rounds 3 > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_split_k__bf16__//;s/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-170
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
