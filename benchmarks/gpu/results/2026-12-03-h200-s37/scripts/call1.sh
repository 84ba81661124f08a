#!/usr/bin/env bash
# Session 37 call 1: cross_entropy_fused with the per-thread online softmax (OnlineSoftmax.h) and
# the gradient pass last block first, against the kernel of 57b01b2 (kernels_old/), each config
# verified first (8x5000 and GPT-2's odd 3x50257), timed at 2048x128256 bf16 out of place as in
# session 36's call 5; ncu's DRAM bytes for the best of each; then torch_ops.py's cross-entropy
# rows (Tessel, Liger-Kernel 0.8.5, torch.compile) at 8192x128256.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
run() { # run DIR VARIANT
  local j=$1/$2.json v1 v2 b
  v1=$(timeout 30 ./tessel-run-gpu $j --target=cuda --shape 8x5000 --dtype bf16 2>&1 | tail -1)
  v2=$(timeout 30 ./tessel-run-gpu ${j/__div8/} --target=cuda --shape 3x50257 --dtype bf16 2>&1 | tail -1)
  b=$(timeout 40 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 --bench --reps 30 2>&1 | grep -E "^bench: median|PASS|FAIL" | tr '\n' ' ')
  echo "$1/$2 | 8x5000: $v1 | 3x50257: $v2 | 2048x128256: $b" | tee -a $o/ce_sweep.txt
}
for j in kernels_old/cross_entropy_fused__bf16__*__div8.json kernels_new/cross_entropy_fused__bf16__*__div8.json; do
  run $(dirname $j) $(basename $j .json)
done
echo "sweep done at $((SECONDS - s)) s"
m="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__occupancy_limit_registers"
for j in kernels_old/cross_entropy_fused__bf16__BLOCK_4096__num_warps_8__div8.json kernels_new/cross_entropy_fused__bf16__BLOCK_4096__num_warps_8__div8.json kernels_new/cross_entropy_fused__bf16__BLOCK_16384__num_warps_32__div8.json; do
  timeout 60 ncu $m -k regex:cross_entropy -c 1 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 > $o/ncu_$(basename $(dirname $j))_$(basename $j .json).txt 2>&1
done
echo "ncu done at $((SECONDS - s)) s"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout $((560 - SECONDS + s)) env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only cross_entropy > $o/torch.txt 2>&1; echo "torch rc=$?"
grep -E "checks|failed|FAIL" $o/torch.txt | tail -3
grep -iE "cross" $o/torch.txt | tail -12
cut -c1-60 $o/ce_sweep.txt | paste -d' ' - <(grep -o "median[^|]*" $o/ce_sweep.txt | cut -c1-60)
for f in $o/ncu_*.txt; do echo "$f"; grep -E "duration|dram__bytes|hit_rate|registers_per|warps_active" $f | awk '{print "  ", $1, $(NF-1), $NF}'; done
