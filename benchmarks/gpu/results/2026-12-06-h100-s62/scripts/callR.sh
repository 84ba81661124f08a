#!/bin/bash
# s62 call R: rope_flat (the flat RoPE kernel, tables in q's dtype) on a GPU. verify.sh on every
# rope_flat variant (the library's three configs in f32, f16 and bf16 with their __div8 twins,
# and the bf16 tuning space's 17); rope_flat and rope_seq_out tuned at the op's shape
# (8x32/8x4096x128, one shared table); tessel.ops.rope flat against blocks of tokens, eager and
# torch.compile (rope_ab.py, three rotated rounds, both paths verified first).
cd "$(dirname "$0")"; R=$PWD; C=$R/C; o=$OUT; mkdir -p $o /tmp/s62; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
rm -rf /tmp/vk && mkdir -p /tmp/vk/kernels && cp $C/verify.sh $C/tessel-run-gpu /tmp/vk/
cp $C/kernels/rope_flat__* tune/rope_flat__bf16/rope_flat__* /tmp/vk/kernels/
echo "verify: $(ls /tmp/vk/kernels/*.json | wc -l) variants and twins"
SECONDS=0; VERIFY_BATCH=1 timeout 40 /tmp/vk/verify.sh library > $o/verify_rope_flat.txt 2>&1; echo "verify rope_flat rc=$? ${SECONDS}s: $(tail -1 $o/verify_rope_flat.txt)"; grep FAIL $o/verify_rope_flat.txt | head -5 | cut -c1-200
for k in rope_flat rope_seq_out; do
  SECONDS=0; timeout 55 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? ${SECONDS}s"; grep -E "best|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-150 | sed 's/, cached in.*//' | tail -3
done
cp $o/tuning.json /tmp/s62/tuning.json
export TESSEL_TUNING_CACHE=$o/tuning.json TESSEL_KERNEL_PATH=$C/kernels:$R/tune/rope_flat__bf16:$R/tune/rope_seq_out__bf16
cd $C
SECONDS=0; timeout 110 python3 rope_ab.py > $o/rope_ab.txt 2>&1; echo "rope_ab rc=$? ${SECONDS}s"; grep -E "verify|launched|Error" $o/rope_ab.txt | grep -v PASS; sed -n '/^impl/,$p' $o/rope_ab.txt
cd $o && tar czf /tmp/r.tgz . && rm -rf $o/* && mv /tmp/r.tgz $o/
