#!/usr/bin/env bash
# Session 40 call 1: fused linear cross-entropy's products and kernels over every variant
# (flce_explore.py), then the op end to end with the window width and the hoisted window GEMM
# (flce_ab.py), against Liger-Kernel.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 300 python3 flce_explore.py --kernels extra --alt extra_gce > $o/explore.txt 2>&1; echo "explore rc=$? at $((SECONDS - s)) s"
timeout 200 env PYTHONPATH=/tmp/lg python3 flce_ab.py 5 > $o/ab.txt 2>&1; echo "ab rc=$? at $((SECONDS - s)) s"
sed -n '/^fastest/,$p' $o/explore.txt; grep FAIL $o/explore.txt | head; tail -3 $o/explore.txt | grep -i error
cat $o/ab.txt | tail -20
