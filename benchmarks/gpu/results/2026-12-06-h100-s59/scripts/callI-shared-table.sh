#!/bin/bash
# s59 call I: rope_seq_out at B8 S4096 H32/8 D128 with one shared (S, D) table (as torch_ops.py
# and the op's benchmark pass it), every head in one program against groups of 4 and 8.
cd "$(dirname "$0")/tune/rope_seq_out__bf16"
for v in BLOCK_S_128__num_warps_8 BLOCK_S_64__num_warps_4 BLOCK_S_128__HEAD_GROUP_8__num_warps_8 BLOCK_S_64__HEAD_GROUP_8__num_warps_4 BLOCK_S_128__HEAD_GROUP_4__num_warps_8 BLOCK_S_32__HEAD_GROUP_8__num_warps_4; do
  f=rope_seq_out__bf16__HALF_64__${v}__div8.json; [[ -f $f ]] || { echo "no $v"; continue; }
  echo "$v: $(timeout 20 ../../tessel-run-gpu $f --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --opt cos=shared --bench --reps 100 2>&1 | grep -o 'median.*' | cut -c1-80)"
done
