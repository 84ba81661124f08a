#!/bin/bash
# s71 quick call: call 1's first round only (RMSNorm 4096x16384 chunked against the library;
# LayerNorm and RMSNorm 32768x1000 orderings), for a lease with little device time left.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,power.limit,driver_version --format=csv,noheader
run() { # run JSON PROBLEM SHAPE
  local v=$1 p=$2 s=$3
  out=$(timeout 20 ./tessel-run-gpu $v --problem $p --target=cuda --shape $s --dtype bf16 --bench --reps 200 2>&1)
  echo "$(basename $v .json) $s $(grep -oE 'PASS|FAIL' <<<"$out" | head -1) $(grep -E '^bench:' <<<"$out" | sed -E 's/bench: //')"
}
SECONDS=0
for k in rmA rmC4 rmC8 rmC2 rmA; do
  nw=4; [[ $k == rmA ]] && nw=16
  echo "$(run k/${k}__bf16__BLOCK_16384__num_warps_${nw}__div8.json rmsnorm 4096x16384)" | tee -a $o/q.txt | cut -c1-150
done
for k in lnA lnJ lnI lnE lnA; do echo "$(run k/${k}__bf16__BLOCK_1024__num_warps_1__div8.json layernorm 32768x1000)" | tee -a $o/q.txt | cut -c1-150; done
for k in rmA rmJ rmA; do echo "$(run k/${k}__bf16__BLOCK_1024__num_warps_1__div8.json rmsnorm 32768x1000)" | tee -a $o/q.txt | cut -c1-150; done
echo "${SECONDS}s"
