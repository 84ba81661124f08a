#!/usr/bin/env bash
# Session 39 call 8: cross_entropy kernels with the folded gradient pass and the sum only under
# label smoothing: every variant verified, the fused kernel's configs timed, torch_ops' CE rows.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_FILTER='kernels/cross_entropy*' timeout 150 bash verify.sh library > $o/verify.txt 2>&1; echo "verify rc=$? at $((SECONDS - s)) s"
timeout 120 python3 ce_sweep.py > $o/ce_sweep.txt 2>&1; echo "sweep rc=$? at $((SECONDS - s)) s"
timeout 300 env PYTHONPATH=/tmp/lg OUT=$o FLCE_ROUNDS=3 python3 torch_ops.py --only cross_entropy,fused_linear_ce > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
tail -1 $o/verify.txt; grep FAIL $o/verify.txt | head -5
sed -n '/^rows  BLOCK/,$p' $o/ce_sweep.txt; grep FAIL $o/ce_sweep.txt | head -3
grep -E "checks, |FAIL" $o/torch.txt | tail -4
grep -E "^  (cross_entropy|fused)" $o/torch.txt
sed -n '/^speed-up of Tessel/,$p' $o/torch.txt | head -20
