#!/bin/bash
# s58 call D: tessel.ops on CUDA tensors for the ops without GEMM (torch_ops.py --only: every
# op's output and gradients against float64 PyTorch, then forward and forward+backward against
# PyTorch eager, torch.compile and Liger-Kernel 0.8.5), from prepare.sh's row staging (rp).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl > /dev/null 2>&1
cp torch_ops.py ../rp/ 2>/dev/null; cd ../rp
SECONDS=0; timeout ${T4:-300} env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py ${ONLY:+--only $ONLY} > $o/torch.txt 2>&1; echo "torch_ops rc=$? ${SECONDS}s"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n '/speed-up of Tessel/,$p' $o/torch.txt | head -60
