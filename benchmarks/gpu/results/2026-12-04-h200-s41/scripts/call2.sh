#!/usr/bin/env bash
cd "$(dirname "$0")"
python3 occupancy.py 2>&1 | tail -40
k=kernels/gemm_block_ptr__f16__BLOCK_M_64__BLOCK_N_128__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none__num_warps_4__num_stages_8__warp_specialize_1
for v in "" __cluster_size_2; do
  for s in 128x128x2048 128x128x8192 1024x128x2048 4096x128x2048 7680x128x2048 8192x128x2048 8448x128x2048 1024x1024x2048; do
    printf "%-18s %-16s " "${v:-ws}" $s
    ./tessel-run-gpu $k${v}__nn.json --shape $s --dtype f16 --target=cuda --bench --reps 30 2>&1 | grep -E "^bench: median|FAIL" | head -2
  done
done
