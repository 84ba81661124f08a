#!/usr/bin/env bash
cd "$(dirname "$0")"
exec > >(tee $OUT/call2.txt) 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader
# The hang of call 1 (persistent 64x128, 6 stages, at 8192^3), now that one producer warp runs the loop.
for s in 8192x8192x8192 8192x8192x4096 4096x4096x8192; do
  for j in kernels/gemm_persistent__bf16__BLOCK_M_64__BLOCK_N_128*warp_specialize_1__nn.json kernels/gemm_block_ptr__bf16__BLOCK_M_64__BLOCK_N_128*warp_specialize_1__nn.json; do
    echo -n "$s $(basename $j .json | sed 's/__HAS_BIAS.*num_warps/ w/'): "
    timeout 60 ./tessel-run-gpu $j --shape $s --dtype bf16 --target=cuda --bench --reps 10 --opt check_rows=16 2>&1 | grep -E "bench: median|FAIL|PASS|error" | tr '\n' ' '; echo " rc=$?"
  done
done
pass=0; fail=0
for j in kernels/gemm_persistent*.json kernels/*cluster_size_2*.json kernels/gemm_block_ptr*warp_specialize_1__n[nt].json; do
  name=$(basename "$j" .json)
  dt=$(sed 's/^gemm_[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$name")
  opt=""; [[ $name == *__nt ]] && opt="--opt b_order=col"
  for s in 1000x1000x1000 576x264x200 200x264x136 1x128x8 1024x512x768; do
    IFS=x read -r M N K <<<"$s"
    if [[ $name == *cluster_size_2* ]] && (( ((M + 127) / 128) * ((N + 127) / 128) % 2 )); then continue; fi
    for p in "" programs=7; do
      [[ $name != gemm_persistent* && -n $p ]] && continue
      popt=""; [[ -n $p ]] && popt="--opt $p"
      if msg=$(timeout 60 ./tessel-run-gpu "$j" --shape "$s" --dtype "$dt" $opt $popt --target=cuda --quiet 2>&1); then
        pass=$((pass+1))
      else
        fail=$((fail+1)); echo "FAIL $name $s $p: $(echo "$msg" | head -2)"
      fi
    done
  done
done
echo "verify: $pass passed, $fail failed"
python3 gemm_bench.py --no-triton --reps 50 --large-top 12 --shapes bf16:4096x4096x4096,bf16:8192x8192x8192,f16:1024x1024x2048 2>&1 | tee $OUT/gemm_bench.txt | tail -8
grep "^  tessel" $OUT/gemm_bench.txt | sed 's/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/__BLOCK_K_64//; s/^  tessel //' | awk '{print $1, $2, $3, $4, $5}'
