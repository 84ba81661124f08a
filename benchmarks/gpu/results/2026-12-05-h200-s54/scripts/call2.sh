#!/bin/bash
# s54 call 2 (the machine of call 1): QuACK installed; every row kernel tuned at the benchmark
# shapes (tessel-tune-gpu: cold L2, median of 100 event-timed launches, the winner verified), then
# the same again (cache hits); bench.sh (the library's variants) and tuned_rows.py (the winners),
# each verified before it is timed; the C++ launcher example.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s54
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; timeout 120 bash ../q2/install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; tail -2 $o/quack_install.txt
(cd ../ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $o/example.txt 2>&1; grep -v "^device" $o/example.txt | tail -6
for k in softmax softmax_looped rmsnorm add_rmsnorm layernorm rope rope_seq_out cross_entropy; do
  SECONDS=0
  timeout 100 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? ${SECONDS}s: $(grep -cE '^  ' $o/tune_$k.txt) lines"; grep -E "best|winner|verif|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-180 | tail -4
done
cp $o/tuning.json /tmp/s54/tuning.json
SECONDS=0; timeout 60 bin/tessel-tune-gpu tune --cache $o/tuning.json > $o/tune_again.txt 2>&1; echo "second run (cache) rc=$? ${SECONDS}s"; tail -3 $o/tune_again.txt
SECONDS=0; timeout 200 ./bench.sh > $o/tessel_bench.txt 2>&1; echo "bench.sh rc=$? ${SECONDS}s rows=$(grep -c ^ROW $o/tessel_bench.txt) fail=$(grep -c 'FAIL' $o/tessel_bench.txt)"
SECONDS=0; timeout 120 python3 tuned_rows.py tune $o/tuning.json > $o/tuned_rows.txt 2>&1; echo "tuned_rows rc=$? ${SECONDS}s rows=$(grep -c ^ROW $o/tuned_rows.txt)"
cp $o/tessel_bench.txt $o/tuned_rows.txt /tmp/s54/
grep -E "^ROW|FAIL" $o/tessel_bench.txt $o/tuned_rows.txt | cut -c1-200
