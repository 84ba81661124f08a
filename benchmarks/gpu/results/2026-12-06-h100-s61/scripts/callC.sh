#!/bin/bash
# s61 call C (the machine of call B): this session's compiler across the library. tessel.ops
# on CUDA tensors (torch_ops.py: every op's outputs and gradients against float64 PyTorch, then
# forward and forward + backward against eager, torch.compile and Liger-Kernel 0.8.5; fused
# linear cross-entropy's time and peak memory) with call B's tuning cache and tuned variants
# (/tmp/s61, searched after kernels/); then verify.sh library (every non-GEMM library variant
# on odd shapes, tessel-run-gpu as rebuilt after the runtime move) and the cases. GEMM cubins
# are session 59's (prepare.sh here ran without GEMM: 20 minutes on 2 cores; GEMM's codegen
# has no f16 / bf16 row widened across a barrier).
cd "$(dirname "$0")/C"; o=$OUT/c; mkdir -p $o
export PYTHONUNBUFFERED=1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl > /dev/null 2>&1
tuned=$(ls -d /tmp/s61/tune/*__bf16 2>/dev/null | tr '\n' ':')
export TESSEL_TUNING_CACHE=/tmp/s61/tuning.json TESSEL_KERNEL_PATH=$PWD/kernels:${tuned%:}
[[ -f $TESSEL_TUNING_CACHE ]] || { echo "no tuning cache from call B; using none"; export TESSEL_TUNING_CACHE=/nonexistent; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; timeout 200 env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py > $o/torch.txt 2>&1; echo "torch_ops rc=$? ${SECONDS}s"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n '/speed-up of Tessel/,$p' $o/torch.txt | head -60
SECONDS=0; VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=230 timeout 250 ./verify.sh library > $o/verify_library.txt 2>&1; echo "verify library rc=$? ${SECONDS}s: $(tail -1 $o/verify_library.txt)"; grep -i fail $o/verify_library.txt | head -8 | cut -c1-200
SECONDS=0; VERIFY_BATCH=1 timeout 60 ./verify.sh cases > $o/verify_cases.txt 2>&1; echo "verify cases rc=$? ${SECONDS}s: $(tail -1 $o/verify_cases.txt)"; grep -i fail $o/verify_cases.txt | head -5 | cut -c1-200
cd $OUT && tar czf /tmp/c.tgz c && rm -rf c && mv /tmp/c.tgz .
