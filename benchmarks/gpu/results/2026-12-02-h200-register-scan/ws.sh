#!/usr/bin/env bash
# Quick check of h31's warp-specialized gemm_block_ptr variants: verify (verify.sh gemm), then
# time the __nt twins with and without warp specialization on a few shapes (B stored (N, K)).
cd "$(dirname "$0")"
GEMM_FILTER='kernels/gemm_block_ptr__*' timeout 300 ./verify.sh gemm 2>&1 | grep -v "^PASS" | tail -15
for spec in "f16 1024x1024x2048" "bf16 256x6144x4096" "bf16 256x4096x4096" "bf16 4096x4096x4096" "bf16 8192x8192x8192"; do
  set -- $spec; dt=$1 shape=$2
  for j in kernels/gemm_block_ptr__${dt}__*__nt.json base/gemm_block_ptr__${dt}__*__nt.json; do
    r=$(timeout 60 ./tessel-run-gpu $j --target=cuda --problem gemm --shape $shape --dtype $dt --opt b_order=col --bench --reps 30 2>&1)
    echo "$dt $shape $(echo "$r" | grep -oE "PASS|FAIL" | head -1) $(echo "$r" | grep -oE "median [0-9.]+ (us|ms)" | head -1) $(echo "$r" | grep -oE "[0-9.]+ TFLOP/s" | head -1) $(basename $j | sed 's/gemm_block_ptr__//; s/__GROUP_M_8__HAS_BIAS_false__ACT_none//')"
  done
done
