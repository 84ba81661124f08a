#!/usr/bin/env bash
cd "$(dirname "$0")"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 60 python3 host_overhead.py > $OUT/host_overhead.txt 2>&1; echo host rc=$?
timeout 200 env OUT=$OUT python3 torch_ops.py --only rms_norm,layer_norm,rope > $OUT/torch.txt 2>&1; echo torch rc=$?
head -3 $OUT/host_overhead.txt
grep -E "FAIL|checks," $OUT/torch.txt | head
grep -E "^  (rms_norm|layer_norm|rope) " $OUT/torch.txt | grep -v PASS
