#!/usr/bin/env bash
# Session 40 call 2: the GEMM epilogue in the accumulator's layout (RemoveLayoutConversions'
# sinking, slices of mma layouts), the __tn twins and the window width: every GEMM variant
# verified, the window GEMM and fused linear cross-entropy old against new, GEMM + bias + ReLU.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
GEMM_LARGE=0 timeout 200 bash verify.sh gemm > $o/verify_gemm.txt 2>&1; echo "verify gemm rc=$? at $((SECONDS - s)) s"
VERIFY_FILTER='kernels/gemm_[cs][ew]*' timeout 60 bash verify.sh library > $o/verify_lib.txt 2>&1; echo "verify lib rc=$? at $((SECONDS - s)) s"
timeout 150 python3 flce_explore.py --alt old --cols 3968,3072 --reps 11 > $o/explore.txt 2>&1; echo "explore rc=$? at $((SECONDS - s)) s"
timeout 150 env PYTHONPATH=/tmp/lg python3 flce_ab2.py 7 > $o/ab.txt 2>&1; echo "ab rc=$? at $((SECONDS - s)) s"
timeout 90 python3 gemm_bench.py --shapes bf16:4096x4096x4096:bias_relu,bf16:8192x8192x8192:bias_relu --no-triton --reps 30 > $o/bias_new.txt 2>&1; echo "bias new rc=$? at $((SECONDS - s)) s"
timeout 90 python3 gemm_bench.py --shapes bf16:4096x4096x4096:bias_relu,bf16:8192x8192x8192:bias_relu --no-triton --reps 30 --kernels old > $o/bias_old.txt 2>&1; echo "bias old rc=$? at $((SECONDS - s)) s"
timeout 80 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only fused_linear_ce > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
tail -1 $o/verify_gemm.txt; grep FAIL $o/verify_gemm.txt | head -5
tail -1 $o/verify_lib.txt; grep FAIL $o/verify_lib.txt | head -5
sed -n '/^fastest/,$p' $o/explore.txt; grep -E "^window|FAIL" $o/explore.txt | head -12
cat $o/ab.txt
grep -A6 "^shape\|TFLOP" $o/bias_new.txt | tail -6; grep -A6 "^shape\|TFLOP" $o/bias_old.txt | tail -6
grep -E "checks, |FAIL|fused linear" $o/torch.txt | tail -6
