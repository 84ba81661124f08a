#!/bin/bash
# s65 call T (the machine of call R, warm): rope's and rope_qk's winners on the row with the
# full tables call R tuned them on ((S, D) f32) and with the Triton anchor's ((S, D/2) f32,
# --opt table=half), two rounds (tessel-run-gpu --bench: cold L2, median of 100 launches).
cd .device/s65/B && for r in 1 2; do for v in tune/rope__bf16/rope__bf16__HALF_64__BLOCK_H_32__num_warps_2__div8.json tune/rope_qk__bf16/rope_qk__bf16__HALF_64__BLOCK_S_32__num_warps_8__div8.json tune/rope_qk__bf16/rope_qk__bf16__HALF_64__BLOCK_S_16__num_warps_2__div8.json; do for t in full half; do echo "$r $(basename $v .json) table=$t: $(./tessel-run-gpu $v --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --opt layout=bshd --opt cos=shared --opt table=$t --bench --reps 100 2>&1 | grep -E '^bench:|FAIL' | cut -c1-120)"; done; done; done
