#!/usr/bin/env bash
# The multicast's cost per copy: the 128x256 (8 + 4 warps, 3 stages) tile with B in one TMA box
# per stage (__nt: B (N, K)) against four (__nn: B (K, N), 64-column boxes), cluster vs WS, bf16.
cd "$(dirname "$0")"
k=kernels/gemm_block_ptr__bf16__BLOCK_M_128__BLOCK_N_256__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none__num_warps_8__num_stages_3__warp_specialize_1
for s in 8192x8192x8192 4096x4096x4096; do
  for v in "" __cluster_size_2; do
    for t in nt nn; do
      opt=""; [[ $t == nt ]] && opt="--opt b_order=col"
      printf "%-16s %-18s %s " $s "${v:-ws}" $t
      ./tessel-run-gpu $k${v}__$t.json --shape $s --dtype bf16 $opt --target=cuda --bench --reps 20 --opt check_rows=64 2>&1 | grep -E "^bench: median|FAIL" | grep -o "median [0-9.]* ms\|FAIL.*"
    done
  done
done
