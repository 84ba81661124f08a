#!/usr/bin/env bash
cd "$(dirname "$0")"
exec > >(tee $OUT/call4.txt) 2>&1
for round in 1; do
  for j in new/gemm_persistent*.json w/*.json; do
    echo -n "r$round $(dirname $j) $(basename $j .json | sed 's/__HAS_BIAS.*num_stages/ st/; s/__BLOCK_K.*//'): "
    timeout 30 ./tessel-run-gpu $j --shape 4096x4096x4096 --dtype bf16 --target=cuda --bench --reps 30 --opt check_rows=8 2>&1 | grep -oE "median [0-9.]+ ms|FAIL"
  done
done
