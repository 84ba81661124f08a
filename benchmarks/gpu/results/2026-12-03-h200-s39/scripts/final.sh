#!/usr/bin/env bash
# Session 39 final call: the staged directory as prepare.sh at 03a100d stages it (the library's
# cross_entropy kernels recompiled, the one-warp row variants, the package at HEAD), then
# torch_ops.py over every op in one process: checks, then forward and forward+backward against
# eager, torch.compile and Liger-Kernel, and fused linear cross-entropy in interleaved rounds.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 400 env PYTHONPATH=/tmp/lg OUT=$o FLCE_ROUNDS=3 python3 torch_ops.py > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
grep -E "checks, |FAIL" $o/torch.txt | tail -4
sed -n '/^speed-up of Tessel/,$p' $o/torch.txt | head -60
