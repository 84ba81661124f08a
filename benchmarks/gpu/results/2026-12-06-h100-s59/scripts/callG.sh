#!/bin/bash
# s59 call G: the norms' and GLUs' backward kernels tuned at the benchmark shapes (added to call
# B's cache of the forward kernels), then torch_ops.py again with that cache: the ops launch the
# tuned configs of forward and backward where the cache has the shape.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s59; export PYTHONUNBUFFERED=1
cp tuning_rows.json $o/tuning.json
for k in rmsnorm_backward add_rmsnorm_backward layernorm_backward swiglu_backward geglu_backward; do
  SECONDS=0; timeout 90 ./tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//' | tail -3
done
rm -rf /tmp/s59/tune && mkdir -p /tmp/s59/tune/fwd__bf16 && cp fwd/* /tmp/s59/tune/fwd__bf16/ && cp -r tune/* /tmp/s59/tune/ && cp $o/tuning.json /tmp/s59/tuning.json
bash ../C/callC.sh > /dev/null 2>&1; cp $OUT/torch.txt $o/ 2>/dev/null
cd $o && sed -n '/speed-up of Tessel/,$p' torch.txt | head -48; grep -E "checks, " torch.txt | tail -1
