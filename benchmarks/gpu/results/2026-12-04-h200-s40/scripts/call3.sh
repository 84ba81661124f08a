#!/usr/bin/env bash
# Session 40 call 3 (final): the GEMM variants whose code the epilogue change moved (HAS_BIAS:
# gemm, gemm_block_ptr, gemm_residual; the sm_90a cubins, their __nt and __div8 twins, and
# sm_80 PTX) verified, then torch_ops.py over every op as prepare.sh stages this commit.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
for g in '*HAS_BIAS_true*[0-9].json' '*HAS_BIAS_true*__nt.json' '*HAS_BIAS_true*__div8.json'; do
  GEMM_LARGE=0 GEMM_FILTER="$g" timeout 150 bash verify.sh gemm >> $o/verify_bias.txt 2>&1; echo "verify $g rc=$? at $((SECONDS - s)) s"
done
timeout 420 env PYTHONPATH=/tmp/lg OUT=$o FLCE_ROUNDS=5 python3 torch_ops.py > $o/torch.txt 2>&1; echo "torch rc=$? at $((SECONDS - s)) s"
grep "gpu verify" $o/verify_bias.txt; grep FAIL $o/verify_bias.txt | head -5
grep -E "checks, |FAIL" $o/torch.txt | tail -4
sed -n "/^speed-up of Tessel/,\$p" $o/torch.txt | head -60
