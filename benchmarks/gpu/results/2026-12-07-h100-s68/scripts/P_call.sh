#!/bin/bash
# s68 call P: gemm_persistent and gemm_block_ptr tuned on this card at four large suite keys (a
# fresh cache), then the rows through tessel.ops.matmul beside cuBLAS (which entry it launches).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
rm -f /tmp/tp.json
SECONDS=0; timeout ${TT:-170} bin/tessel-tune-gpu tune --cache /tmp/tp.json --reps 20 --warmup 3 > $o/tune.txt 2>&1
echo "tune rc=$? ${SECONDS}s"; grep -E "^gemm.*best" $o/tune.txt | sed 's/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//; s/BLOCK_//g' | cut -c1-220
cp /tmp/tp.json $o/tuning.json
export TESSEL_TUNING_CACHE=/tmp/tp.json TESSEL_KERNEL_PATH=$PWD/tune/gemm_persistent__bf16:$PWD/tune/gemm_block_ptr__bf16
SECONDS=0; OUT=$o timeout ${TS:-90} python3 matmul_bench.py --no-triton --rounds 2 --shapes bf16:256x6144x4096:bT,bf16:2048x6144x4096:bT,bf16:2048x4096x4096:bT,bf16:8192x4096x4096:bT,bf16:2048x8192x8192:bT > $o/suite.txt 2>&1
echo "suite rc=$? ${SECONDS}s"; grep -E "rel_err" $o/suite.txt | cut -c1-200
sed -n '/^shape/,$p' $o/suite.txt
cd $o && tar czf /tmp/p.tgz . && rm -rf $o/* && mv /tmp/p.tgz $o/
