#!/usr/bin/env bash
# Call 5 (session 27): the eager autograd.Function path of tessel.torch_ops (no custom-op
# dispatch outside torch.compile): host time per call, and the op timings of torch_ops.py for
# the norms and SwiGLU (checks first). Logs under $OUT.
cd "$(dirname "$0")"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 90 python3 host_overhead.py > $OUT/host_overhead.txt 2>&1; echo "host rc=$?"
timeout 300 env OUT=$OUT python3 torch_ops.py --only rms_norm,layer_norm,swiglu > $OUT/torch.txt 2>&1; echo "torch rc=$?"
head -8 $OUT/host_overhead.txt
grep -E "FAIL|checks," $OUT/torch.txt | head
grep -E "^  (rms_norm|layer_norm|add_rms_norm|swiglu) " $OUT/torch.txt | grep -v PASS
