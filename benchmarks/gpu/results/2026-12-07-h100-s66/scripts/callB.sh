#!/bin/bash
# s66 call B (s65's staging; rope and rope_qk restaged on the (S, D/2) tables): the first half of QuACK's files kept in /tmp (../p1) for call C; rope_qk's library variants verified on odd
# shapes; the C++ launcher example; every row kernel tuned at the benchmark shapes
# (tessel-tune-gpu: cold L2, median of 100 event-timed launches, the winner verified), then the
# whole tree again (cache hits); the winners timed (tuned_rows.py).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s65
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
bash ../q1/keep.sh && ls -la /tmp/quack-part1
(cd ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $o/example.txt 2>&1; grep -v "^device" $o/example.txt | tail -6
SECONDS=0
for k in rope rope_qk softmax softmax_looped rmsnorm add_rmsnorm layernorm cross_entropy swiglu vector_add; do
  S=$SECONDS
  timeout 100 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? $((SECONDS - S))s"; grep -E "best|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-170 | sed 's/, cached in.*//' | tail -3
  cp $o/tuning.json /tmp/s65/tuning.json
done
echo "tuning: ${SECONDS}s"
# The ops' other kernels (backward, geglu, rope_flat, rope_seq_out) into the same cache, for the ops call.
SECONDS=0; [[ -d ../../s66/X ]] && timeout 150 bin/tessel-tune-gpu ../../s66/X --cache $o/tuning.json > $o/tune_ops.txt 2>&1; echo "tune ops rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_ops.txt | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//'
mkdir -p /tmp/s66 && cp $o/tuning.json /tmp/s66/tuning.json && rm -rf /tmp/s66/tune && cp -r tune /tmp/s66/tune && cp -r ../../s66/X/* /tmp/s66/tune/
SECONDS=0; timeout 60 bin/tessel-tune-gpu tune --cache $o/tuning.json > $o/tune_again.txt 2>&1; echo "second run (cache) rc=$? ${SECONDS}s"; tail -3 $o/tune_again.txt
SECONDS=0; timeout 150 python3 tuned_rows.py tune $o/tuning.json > $o/tuned_rows.txt 2>&1; echo "tuned_rows rc=$? ${SECONDS}s rows=$(grep -c ^ROW $o/tuned_rows.txt)"
cp $o/tuned_rows.txt /tmp/s65/
grep -E "^ROW|FAIL|^#" $o/tuned_rows.txt | cut -c1-200
cd $o && tar czf /tmp/b.tgz . && rm -rf $o/* && mv /tmp/b.tgz $o/
