#!/usr/bin/env bash
# Session 36 call 5: cross_entropy_fused's configs (out of place, as tessel.ops.cross_entropy's
# gradient-in-the-forward runs it) at 2048 rows of 128256 bf16 logits, each verified first.
cd "$(dirname "$0")"; o=$OUT
for j in kernels/cross_entropy_fused__bf16__*__div8.json; do
  n=$(basename $j .json)
  v=$(timeout 30 ./tessel-run-gpu $j --target=cuda --shape 8x5000 --dtype bf16 2>&1 | tail -1)
  b=$(timeout 40 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 --bench --reps 30 2>&1 | grep -E "^bench: median|PASS|FAIL" | tr '\n' ' ')
  echo "$n | 8x5000: $v | 2048x128256: $b" | tee -a $o/ce_fused.txt
done
