#!/usr/bin/env bash
# Session 34 call 4: add_rmsnorm(_out) with w loaded after the reduction; rope_seq_out configs.
cd "$(dirname "$0")/../s34"; export PYTHONUNBUFFERED=1
o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
for k in rope_seq_out add_rmsnorm_out add_rmsnorm; do
  VERIFY_FILTER="kernels/${k}__*" timeout 120 ./verify.sh library 2>&1 | grep -E "FAIL|library variants" | sed "s/^/$k: /"
done > $o/verify.txt
{
for j in kernels/rope_seq_out__bf16__HALF_64__*__div8.json; do
  echo "== $j"; ./tessel-run-gpu $j --problem rope_seq_out --shape 8x32x8x4096x128 --bench --reps 100 2>&1 | grep -E "seq_out bf16|bench"
done
for j in kernels/add_rmsnorm_out__bf16__BLOCK_16384__num_warps_16__div8.json; do
  echo "== $j"; ./tessel-run-gpu $j --shape 4096x16384 --bench --reps 100 2>&1 | grep -E "PASS|FAIL|bench"
done
} > $o/kb.txt 2>&1
timeout 200 env OUT=$o python3 torch_ops.py --only add_rms_norm,rope > $o/torch.txt 2>&1; echo torch rc=$?
echo "== summary"
cat $o/verify.txt
grep -E "^==|bench" $o/kb.txt | sed 's/ over 100 launches.*GB\/s/ GB\/s/' | cut -c1-200
grep -E "^  (add_rms|rope).*(tessel|eager|compile|liger) " $o/torch.txt | grep -v PASS
grep "checks," $o/torch.txt
