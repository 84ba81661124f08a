#!/usr/bin/env bash
# final round: host overhead, FLCE profile, rope_out kernel GB/s, the package's full checks + timing
cd "$(dirname "$0")"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader > $OUT/gpu.txt
timeout 60 python3 host_overhead.py > $OUT/host_overhead.txt 2>&1; echo host rc=$?
timeout 120 python3 flce_profile.py > $OUT/flce_profile.txt 2>&1; echo flce rc=$?
for v in rope_out__bf16__HALF_64__BLOCK_H_32__num_warps_4 rope_out__bf16__HALF_64__BLOCK_H_32__num_warps_8; do
  timeout 40 ./tessel-run-gpu kernels/${v}__div8.json --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --bench --reps 100 --opt cos=shared 2>&1 | grep -E "FAIL|bench:|PASS$" | sed "s/^/$v: /" >> $OUT/rope_out.txt
done
timeout 420 env OUT=$OUT python3 torch_ops.py > $OUT/torch.txt 2>&1
echo torch rc=$?
cat $OUT/host_overhead.txt | head -8
cat $OUT/rope_out.txt
grep -E "FAIL|checks," $OUT/torch.txt | head -10
grep -A200 "^timing" $OUT/torch.txt | grep -v "PASS" | grep -v "^  [a-z_ (]*[0-9]" 
grep "memory GiB" $OUT/flce_profile.txt
