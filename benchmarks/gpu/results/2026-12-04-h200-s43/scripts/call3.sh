#!/usr/bin/env bash
cd "$(dirname "$0")"
exec > >(tee $OUT/call3.txt) 2>&1
pass=0; fail=0
for j in kernels/*.json; do
  name=$(basename "$j" .json)
  for s in 1000x1000x1000 576x264x200 1x128x8 256x4096x4096; do
    popt=""; [[ $s == 256x4096x4096 ]] && popt="--opt check_rows=40"
    if msg=$(timeout 30 ./tessel-run-gpu "$j" --shape "$s" --dtype bf16 --opt b_order=col $popt --target=cuda --quiet 2>&1); then
      pass=$((pass+1))
    else
      fail=$((fail+1)); echo "FAIL $name $s: $(echo "$msg" | head -2)"
    fi
  done
done
echo "verify: $pass passed, $fail failed"
timeout 200 python3 gemm_bench.py --no-triton --reps 40 --shapes \
  bf16:256x6144x4096:bT,bf16:256x4096x4096:bT,bf16:256x4096x14336:bT,bf16:1x4096x4096:bT,bf16:16x6144x4096:bT,bf16:64x4096x4096:bT,bf16:1x6144x4096:bT \
  2>&1 | tee $OUT/gemm_bench.txt | tail -7
grep "^  tessel" $OUT/gemm_bench.txt | sed 's/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/^  tessel //' | awk '{print $1, $2, $3, $4, $5}' > $OUT/configs.txt
cat $OUT/configs.txt
