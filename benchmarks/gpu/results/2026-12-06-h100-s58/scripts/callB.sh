#!/bin/bash
# s58 call B (the machine of call A): QuACK installed; every rmsnorm.cpp variant verified on
# odd shapes on the GPU (session 57's codegen change); the C++ launcher example; every row
# kernel tuned at the benchmark shapes (tessel-tune-gpu: cold L2, median of 100 event-timed
# launches, the winner verified), then again (cache hits); the winners timed (tuned_rows.py).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s58
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; timeout 150 bash ../../q/part2/install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; tail -1 $o/quack_install.txt
SECONDS=0; VERIFY_BATCH=1 VERIFY_FILTER='kernels/*rmsnorm*' timeout 120 ./verify.sh library > $o/verify_rmsnorm.txt 2>&1; echo "verify rmsnorm* rc=$? ${SECONDS}s: $(tail -1 $o/verify_rmsnorm.txt)"; grep FAIL $o/verify_rmsnorm.txt | head -5 | cut -c1-200
(cd ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $o/example.txt 2>&1; grep -v "^device" $o/example.txt | tail -6
for k in softmax softmax_looped rmsnorm add_rmsnorm layernorm rope cross_entropy swiglu vector_add; do
  SECONDS=0
  timeout 100 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? ${SECONDS}s"; grep -E "best|winner|verif|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-170 | tail -3
  cp $o/tuning.json /tmp/s58/tuning.json
done
SECONDS=0; timeout 60 bin/tessel-tune-gpu tune --cache $o/tuning.json > $o/tune_again.txt 2>&1; echo "second run (cache) rc=$? ${SECONDS}s"; tail -3 $o/tune_again.txt
SECONDS=0; timeout 150 python3 tuned_rows.py tune $o/tuning.json > $o/tuned_rows.txt 2>&1; echo "tuned_rows rc=$? ${SECONDS}s rows=$(grep -c ^ROW $o/tuned_rows.txt)"
cp $o/tuned_rows.txt /tmp/s58/
grep -E "^ROW|FAIL|^#" $o/tuned_rows.txt | cut -c1-200
