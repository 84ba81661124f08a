#!/usr/bin/env bash
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
nvidia-smi --query-gpu=name,clocks.max.sm,power.limit,clocks.sm --format=csv > $o/smi_info.txt 2>&1
timeout 300 env PYTHONPATH=/tmp/lg OUT=$o python3 flce_rounds.py 7 8192 4096 > $o/rounds.txt 2>&1; echo "rounds rc=$? at $((SECONDS - s)) s"
timeout 200 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only rope > $o/rope.txt 2>&1; echo "rope rc=$? at $((SECONDS - s)) s"
cat $o/smi_info.txt; grep -v Warning $o/rounds.txt | grep -v _warn_once
grep -E "checks, |^  rope|^rope" $o/rope.txt | tail -12
