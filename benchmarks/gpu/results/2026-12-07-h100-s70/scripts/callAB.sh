#!/bin/bash
# s70 calls AB and AB2: a compiler change, main (old/) against the change (new/, kernels/). First
# the library variants whose cubins the change alters, verified on odd shapes (verify.sh
# library); then the tuning spaces of KERNELS at the benchmark shapes, old and new in
# alternating order, two rounds, each into its own cache (cold L2, median of event-timed
# launches); everything into $OUT/NAME.tgz.
#   AB  (an element-wise op once per constancy run, 122 variants): bash callAB.sh
#   AB2 (the rematerialization count, 2 variants):       KERNELS=layernorm NAME=ab2 bash callAB.sh
KERNELS=${KERNELS:-layernorm cross_entropy layernorm_backward}; NAME=${NAME:-ab}
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; VERIFY_BATCH=1 timeout ${TV:-150} bash verify.sh library > $o/verify.txt 2>&1
echo "verify rc=$? ${SECONDS}s"; grep FAIL $o/verify.txt | head -5; tail -1 $o/verify.txt
for r in 1 2; do
  for side in old new; do
    [[ $r == 2 ]] && side=$([[ $side == old ]] && echo new || echo old)
    S=$SECONDS; timeout 100 bin/tessel-tune-gpu $side --cache $o/${side}_$r.json > $o/tune_${side}_$r.txt 2>&1
    echo "round $r $side rc=$? $((SECONDS - S))s"
  done
done
for k in $KERNELS; do
  for sh in 4096x16384 16384x4096 32768x1000 8192x128256; do
    for f in $o/tune_*_*.txt; do
      b=$(grep -E "^$k bf16 \[$sh\].*best" $f | sed -E 's/.*best ([^ ]+) \(([0-9.]+) ms\).*/\1 \2/')
      [[ -n $b ]] && echo "$k $sh $(basename $f .txt | sed 's/tune_//'): $b"
    done
  done
done | sed "s/__bf16__/ /"
cd $o && tar czf /tmp/$NAME.tgz . && rm -rf $o/* && mv /tmp/$NAME.tgz $o/
