#!/usr/bin/env bash
cd "$(dirname "$0")"
exec > >(tee $OUT/call6.txt) 2>&1
pass=0; fail=0
for j in kernels/gemm_stream_k*.json; do
  for s in 576x264x200 256x4096x4096; do
    for p in "" programs=61; do
      popt=""; [[ -n $p ]] && popt="--opt $p"
      [[ $s == 256x4096x4096 ]] && popt="$popt --opt check_rows=40"
      if msg=$(timeout 30 ./tessel-run-gpu "$j" --shape "$s" --dtype bf16 --opt b_order=col $popt --target=cuda --quiet 2>&1); then
        pass=$((pass+1))
      else
        fail=$((fail+1)); echo "FAIL $(basename $j) $s $p: $(echo "$msg" | head -2)"
      fi
    done
  done
done
echo "verify: $pass passed, $fail failed"
timeout 100 python3 gemm_bench.py --no-triton --reps 40 --shapes \
  bf16:256x6144x4096:bT,bf16:256x4096x14336:bT 2>&1 | tee $OUT/gemm_bench.txt | tail -5
grep "^  tessel" $OUT/gemm_bench.txt | sed 's/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/^  tessel //' | awk '{print $1, $2, $3, $4, $5}' | tee $OUT/configs.txt
