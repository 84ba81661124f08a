#!/bin/bash
# Session 28, call 3: + list walks of up to 8 elements per thread, compaction 4 blocks a step,
# top-p digits shared by the bound and the max skipped. Harness problem, then sampling_bench.py.
cd "$(dirname "$0")"
log=${OUT:-.}/call3.txt
pass=0; fail=0
for j in kernels/top_k_top_p_mask__*.json; do
  shapes=("12x50257" "1x1" "17x1000 --opt chunks=37" "5x20011 --opt chunks=1" "3x128256 --opt chunks=128" "64x32000")
  [[ $j == *__div8.json ]] && shapes=("64x32000" "3x128256 --opt chunks=128" "2x128256 --opt k=1000 --opt chunks=16")
  for s in "${shapes[@]}"; do
    if out=$(./tessel-run-gpu "$j" --shape $s --quiet 2>&1) && [[ $out == *PASS* ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $(basename $j) $s: $out" | head -5 | tee -a "$log"; fi
  done
done
echo "harness on the GPU: $pass passed, $fail failed" | tee -a "$log"
python3 sampling_bench.py "$@" 2>&1 | grep -v "^PASS verify\|warn\|Online softmax\|split the reduction\|important use case\|softmax\.$\|^$" | tee -a "$log"
