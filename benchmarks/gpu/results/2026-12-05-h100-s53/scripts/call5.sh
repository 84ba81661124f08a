#!/bin/bash
# s53 call 5 (H100): gemm_block_ptr's tile rule with and without this session's change (one wave
# with K >= 2048: the deeper ring and a producer warpgroup), no tuning cache, 5 rotated rounds
# beside cuBLAS, the library's cubins (prepare.sh).
cd "$(dirname "$0")"
export PYTHONUNBUFFERED=1 TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent
rows=f16:1024x1024x2048,f16:1024x1024x2048:bT,bf16:256x6144x4096:bT,bf16:256x4096x4096:bT,bf16:256x4096x14336:bT
for d in old new; do
  mkdir -p $OUT/$d
  OUT=$OUT/$d timeout 100 python3 $d/matmul_bench.py --no-triton --rounds 5 --shapes $rows > $OUT/$d/rows.txt 2>&1; echo "$d rc=$?"
  grep rel_err $OUT/$d/rows.txt | sed 's/gemm_block_ptr__//; s/__GROUP_M_8__HAS_BIAS_false__ACT_none//' | cut -c1-150
  sed -n '/^shape/,$p' $OUT/$d/rows.txt | head -8
done
