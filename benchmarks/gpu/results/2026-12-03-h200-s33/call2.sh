#!/usr/bin/env bash
# Session 33 call 2 (call 1's cross-entropy change reverted, kernels as prepared):
#  - fused linear cross-entropy back to back: synchronized steps against do_bench, with the SM
#    clock and power sampled (flce_clocks.py, BT 4096);
#  - the TMA twins with tensor maps by value: every fourth TMA variant and every warp-specialized
#    one (verify.sh gemm's cases without 4096^3), gemm_swiglu's __a16 twins;
#  - GEMM bf16 4096^3 beside cuBLAS (gemm_bench.py); rms_norm fwd+bwd (norm_profile.py).
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader > $o/gpu.txt
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
t "verify TMA twins"
n=0
for j in $(grep -l '"tensor_maps"' kernels/*.json); do
  n=$((n + 1))
  [[ $((n % 4)) == 0 || $j == *warp_specialize* ]] || continue
  [[ $j == kernels/gemm_swiglu* ]] && continue
  (( SECONDS - s > 110 )) && { echo "verify: stopped at 110 s"; break; }
  GEMM_LARGE=0 GEMM_FILTER=$j ./verify.sh gemm 2>&1 | grep -E "FAIL|gemm variants"
done > $o/verify_gemm.txt
VERIFY_FILTER='kernels/gemm_swiglu__*' timeout 60 ./verify.sh library > $o/verify_swiglu.txt 2>&1; echo swiglu rc=$?
t "flce clocks"
timeout 100 env OUT=$o python3 flce_clocks.py 4096 > $o/flce_clocks_4096.txt 2>&1; echo c4096 rc=$?
t "gemm"
timeout 100 env OUT=$o python3 gemm_bench.py --shapes bf16:4096x4096x4096 --no-triton --reps 20 > $o/gemm_bench.txt 2>&1; echo gemm rc=$?
timeout 50 python3 norm_profile.py > $o/norm_profile.txt 2>&1; echo norms rc=$?
t done
echo "== summary"
grep -v Warn $o/flce_clocks_4096.txt | tail -6
awk '/gemm variants/ {p += $3; f += $5} END {print "TMA verify:", p, "passed,", f, "failed"}' $o/verify_gemm.txt
grep FAIL $o/verify_gemm.txt | cut -c1-200 | head -5; tail -1 $o/verify_swiglu.txt
grep -E "TFLOP|cuBLAS" $o/gemm_bench.txt | tail -4
grep -E "queued|do_bench|Self CUDA time total" $o/norm_profile.txt
