#!/bin/bash
# s61 call B (the machine of calls A1/A2): QuACK installed; the C++ launcher example (its
# runtime now under third_party/nvidia/runtime); session 60's RMSNorm and LayerNorm variants
# (old/, compiled before RematerializeAcrossBarriers) timed beside this session's on the same
# GPU; every row kernel tuned at the benchmark shapes (tessel-tune-gpu: cold L2, median of 100
# event-timed launches, the winner verified), then again (cache hits); the winners timed
# (tuned_rows.py); Triton 3.6, eager, torch.compile (triton_reference.py) and QuACK
# (quack_reference.py) on the same rows; one table. The tuning cache and the tuned variants stay
# in /tmp/s61 for call C.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s61; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; timeout 120 bash ../../q/part2/install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; tail -1 $o/quack_install.txt
rm -rf /tmp/s61/tune && cp -r tune /tmp/s61/tune
(cd ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $o/example.txt 2>&1; echo "example rc=$?"; grep -v "^device" $o/example.txt | tail -6
for k in rmsnorm layernorm; do
  SECONDS=0; timeout 60 bin/tessel-tune-gpu old/${k}__bf16 --cache $o/old.json > $o/old_$k.txt 2>&1
  echo "old $k rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/old_$k.txt | cut -c1-150 | sed 's/, cached in.*//'
done
for k in softmax softmax_looped rmsnorm add_rmsnorm layernorm rope rope_seq_out cross_entropy swiglu geglu vector_add; do
  SECONDS=0
  timeout 90 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//' | tail -3
  cp $o/tuning.json /tmp/s61/tuning.json
done
SECONDS=0; timeout 60 bin/tessel-tune-gpu tune --cache $o/tuning.json > $o/tune_again.txt 2>&1; echo "second run (cache) rc=$? ${SECONDS}s"; tail -1 $o/tune_again.txt; grep -c "cache hit" $o/tune_again.txt
SECONDS=0; timeout 150 python3 tuned_rows.py tune $o/tuning.json > $o/tuned_rows.txt 2>&1; echo "tuned_rows rc=$? ${SECONDS}s rows=$(grep -c ^ROW $o/tuned_rows.txt)"; grep -E "FAIL|^#" $o/tuned_rows.txt | head
SECONDS=0; OUT=$o timeout 200 python3 triton_reference.py > $o/triton.txt 2>&1; echo "triton rc=$? ${SECONDS}s"; tail -2 $o/triton.txt
SECONDS=0; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 150 python3 quack_reference.py > $o/quack.txt 2>&1; echo "quack rc=$? ${SECONDS}s"; tail -3 $o/quack.txt
python3 table.py $o/tuned_rows.txt $o/anchors.json $o/quack.json > $o/table.txt 2>&1; cat $o/table.txt
cd $o && tar czf /tmp/b.tgz . && rm -rf $o/* && mv /tmp/b.tgz $o/
