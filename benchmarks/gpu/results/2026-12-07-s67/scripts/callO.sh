#!/bin/bash
# s66 call O (the machine of calls B and C): tessel.ops on CUDA tensors (torch_ops.py: every op's
# outputs and gradients against float64 PyTorch, then forward and forward+backward against eager,
# torch.compile and Liger-Kernel 0.8.5; fused linear cross-entropy's time and peak memory in
# interleaved rounds) with call B's tuning cache and tuned variants (/tmp/s66, searched after
# kernels/): the row kernels, the norms' and GLUs' backward, rope_flat and rope_seq_out.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl > /dev/null 2>&1
# The ops' other kernels (backward, geglu, rope_flat, rope_seq_out) tuned into call B's cache here:
# call B's carry (its rows and QuACK's first half) leaves no room for them.
mkdir -p /tmp/s66/tune && SECONDS=0 && timeout 150 bin/tessel-tune-gpu X --cache /tmp/s66/tuning.json > $o/tune_ops.txt 2>&1; echo "tune ops rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_ops.txt | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//'
cp -r X/* /tmp/s66/tune/
tuned=$(ls -d /tmp/s66/tune/*__bf16 2>/dev/null | tr '\n' ':')
export TESSEL_TUNING_CACHE=/tmp/s66/tuning.json TESSEL_KERNEL_PATH=$PWD/kernels:${tuned%:}
[[ -f $TESSEL_TUNING_CACHE ]] || { echo "no tuning cache from call B; using none"; export TESSEL_TUNING_CACHE=/nonexistent; }
cp $TESSEL_TUNING_CACHE $o/tuning.json 2>/dev/null
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; timeout ${T:-380} env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py > $o/torch.txt 2>&1; echo "torch_ops rc=$? ${SECONDS}s"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n '/speed-up of Tessel/,$p' $o/torch.txt | head -60
cd $o && tar czf /tmp/o.tgz . && rm -rf $o/* && mv /tmp/o.tgz $o/
