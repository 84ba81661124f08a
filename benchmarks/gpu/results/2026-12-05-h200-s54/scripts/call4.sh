#!/bin/bash
# s54 call 4 (the machine of calls 1-3): tessel.ops on CUDA tensors (torch_ops.py: every op's
# output and gradients against float64 PyTorch, then forward and forward+backward against
# PyTorch eager, torch.compile and Liger-Kernel 0.8.5; fused linear cross-entropy's time and
# peak memory).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl > /dev/null 2>&1
SECONDS=0; timeout ${T4:-540} env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py ${ONLY:+--only $ONLY} > $o/torch.txt 2>&1; echo "torch_ops rc=$? ${SECONDS}s"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n '/speed-up of Tessel/,$p' $o/torch.txt | head -60
