#!/bin/bash
# s64 call V: the mask compares shared over constant runs (ConstantRunCmpIConversion). verify.sh
# on every variant of the kernel files whose PTX changed (cross_entropy, layernorm,
# layernorm_backward, rmsnorm, rmsnorm_backward, sampling: the library's configs in f32, f16 and
# bf16 with their twins, odd shapes); then cross_entropy and layernorm's bf16 spaces at the
# benchmark shapes, old (s63's compiler) and new, timed by tessel-tune-gpu --force in two
# rounds of alternating order; ab.py compares them config by config.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0; VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=150 timeout 170 ./verify.sh library > $o/verify.txt 2>&1; echo "verify rc=$? ${SECONDS}s: $(tail -1 $o/verify.txt)"; grep FAIL $o/verify.txt | head -5 | cut -c1-200
for r in 1 2; do
  order="old new"; [[ $r == 2 ]] && order="new old"
  for k in cross_entropy layernorm; do for s in $order; do
    SECONDS=0; timeout 80 ./tessel-tune-gpu tune_$s/${k}__bf16 --force --reps 60 --cache $o/cache_$s.json > $o/tune_${s}_${k}_r$r.txt 2>&1
    echo "r$r $k $s rc=$? ${SECONDS}s: $(grep -c ' ms ' $o/tune_${s}_${k}_r$r.txt) timings"
  done; done
done
python3 ab.py $o | tee $o/ab.txt | tail -12
