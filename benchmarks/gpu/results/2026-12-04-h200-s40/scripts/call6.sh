#!/usr/bin/env bash
# Session 40 call 6: the GEMM variants whose cubins the closure version of the epilogue
# sinking moved (GELU and SiLU epilogues, gemm_residual with a bias; sm_90a with every twin, and
# sm_80 PTX) verified; GELU / SiLU 4096^3 before (old/) and after.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
GEMM_LARGE=0 timeout 330 bash verify.sh gemm > $o/verify.txt 2>&1; echo "verify rc=$? at $((SECONDS - s)) s"
for act in gelu silu; do
  for d in old kernels; do
    j=$d/gemm_block_ptr__bf16__BLOCK_M_128__BLOCK_N_128__BLOCK_K_64__GROUP_M_8__HAS_BIAS_true__ACT_${act}__num_warps_4__num_stages_4__nn.json
    for r in 1 2; do echo "$act $d round $r: $(./tessel-run-gpu $j --target=cuda --shape 4096x4096x4096 --dtype bf16 --bench --reps 50 2>&1 | tail -1)"; done
  done
done | tee $o/bench.txt
tail -2 $o/verify.txt; grep FAIL $o/verify.txt | head -5
