#!/usr/bin/env bash
# Session 44, call 8 (staged by stage_call8.sh in a prepare.sh directory).
cd "$(dirname "$0")"; o=$OUT
exec > >(tee $o/call8.txt) 2>&1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
: > batch.txt
for j in kernels/rmsnorm*.json kernels/add_rmsnorm*.json; do
  n=$(basename $j .json); k=${n%%__*}; dt=$(sed 's/^[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$n"); b=$(sed -n 's/.*BLOCK_\([0-9]*\).*/\1/p' <<<"$n")
  if [[ $n == *__div8 ]]; then shapes="3x$((b - 8)) 2x16"; else shapes="3x$((b - 1)) 1x7 2x17"; fi
  [[ $k == *_looped ]] && shapes="3x$((2 * b + 8)) 2x16"
  [[ $k == rmsnorm_dw_reduce ]] && shapes="5x$((b + 8)) 1x16"
  [[ $b == 16384 && $dt == bf16 && $n != *__div8 && $k != *_looped ]] && shapes="$shapes 4096x16384"
  for s in $shapes; do echo "$j --shape $s --dtype $dt --target=cuda --quiet" >> batch.txt; done
done
timeout 200 ./tessel-run-gpu --batch batch.txt > $o/verify.txt 2>&1
echo "verify: $(wc -l < batch.txt) runs, $(grep -c '^=== case .* exit 0' $o/verify.txt) exit 0, $(grep -c '^=== case .* exit [1-9]' $o/verify.txt) failed"
grep -B3 '^=== case .* exit [1-9]' $o/verify.txt | head -20
timeout 300 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only rms_norm,add_rms_norm > $o/torch.txt 2>&1; echo "torch rc=$?"
grep -E "checks, |FAIL" $o/torch.txt | tail -4
grep -E "^  (rms_norm|add_rms_norm) " $o/torch.txt
for ver in old new; do
  d=.; [[ $ver == old ]] && d=old
  (cd $d && PYTHONPATH=/tmp/lg OUT= timeout 200 python3 norm_bench.py --only rms_norm > $o/norm_$ver.txt 2>&1); echo "norm_bench $ver rc $?"
  grep -E "^  rms_norm" $o/norm_$ver.txt
done
