#!/bin/bash
# call 6: the C++ launcher example (twins found in the kernel directory), split-K's one-slice
# path on odd shapes (4 variants), gemm_block_ptr tuned at the LLM suite's 12 M >= 2048 rows
# (B column-major, 4 rows checked), then those rows through tessel.ops.matmul with that cache.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
T1=$(cd ../t51 && pwd)
(cd ../ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $OUT/example.txt 2>&1; grep -v "^device" $OUT/example.txt
SECONDS=0
GEMM_FILTER='kernels/gemm_split_k__bf16__*BLOCK_N_128*__nt.json' timeout 40 bash verify.sh gemm > $OUT/verify_split_k.txt 2>&1
echo "verify rc=$? in ${SECONDS}s"; grep -E "FAIL|gpu verify" $OUT/verify_split_k.txt | head -20
SECONDS=0
timeout 110 $T1/bin/tessel-tune-gpu $T1/tune --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_block_ptr.txt 2>&1
echo "tune gemm_block_ptr rc=$? in ${SECONDS}s"
grep -E "best|error|FAILED" $OUT/tune_block_ptr.txt | grep -v "^  \[" | sed 's/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
rows=bf16:2048x6144x4096:bT,bf16:8192x6144x4096:bT,bf16:2048x4096x4096:bT,bf16:8192x4096x4096:bT,bf16:2048x28672x4096:bT,bf16:8192x28672x4096:bT
rows+=,bf16:2048x4096x14336:bT,bf16:8192x4096x14336:bT,bf16:2048x10240x8192:bT,bf16:2048x8192x8192:bT,bf16:2048x57344x8192:bT,bf16:2048x8192x28672:bT
SECONDS=0
TESSEL_KERNEL_PATH=$PWD/kernels:$T1/tune/gemm_block_ptr__bf16 TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT \
  timeout 75 python3 matmul_bench.py --no-triton --shapes $rows > $OUT/suite.txt 2>&1
echo "rows rc=$? in ${SECONDS}s"
grep -E "rel_err" $OUT/suite.txt | sed 's/gemm_block_ptr__bf16__//;s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-150
grep "do_bench us" $OUT/suite.txt
sed -n '/^do_bench medians/,$p' $OUT/suite.txt
