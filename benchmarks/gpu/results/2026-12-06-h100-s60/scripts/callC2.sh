#!/bin/bash
# s60 call C2: gemm_ce_backward (fused linear cross-entropy's backward windows, whose epilogue
# takes exp) recompiled with session 60's compiler: verify.sh library on its variants, then
# torch_ops.py's cross_entropy and fused_linear_ce (checks, time, peak memory) with call B's cache.
cd "$(dirname "$0")"; o=$OUT/c2; mkdir -p $o
export PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl > /dev/null 2>&1
export TESSEL_TUNING_CACHE=$PWD/tuning_rows.json TESSEL_KERNEL_PATH=$PWD/kernels
SECONDS=0; VERIFY_BATCH=1 VERIFY_FILTER='kernels/gemm_ce_backward__*' timeout 200 ./verify.sh library > $o/verify_gemm_ce_backward.txt 2>&1; echo "verify gemm_ce_backward rc=$? ${SECONDS}s: $(tail -1 $o/verify_gemm_ce_backward.txt)"; grep -i fail $o/verify_gemm_ce_backward.txt | head -5 | cut -c1-200
for only in cross_entropy fused_linear_ce; do
  SECONDS=0; timeout 200 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only $only > $o/torch_$only.txt 2>&1; echo "torch_ops $only rc=$? ${SECONDS}s"
  grep -E "checks, |FAIL|peak|GiB" $o/torch_$only.txt | tail -8
  sed -n '/speed-up of Tessel/,$p' $o/torch_$only.txt | head -12
done
cd $OUT && tar czf /tmp/c2.tgz c2 && rm -rf c2 && mv /tmp/c2.tgz .
