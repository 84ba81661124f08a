#!/usr/bin/env bash
# Session 31 call 1, in a directory made by prepare.sh at fd39c71: issue 14's acceptance at HEAD
# (op replays, cumsum, MoE routing, the sampling mask on odd shapes and beside torch), then every
# non-GEMM library variant on odd shapes (verify.sh library) in the time left.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
nvidia-smi --query-gpu=name,clocks.max.sm,clocks.max.mem --format=csv,noheader | tee $o/gpu.txt
t ops; timeout 120 python3 ops.py > $o/ops.txt 2>&1; echo "rc=$?" >> $o/ops.txt; tail -3 $o/ops.txt | tee -a $o/log.txt
t cumsum; timeout 90 python3 cumsum_bench.py > $o/cumsum.txt 2>&1; tail -8 $o/cumsum.txt | tee -a $o/log.txt
t moe; timeout 90 python3 moe_bench.py > $o/moe.txt 2>&1; tail -8 $o/moe.txt | tee -a $o/log.txt
t sampling-harness
pass=0; fail=0
for j in kernels/top_k_top_p_mask__*.json; do
  shapes=("12x50257" "1x1" "17x1000 --opt chunks=37" "5x20011 --opt chunks=1" "3x128256 --opt chunks=128" "64x32000" "2x128256 --opt k=128256 --opt chunks=31" "4x3001 --opt k=10 --opt p=0.5" "3x50257 --opt k=50 --opt p=0.9 --opt chunks=16")
  [[ $j == *__div8.json ]] && shapes=("64x32000" "3x128256 --opt chunks=128" "2x128256 --opt k=1000 --opt chunks=16" "4x3008 --opt k=10 --opt p=0.5")
  for sh in "${shapes[@]}"; do
    if out=$(timeout 30 ./tessel-run-gpu "$j" --target=cuda --shape $sh --quiet 2>&1) && [[ $out == *PASS* ]]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $(basename $j) $sh: $out" | head -5 >> $o/sampling_harness.txt; fi
  done
done
echo "sampling harness on the GPU: $pass passed, $fail failed" | tee -a $o/sampling_harness.txt $o/log.txt
t sampling-bench
filt() { grep -v "^PASS verify\|warn\|Warn\|Online softmax\|split the reduction\|important use case\|softmax\.$\|^$"; }
timeout 220 python3 -u sampling_bench.py 2>&1 | filt > $o/sampling_bench.txt; tail -4 $o/sampling_bench.txt | tee -a $o/log.txt
left=$((555 - (SECONDS - s)))
t "verify library ($left s)"
timeout $left ./verify.sh library > $o/verify_library.txt 2>&1; echo "rc=$?" >> $o/verify_library.txt
tail -4 $o/verify_library.txt | tee -a $o/log.txt
t done
