#!/usr/bin/env bash
# Session 39 call 1: where a norm's forward + backward step spends its time (host vs kernels),
# and the split-K tiles at 1024x1024x2048.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.draw --format=csv > $o/smi.txt
timeout 200 env PYTHONPATH=/tmp/lg OUT=$o python3 norm_step_profile.py > $o/norm_profile.txt 2>&1; echo "profile rc=$? at $((SECONDS - s)) s"
timeout 200 env OUT=$o python3 matmul_bench.py --explore --shapes f16:1024x1024x2048,bf16:1024x1024x2048,f16:1024x1024x2048:bT > $o/matmul.txt 2>&1; echo "matmul rc=$? at $((SECONDS - s)) s"
sed -n '/^op         shape/,$p' $o/norm_profile.txt
grep -E "^[a-z0-9]+:|us  |do_bench us|verification" $o/matmul.txt | head -60
