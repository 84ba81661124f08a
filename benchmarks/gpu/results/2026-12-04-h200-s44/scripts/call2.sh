#!/usr/bin/env bash
# Session 44, call 2 (staged by stage_call2.sh).
cd "$(dirname "$0")"; o=$OUT
exec > >(tee $o/call2.txt) 2>&1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
pass=0; fail=0
v() { if msg=$(timeout 60 ./tessel-run-gpu "$@" --target=cuda --quiet 2>&1); then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $*: $(echo "$msg" | head -3)"; fi; }
for j in new/kernels/layernorm*.json new/kernels/rmsnorm*.json; do
  n=$(basename $j .json); k=${n%%__*}; dt=$(sed 's/^[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$n"); b=$(sed -n 's/.*BLOCK_\([0-9]*\).*/\1/p' <<<"$n")
  if [[ $n == *__div8 ]]; then shapes="3x$((b - 8)) 2x16"; else shapes="3x$((b - 1)) 1x7 2x17"; fi
  [[ $k == *_looped ]] && shapes="3x$((2 * b + 8)) 2x16"
  [[ $k == rmsnorm_dw_reduce ]] && shapes="5x$((b + 8)) 1x16"
  [[ $b == 16384 && $dt == bf16 && $n != *__div8 && $k != *_looped ]] && shapes="$shapes 4096x16384"
  for s in $shapes; do v $j --shape $s --dtype $dt; done
done
echo "verify: $pass passed, $fail failed"
for j in new/kernels/layernorm_backward__bf16__BLOCK_16384__num_warps_32.json; do
  for per in 31 16; do
    timeout 60 ./tessel-run-gpu $j --shape 4096x16384 --dtype bf16 --target=cuda --bench --reps 40 --opt rows_per_program=$per | grep -E "^bench|PASS|FAIL" | tail -2
  done
done
for r in 1 2; do
  for ver in old new; do
    (cd $ver && PYTHONPATH=/tmp/lg OUT= timeout 300 python3 norm_bench.py --only layer_norm > $o/norm_${ver}_$r.txt 2>&1); echo "norm_bench $ver round $r rc $?"
    grep -A12 "fwd+bwd" $o/norm_${ver}_$r.txt | head -14
  done
done
echo "== stream-K structure, f16 1024x1024x2048, 128x128 8 warps 4 stages"
b() { local l=$1 j=$2; shift 2
  t=$(timeout 60 ./tessel-run-gpu $j --shape 1024x1024x2048 --dtype f16 --target=cuda --bench --reps 40 "$@" 2>&1 | sed -n 's/^bench: median \([0-9.]*\) ms.*/\1/p')
  printf "%-40s %s ms\n" "$l" "$t"; }
sk=$(ls gemm/gemm_stream_k*.json); pe=$(ls gemm/gemm_persistent*.json); bp=$(ls gemm/gemm_block_ptr*.json)
b "block_ptr (64 CTAs)" $bp
b "stream_k P=64 (whole tiles)" $sk --opt programs=64
b "stream_k P=32 (two whole tiles)" $sk --opt programs=32
b "stream_k P=128 (half tiles)" $sk --opt programs=128
b "stream_k P=96" $sk --opt programs=96
b "persistent P=64" $pe --opt programs=64
b "persistent P=32" $pe --opt programs=32
