#!/bin/bash
# s69 call D: the LLM suite's 16 decode rows (M <= 64) with gemm_split_k's space as it is now
# (64x96 tiles added: 64 tiles of N = 6144 in 2 slices, or 43 of N = 4096 in 3, make 128-129
# programs for 132 SMs where 64x128 makes 96). tessel-tune-gpu times the whole space at each
# key into a fresh cache on this card (cold L2, median of event-timed launches, the winner
# verified); then matmul_bench.py runs the rows through tessel.ops.matmul with that cache beside
# cuBLAS, each verified first, decode rows also against a copy of their own bytes.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; timeout ${TT:-180} bin/tessel-tune-gpu tune --cache $o/tuning.json --reps 20 --warmup 3 > $o/tune.txt 2>&1
echo "tune rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune.txt | grep -v "^  \[" | sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//; s/, cached in.*//' | cut -c1-170
# The new 64x96 tiles (one slice each; verify.sh's split-K cases take the counts) on odd shapes.
SECONDS=0; GEMM_LARGE=0 VERIFY_BATCH=1 timeout ${TV:-90} bash verify.sh gemm > $o/verify_64x96.txt 2>&1
echo "verify rc=$? ${SECONDS}s"; grep -E "FAIL" $o/verify_64x96.txt | head -5; tail -1 $o/verify_64x96.txt
# ROWS: the rows to run (default the 16 keys tuned; a directory staged for fewer keys names them).
rows=${ROWS:-}
if [[ -z $rows ]]; then
  for m in 1 16 64; do for s in 6144x4096 4096x4096 28672x4096 4096x14336; do rows+="bf16:${m}x$s:bT,"; done; done
  rows+="bf16:16x10240x8192:bT,bf16:16x8192x8192:bT,bf16:16x57344x8192:bT,bf16:16x8192x28672:bT"
fi
export TESSEL_TUNING_CACHE=$o/tuning.json TESSEL_KERNEL_PATH=$PWD/tune/gemm_split_k__bf16
SECONDS=0; OUT=$o timeout ${TS:-160} python3 matmul_bench.py --no-triton --rounds ${ROUNDS:-2} --shapes $rows > $o/suite.txt 2>&1
echo "suite rc=$? ${SECONDS}s"; grep -E "rel_err" $o/suite.txt | grep -v PASS | head -5
sed -n '/^do_bench medians/,$p' $o/suite.txt
cd $o && tar czf /tmp/d.tgz . && rm -rf $o/* && mv /tmp/d.tgz $o/
