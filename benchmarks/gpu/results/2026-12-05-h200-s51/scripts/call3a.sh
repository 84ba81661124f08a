#!/bin/bash
# call 3a: split-K's one-slice path on odd shapes (4 variants), the three M = 256 split-K keys
# call 1 did not reach, gemm_block_ptr tuned at the suite's 12 M >= 2048 rows (B column-major,
# 16 rows checked), then the 32-row suite through tessel.ops.matmul with that cache, with cuBLAS.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
T=$(cd ../t50 && pwd); T1=$(cd ../t51 && pwd)
cp tuning_s51.json $OUT/tuning.json
SECONDS=0
GEMM_FILTER='kernels/gemm_split_k__bf16__*BLOCK_N_128*__nt.json' timeout 60 bash verify.sh gemm > $OUT/verify_split_k.txt 2>&1
echo "verify rc=$? in ${SECONDS}s"; grep -E "FAIL|gpu verify" $OUT/verify_split_k.txt | head -20
SECONDS=0
timeout 100 $T/bin/tessel-tune-gpu $T/tune --cache $OUT/tuning.json --reps 30 --warmup 3 > $OUT/tune_split_k.txt 2>&1
echo "tune split-K rc=$? in ${SECONDS}s; $(grep -c 'cache hit' $OUT/tune_split_k.txt) hits"
grep -E "best|error" $OUT/tune_split_k.txt | grep -v "^ " | sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
SECONDS=0
timeout 150 $T/bin/tessel-tune-gpu $T1/tune --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_block_ptr.txt 2>&1
echo "tune gemm_block_ptr rc=$? in ${SECONDS}s"
grep -E "best|error|FAILED" $OUT/tune_block_ptr.txt | grep -v "^  \[" | sed 's/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$T/tune/gemm_split_k__bf16:$T1/tune/gemm_block_ptr__bf16 TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT \
  timeout 150 python3 matmul_bench.py --no-triton --shapes llm > $OUT/suite.txt 2>&1
echo "suite rc=$? in ${SECONDS}s"
grep rel_err $OUT/suite.txt | grep -v PASS
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_split_k__bf16__//;s/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-150
grep "do_bench us" $OUT/suite.txt
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
