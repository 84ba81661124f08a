#!/usr/bin/env bash
cd "$(dirname "$0")"
exec > >(tee $OUT/call5.txt) 2>&1
pass=0; fail=0
for j in kernels/*.json; do
  name=$(basename "$j" .json)
  dt=$(sed 's/^gemm_[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$name")
  opt=""; [[ $name == *__nt ]] && opt="--opt b_order=col"
  for s in 1000x1000x1000 576x264x200 200x264x136 1x128x8; do
    IFS=x read -r M N K <<<"$s"
    if [[ $name == *cluster_size_2* ]] && (( ((M + 127) / 128) * ((N + 127) / 128) % 2 )); then continue; fi
    for p in "" programs=7; do
      [[ $name != gemm_persistent* && -n $p ]] && continue
      popt=""; [[ -n $p ]] && popt="--opt $p"
      if msg=$(timeout 30 ./tessel-run-gpu "$j" --shape "$s" --dtype "$dt" $opt $popt --target=cuda --quiet 2>&1); then
        pass=$((pass+1))
      else
        fail=$((fail+1)); echo "FAIL $name $s $p: $(echo "$msg" | head -2)"
      fi
    done
  done
done
echo "verify: $pass passed, $fail failed"
timeout 60 ./tessel-run-gpu kernels/gemm_persistent__bf16__BLOCK_M_64__BLOCK_N_128__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none__num_warps_4__num_stages_6__warp_specialize_1__nn.json --shape 8192x8192x8192 --dtype bf16 --target=cuda --bench --reps 10 --opt check_rows=16 2>&1 | grep -E "PASS|FAIL|median"
python3 gemm_bench.py --no-triton --reps 30 --large-top 12 --shapes bf16:4096x4096x4096,bf16:8192x8192x8192,f16:1024x1024x2048,bf16:8192x4096x4096:bT 2>&1 | tee $OUT/gemm_bench.txt | tail -7
grep "^  tessel" $OUT/gemm_bench.txt | sed 's/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/__BLOCK_K_64//; s/^  tessel //' | awk '{print $1, $2, $3, $4, $5}'
