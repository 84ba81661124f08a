#!/bin/bash
# s60 call B2 (the machine of calls A1-A2; budget for about 250 s): QuACK installed; the row
# kernels whose tuning takes a few seconds tuned again here (softmax, softmax_looped, rmsnorm,
# add_rmsnorm, layernorm, rope, cross_entropy), the element-wise rows (swiglu, geglu, add) and
# rope_seq_out keeping call B's H100 winners (tuned_rows.py takes each key's newest entry); the
# winners timed, Triton 3.6, eager, torch.compile and QuACK in the same call; table.py. Then ncu
# of RMSNorm 4096x16384 against QuACK (R/callR.sh).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s60; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; timeout 120 bash ../../q/part2/install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; tail -1 $o/quack_install.txt
cp tuning_h100.json $o/tuning.json
for k in softmax softmax_looped rmsnorm add_rmsnorm layernorm rope cross_entropy; do
  SECONDS=0
  timeout 60 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//' | tail -3
done
SECONDS=0; timeout 150 python3 tuned_rows.py tune $o/tuning.json > $o/tuned_rows.txt 2>&1; echo "tuned_rows rc=$? ${SECONDS}s rows=$(grep -c ^ROW $o/tuned_rows.txt)"; grep -E "FAIL|^#" $o/tuned_rows.txt | head
SECONDS=0; OUT=$o timeout 200 python3 triton_reference.py > $o/triton.txt 2>&1; echo "triton rc=$? ${SECONDS}s"; tail -2 $o/triton.txt
SECONDS=0; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 150 python3 quack_reference.py > $o/quack.txt 2>&1; echo "quack rc=$? ${SECONDS}s"; tail -3 $o/quack.txt
python3 table.py $o/tuned_rows.txt $o/anchors.json $o/quack.json > $o/table.txt 2>&1; cat $o/table.txt
timeout 90 bash R/callR.sh
cd $o && tar czf /tmp/b.tgz . && rm -rf $o/* && mv /tmp/b.tgz $o/
