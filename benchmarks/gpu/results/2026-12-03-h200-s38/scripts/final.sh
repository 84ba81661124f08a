#!/usr/bin/env bash
# Session 38 final call: prepare.sh at the session's last commit. The changed kernels verified
# (the norms' backward, gemm_ce_backward), then torch_ops.py over every op in one process:
# checks, then forward and forward+backward against eager, torch.compile and Liger-Kernel, and
# fused linear cross-entropy in interleaved rounds.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_FILTER='kernels/*_backward*' timeout 70 bash verify.sh library > $o/verify.txt 2>&1; echo "verify rc=$? at $((SECONDS - s)) s"
timeout 450 env PYTHONPATH=/tmp/lg OUT=$o FLCE_ROUNDS=5 python3 torch_ops.py > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
tail -1 $o/verify.txt; grep FAIL $o/verify.txt | head -5
grep -E "checks, |FAIL" $o/torch.txt | tail -4
sed -n '/^speed-up of Tessel/,$p' $o/torch.txt | head -60
