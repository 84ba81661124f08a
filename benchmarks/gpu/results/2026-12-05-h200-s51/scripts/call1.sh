#!/bin/bash
# call 1: the split-K variants' verification (new one-slice path), tuning split-K at the decode
# rows, then the LLM suite through tessel.ops.matmul with the cache, beside cuBLAS and Triton
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
T=$(cd ../t50 && pwd)
GEMM_FILTER='kernels/gemm_split_k__bf16__*__n[nt].json' VERIFY_BATCH_LIMIT=100 timeout 110 bash verify.sh gemm > $OUT/verify_split_k.txt 2>&1
echo "verify rc=$?"; grep -E "FAIL|variants:" $OUT/verify_split_k.txt | head -20
SECONDS=0
timeout 200 $T/bin/tessel-tune-gpu $T/tune --cache $OUT/tuning.json --reps 30 --warmup 3 > $OUT/tune_split_k.txt 2>&1
echo "tune rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune_split_k.txt | sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-220
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$T/tune/gemm_split_k__bf16 TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT \
  timeout 275 python3 matmul_bench.py --shapes llm > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_split_k__bf16__//;s/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-160
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
