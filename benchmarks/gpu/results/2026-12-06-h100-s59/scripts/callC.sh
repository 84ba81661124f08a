#!/bin/bash
# s59 call C (the machine of calls A-B): tessel.ops on CUDA tensors (torch_ops.py: every op's
# output and gradients against float64 PyTorch, then forward and forward+backward against
# PyTorch eager, torch.compile and Liger-Kernel 0.8.5; fused linear cross-entropy's time and
# peak memory), with call B's tuning cache and its tuning directories on the kernel path (the
# ops launch the tuned config where the cache has the shape, their rules elsewhere).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl > /dev/null 2>&1
if [[ -f /tmp/s59/tuning.json ]]; then
  export TESSEL_TUNING_CACHE=/tmp/s59/tuning.json
  export TESSEL_KERNEL_PATH=$PWD/kernels:$(ls -d /tmp/s59/tune/*__bf16 | paste -sd:)
  cp /tmp/s59/tuning.json $o/tuning_used.json
else echo "no tuning cache from call B: the ops' rules"; fi
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; timeout ${T4:-540} env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py ${ONLY:+--only $ONLY} > $o/torch.txt 2>&1; echo "torch_ops rc=$? ${SECONDS}s"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n '/speed-up of Tessel/,$p' $o/torch.txt | head -60
