#!/usr/bin/env bash
# Session 38 call 3: gemm_ce_backward without the 64-bit remainders in its epilogue, verified
# and timed inside fused linear cross-entropy; layer_norm with w reloaded per row in the wide
# backward configs (kernels_ln) against the library's (norm_bench.py, the same process kind).
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_FILTER='kernels/gemm_ce_backward*' timeout 150 bash verify.sh library > $o/verify_gce.txt 2>&1; echo "verify rc=$? at $((SECONDS - s)) s"
timeout 240 env PYTHONPATH=/tmp/lg OUT=$o python3 flce_rounds.py 7 8192 4096 > $o/rounds.txt 2>&1; echo "rounds rc=$? at $((SECONDS - s)) s"
mv $o/smi.csv $o/smi_rounds.csv 2>/dev/null
timeout 200 env PYTHONPATH=/tmp/lg OUT=$o FLCE_ROUNDS=5 python3 torch_ops.py --only fused_linear_ce > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
mkdir -p $o/ln_old $o/ln_new
timeout 120 env PYTHONPATH=/tmp/lg OUT=$o/ln_old TESSEL_KERNEL_PATH=kernels python3 norm_bench.py --only layer_norm > $o/ln_old.txt 2>&1; echo "ln old rc=$? at $((SECONDS - s)) s"
timeout 120 env PYTHONPATH=/tmp/lg OUT=$o/ln_new TESSEL_KERNEL_PATH=kernels_ln:kernels python3 norm_bench.py --only layer_norm > $o/ln_new.txt 2>&1; echo "ln new rc=$? at $((SECONDS - s)) s"
echo "== verify"; tail -1 $o/verify_gce.txt; grep FAIL $o/verify_gce.txt | head
echo "== rounds"; grep -v "Warning\|_warn_once\|gaps\|after " $o/rounds.txt
echo "== torch"; grep -E "checks, |FAIL" $o/torch.txt | tail -5; sed -n "/^fused linear cross-entropy, forward/,/^speed/p" $o/torch.txt | head -9
echo "== ln old"; tail -12 $o/ln_old.txt; echo "== ln new"; tail -12 $o/ln_new.txt
