#!/usr/bin/env bash
# Session 39 call 5: the row kernels' warps swept; the norm rows of torch_ops.py with ops
# picking the fewest warps per BLOCK, 1-warp variants at 1024 and rmsnorm_looped added.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 150 python3 row_sweep.py > $o/row_sweep.txt 2>&1; echo "sweep rc=$? at $((SECONDS - s)) s"
timeout 330 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only rms_norm,layer_norm,add_rms_norm > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
cat $o/row_sweep.txt
grep -E "checks, |FAIL" $o/torch.txt | tail -4
sed -n '/^speed-up of Tessel/,$p' $o/torch.txt | head -40
