#!/usr/bin/env bash
cd "$(dirname "$0")"
exec > >(tee $OUT/call5.txt) 2>&1
pass=0; fail=0
for j in kernels/gemm_stream_k*.json; do
  name=$(basename "$j" .json)
  dt=$(sed 's/^gemm_[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$name")
  opt=""; [[ $name == *__nt ]] && opt="--opt b_order=col"
  for s in 1000x1000x1000 576x264x200 1x128x8 256x4096x4096; do
    for p in "" programs=61; do
      popt=""; [[ -n $p ]] && popt="--opt $p"
      [[ $s == 256x4096x4096 ]] && popt="$popt --opt check_rows=40"
      if msg=$(timeout 30 ./tessel-run-gpu "$j" --shape "$s" --dtype "$dt" $opt $popt --target=cuda --quiet 2>&1); then
        pass=$((pass+1))
      else
        fail=$((fail+1)); echo "FAIL $name $s $p: $(echo "$msg" | head -2)"
      fi
    done
  done
done
echo "verify: $pass passed, $fail failed"
timeout 200 python3 gemm_bench.py --no-triton --reps 40 --large-top 8 --shapes \
  bf16:256x6144x4096:bT,bf16:256x4096x4096:bT,bf16:256x4096x14336:bT,bf16:256x28672x4096:bT,bf16:2048x4096x4096:bT \
  2>&1 | tee $OUT/gemm_bench.txt | tail -9
grep "^  tessel" $OUT/gemm_bench.txt | sed 's/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/^  tessel //' | awk '{print $1, $2, $3, $4, $5}' | tee $OUT/configs.txt
