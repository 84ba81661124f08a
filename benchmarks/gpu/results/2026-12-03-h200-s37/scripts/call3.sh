#!/usr/bin/env bash
# Session 37 call 3: L2 eviction priorities on cross_entropy_fused (createpolicy + .L2::cache_hint).
# e0 = call 1's kernel (no hints); e1 = pass-1 loads evict_last, pass-2 loads and dlogits stores
# evict_first (the library's now); e2 = only the pass-1 evict_last; e3 = only the pass-2
# evict_first. Each verified (8x5000, and 3x50257 without the __div8 promise), timed at
# 2048x128256 bf16 out of place; ncu for e1's best; torch_ops.py's cross-entropy rows.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
run() { # run JSON
  local j=$1 v1 v2 b
  v1=$(timeout 30 ./tessel-run-gpu $j --target=cuda --shape 8x5000 --dtype bf16 2>&1 | tail -1)
  v2=$(timeout 30 ./tessel-run-gpu ${j/__div8/} --target=cuda --shape 3x50257 --dtype bf16 2>&1 | tail -1)
  b=$(timeout 40 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 --bench --reps 30 2>&1 | grep -E "^bench: median|PASS|FAIL" | tr '\n' ' ')
  echo "$j | 8x5000: $v1 | 3x50257: $v2 | 2048x128256: $b" | tee -a $o/ce_evict.txt
}
V=cross_entropy_fused__bf16__BLOCK
for c in 8192__num_warps_16 4096__num_warps_8; do
  for e in new e1 e2 e3; do run kernels_$e/${V}_${c}__div8.json; done
done
for c in 16384__num_warps_32 2048__num_warps_4; do run kernels_e1/${V}_${c}__div8.json; done
echo "sweep done at $((SECONDS - s)) s"
m="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct"
timeout 60 ncu $m -k regex:cross_entropy -c 1 ./tessel-run-gpu kernels_e1/${V}_8192__num_warps_16__div8.json --target=cuda --shape 2048x128256 --dtype bf16 > $o/ncu_e1.txt 2>&1
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout $((560 - SECONDS + s)) env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only cross_entropy > $o/torch.txt 2>&1; echo "torch rc=$?"
grep -E "checks, " $o/torch.txt | tail -1
grep -E "^  cross_entropy  8192" $o/torch.txt
grep -o "^[^ ]*\|median [0-9.]* ms\|FAIL" $o/ce_evict.txt | paste -s -d' ' | sed 's/ kernels/\nkernels/g'
grep -E "duration|dram__bytes|hit_rate" $o/ncu_e1.txt | awk '{print "  ", $1, $(NF-1), $NF}'
