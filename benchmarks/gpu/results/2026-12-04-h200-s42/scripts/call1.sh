#!/usr/bin/env bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
pass=0; fail=0
for j in kernels/gemm_persistent*.json; do
  name=$(basename "$j" .json)
  dt=$(sed 's/^gemm_persistent__\([a-z0-9]*\)__.*/\1/' <<<"$name")
  opt=""; [[ $name == *__nt ]] && opt="--opt b_order=col"
  for s in 1000x1000x1000 576x264x200 200x264x136 1x128x8 130x136x24 1024x512x768; do
    for p in "" programs=7; do
      popt=""; [[ -n $p ]] && popt="--opt $p"
      if msg=$(timeout 60 ./tessel-run-gpu "$j" --shape "$s" --dtype "$dt" $opt $popt --target=cuda --quiet 2>&1); then
        pass=$((pass+1))
      else
        fail=$((fail+1)); echo "FAIL $name $s $p: $msg" | head -3
      fi
    done
  done
done
echo "persistent verify: $pass passed, $fail failed"
python3 gemm_bench.py --no-triton --reps 50 --large-top 8 --shapes bf16:4096x4096x4096,bf16:8192x8192x8192,bf16:2048x4096x4096:bT,bf16:8192x4096x4096:bT,f16:1024x1024x2048,bf16:256x6144x4096:bT,bf16:2048x28672x4096:bT 2>&1 | tee $OUT/gemm_bench.txt | grep -v "^  tessel"
grep "^  tessel" $OUT/gemm_bench.txt | sed 's/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/__BLOCK_K_64//' > $OUT/configs.txt
cp gemm_bench.json $OUT/ 2>/dev/null
echo; cat $OUT/configs.txt | head -120
