#!/usr/bin/env bash
# Call 4 (session 27), in a directory made by prepare.sh with h31 merged (9f75208's build for
# the sampling kernels, added by hand): the op replays (scan-layouts among them), the
# warp-specialized bf16 TMA twins through verify.sh (its odd8 case has fewer K steps than ring
# stages), and the tessel package's checks (torch_ops.py --quick). Each part under a timeout;
# logs under $OUT. (sampling_bench.py ran in call 3 on the same kernel source.)
cd "$(dirname "$0")"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 150 python3 ops.py > $OUT/ops.txt 2>&1; echo "ops rc=$?"
GEMM_FILTER='kernels/gemm_block_ptr__bf16__*warp_specialize_1__n[nt].json' timeout 150 \
  ./verify.sh gemm > $OUT/verify_ws.txt 2>&1; echo "verify_ws rc=$?"
timeout 300 env OUT=$OUT python3 torch_ops.py --quick > $OUT/torch_quick.txt 2>&1; echo "torch rc=$?"
grep -E "^ops:|FAIL" $OUT/ops.txt | head -8
grep -E "FAIL|variants:" $OUT/verify_ws.txt | head -8
grep -E "FAIL|checks," $OUT/torch_quick.txt | head -8
