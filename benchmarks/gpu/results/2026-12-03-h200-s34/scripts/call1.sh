#!/usr/bin/env bash
# Session 34 call 1: norm backward experiment (prefetch / rows per step), eager backward, the TMA
# variants not verified in session 33.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader > $o/gpu.txt
t "rows experiment"
timeout 300 python3 ../exp/rows_exp.py ./tessel-run-gpu ../exp/k/*__div8.json \
  ../exp/nohint/*__div8.json kernels/{rmsnorm,layernorm}_backward__bf16__BLOCK_{1024,4096,16384}__num_warps_*__div8.json > $o/rows_exp.txt 2>&1; echo rows rc=$?
t "eager"
timeout 60 python3 ../exp/eager_bw.py > $o/eager_bw.txt 2>&1; echo eager rc=$?
t "verify TMA twins (the rest)"
n=0
for j in $(grep -l '"tensor_maps"' kernels/*.json); do
  n=$((n + 1))
  [[ $((n % 4)) == 0 || $j == *warp_specialize* ]] && continue
  [[ $j == kernels/gemm_swiglu* ]] && continue
  (( SECONDS - s > 560 )) && { echo "verify: stopped at 560 s"; break; }
  GEMM_LARGE=0 GEMM_FILTER=$j ./verify.sh gemm 2>&1 | grep -E "FAIL|gemm variants"
done > $o/verify_gemm.txt
t done
echo "== summary"
cat $o/rows_exp.txt | tail -80
cat $o/eager_bw.txt
awk '/gemm variants/ {p += $3; f += $5; n++} END {print "TMA verify:", n, "variants,", p, "passed,", f, "failed"}' $o/verify_gemm.txt
grep FAIL $o/verify_gemm.txt | cut -c1-200 | head -5
