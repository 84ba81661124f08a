#!/bin/bash
# Session 28, call 1: the multi-program top_k_top_p_mask on the H200. The harness problem
# (float64 reference) on odd shapes and programs per row, then sampling_bench.py.
cd "$(dirname "$0")"
pass=0; fail=0
for j in kernels/top_k_top_p_mask__*.json; do
  shapes=("12x50257" "1x1" "17x1000 --opt chunks=37" "5x20011 --opt chunks=1" "3x128256 --opt chunks=128" "64x32000" "8x32000 --opt k=50 --opt p=0.9 --opt chunks=64")
  [[ $j == *__div8.json ]] && shapes=("64x32000" "3x128256 --opt chunks=128" "8x32000 --opt k=50 --opt p=0.9 --opt chunks=64" "2x128256 --opt k=1000 --opt chunks=16")
  for s in "${shapes[@]}"; do
    if out=$(./tessel-run-gpu "$j" --shape $s --quiet 2>&1) && [[ $out == *PASS* ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $(basename $j) $s: $out" | head -5; fi
  done
done
echo "harness on the GPU: $pass passed, $fail failed"
python3 sampling_bench.py "$@" 2>&1 | grep -v "^PASS verify"
