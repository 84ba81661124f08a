#!/bin/bash
# s67 call N: BLOCK_N = 96 and 192 on the matrix-unit path (tile-gpu-pad-shapes pads the tile,
# wgmma m64n96 / m64n192 skips the padding, the TMA box is the block's rows). (2) verify.sh gemm
# on every staged variant (96/192 and their 128/256 baselines, every twin: C7's odd sizes, single
# rows, padded A, transposed B, 4096^3), batched; (1) matmul_bench.py --explore on the suite rows
# the 96-wide tiles are for, every staged variant verified then graph-timed, beside cuBLAS.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; OUT=$o timeout ${T:-300} python3 matmul_bench.py --no-triton --rounds 3 --explore --explore-flops 1e12 \
  --shapes ${SHAPES:-bf16:256x6144x4096:bT,bf16:256x4096x4096:bT,bf16:256x28672x4096:bT,bf16:2048x6144x4096:bT,f16:1000x999x1001} > $o/explore.txt 2>&1
echo "explore rc=$? ${SECONDS}s"; grep -v "^  do_bench\|^note" $o/explore.txt | cut -c1-170 | tail -70
[[ ${TV:-230} -gt 0 ]] && SECONDS=0 && GEMM_LARGE=0 VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=${TB:-200} timeout ${TV:-230} bash verify.sh gemm > $o/verify_gemm.txt 2>&1; echo "verify rc=$? ${SECONDS}s"
grep -c "^FAIL" $o/verify_gemm.txt; grep "^FAIL" $o/verify_gemm.txt | cut -c1-220 | head -8; tail -1 $o/verify_gemm.txt
cd $o && tar czf /tmp/n.tgz . && rm -rf $o/* && mv /tmp/n.tgz $o/
