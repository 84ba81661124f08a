#!/usr/bin/env bash
# Round 1 (2026-12-01 session 26): pending op checks, MoE, tuning (twice), the C++ example, tuned rows.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*"; }
t ops; timeout 150 python3 ops.py > $o/ops.txt 2>&1; tail -4 $o/ops.txt
grep -E "reduce-3d|reduce_3d|assert" $o/ops.txt | head -8
t moe-verify; VERIFY_FILTER='kernels/moe_routing__*' ./verify.sh library > $o/verify_moe.txt 2>&1; tail -2 $o/verify_moe.txt
t moe-bench; timeout 120 python3 moe_bench.py > $o/moe.txt 2>&1; tail -12 $o/moe.txt
t tune1; rm -f $o/tuning.json
for k in softmax softmax_looped rmsnorm add_rmsnorm layernorm cross_entropy; do
  /usr/bin/time -f "$k tune wall %e s" timeout 150 tn/bin/tessel-tune-gpu tn/tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.log 2>&1
  tail -4 $o/tune_$k.log
done
t tune2
for k in softmax rmsnorm layernorm; do
  /usr/bin/time -f "$k second run wall %e s" tn/bin/tessel-tune-gpu tn/tune/${k}__bf16 --cache $o/tuning.json > $o/tune2_$k.log 2>&1
  tail -2 $o/tune2_$k.log
done
t example
cd example; ./tuned_softmax 4096 4096 > $o/example_default.txt 2>&1; echo "rc=$?"; cat $o/example_default.txt
cd ..; tn/bin/tessel-tune-gpu tex/softmax__f32 --cache $o/tuning_f32.json > $o/tune_f32.log 2>&1; tail -3 $o/tune_f32.log
cd example; TESSEL_TUNING_CACHE=$o/tuning_f32.json TESSEL_KERNEL_PATH=../tex/softmax__f32 ./tuned_softmax 4096 4096 > $o/example_tuned.txt 2>&1; echo "rc=$?"; cat $o/example_tuned.txt
cd ..
cp $o/tuning.json tuning_r1.json; t tuned-rows; python3 tuned_rows.py tn/tune $o/tuning.json > $o/tuned_rows.txt 2>&1; cat $o/tuned_rows.txt
t done
