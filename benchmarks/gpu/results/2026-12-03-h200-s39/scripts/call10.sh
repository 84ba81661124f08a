#!/usr/bin/env bash
# Session 39 call 10: cross_entropy's gradient as one fma per element (after review): every
# variant verified, the fused kernel timed at 8192 rows, torch_ops' cross-entropy rows.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_FILTER='kernels/cross_entropy*' timeout 90 bash verify.sh library > $o/verify.txt 2>&1; echo "verify rc=$? at $((SECONDS - s)) s"
timeout 30 python3 ce_sweep.py > $o/ce_sweep.txt 2>&1; echo "sweep rc=$? at $((SECONDS - s)) s"
timeout 90 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only cross_entropy > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
tail -1 $o/verify.txt; grep FAIL $o/verify.txt | head -5
sed -n '/^rows  BLOCK/,$p' $o/ce_sweep.txt; grep -c PASS $o/ce_sweep.txt; grep FAIL $o/ce_sweep.txt | head -3
grep -E "checks, |FAIL" $o/torch.txt | tail -3
grep -E "^  cross_entropy" $o/torch.txt
