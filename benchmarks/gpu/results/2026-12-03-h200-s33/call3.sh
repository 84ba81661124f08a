#!/usr/bin/env bash
# Session 33 call 3 (run as one command line right after call 2, on the same warm machine):
# torch_ops.py --only fused_linear_ce with the SM clock and power sampled every 200 ms.
cd "$(dirname "$0")"
export PYTHONPATH=/tmp/lg PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 200 > $OUT/clocks_torch_ops.csv &
timeout 130 env OUT=$OUT python3 torch_ops.py --only fused_linear_ce > $OUT/torch_flce.txt 2>&1; echo rc=$?
kill %1
grep -E "FAIL|tessel |liger |eager " $OUT/torch_flce.txt | grep -v PASS | head; grep -c PASS $OUT/torch_flce.txt
