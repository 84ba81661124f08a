#!/bin/bash
# Session 30 call 2: radix passes as loops (code 416 -> 122 KB). Harness on odd shapes, the
# cold/warm diagnostic, sampling_bench (do_bench, all rows), single rows as CUDA graphs.
cd "$(dirname "$0")"
log=${OUT:-.}/call2.txt
pass=0; fail=0
for j in kernels/top_k_top_p_mask__*.json; do
  shapes=("12x50257" "1x1" "17x1000 --opt chunks=37" "5x20011 --opt chunks=1" "3x128256 --opt chunks=128" "64x32000" "2x128256 --opt k=128256 --opt chunks=31" "4x3001 --opt k=10 --opt p=0.5" "3x50257 --opt k=50 --opt p=0.9 --opt chunks=16")
  [[ $j == *__div8.json ]] && shapes=("64x32000" "3x128256 --opt chunks=128" "2x128256 --opt k=1000 --opt chunks=16" "4x3008 --opt k=10 --opt p=0.5")
  for s in "${shapes[@]}"; do
    if out=$(./tessel-run-gpu "$j" --shape $s --quiet 2>&1) && [[ $out == *PASS* ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $(basename $j) $s: $out" | head -5 | tee -a "$log"; fi
  done
done
echo "harness on the GPU: $pass passed, $fail failed" | tee -a "$log"
filt() { grep -v "^PASS verify\|warn\|Warn\|Online softmax\|split the reduction\|important use case\|softmax\.$\|^$"; }
timeout 150 python3 -u cold_warm.py 2>&1 | filt > ${OUT:-.}/diag.txt
timeout 300 python3 -u sampling_bench.py 2>&1 | filt | tee -a "$log" > ${OUT:-.}/bench.txt
timeout 100 python3 -u sampling_bench.py --graph --rows 1 2>&1 | filt > ${OUT:-.}/graph.txt
tail -3 $OUT/diag.txt; tail -40 $OUT/bench.txt | cut -c1-130; tail -12 $OUT/graph.txt | cut -c1-130
