#!/bin/bash
# Session 30 call 4: Triton's LayerNorm asm; verify.sh over the kernels it had no shapes for.
cd "$(dirname "$0")"
python3 triton_asm.py 2>&1 | grep -v -i warn | tee $OUT/triton_asm.txt
cd ../ln/vdir && cp ../../c4/verify.sh . && for f in 'kernels/*_backward*' 'kernels/rmsnorm_dw_reduce*' 'kernels/rope_out*' 'kernels/moe_routing_atomics*'; do
  VERIFY_FILTER=$f timeout 150 ./verify.sh library 2>&1 | tail -4
done | tee $OUT/verify_new_shapes.txt
