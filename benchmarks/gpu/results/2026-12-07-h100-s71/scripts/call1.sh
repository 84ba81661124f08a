#!/bin/bash
# s71 call 1: LayerNorm and RMSNorm orderings (src/ln_exp.cpp): w and b issued early as T and
# widened at their use, evict_last, rsqrt against 1 / sqrt; RMSNorm reading x again after the
# reduction (whole or in chunks); at 32768x1000, 16384x4096, 4096x16384.
# With little device time left: ROUNDS=1 QUICK=1 bash call1.sh (the issues' rows once).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
nvidia-smi --query-gpu=name,clocks.sm,power.limit,driver_version --format=csv,noheader
run() { # run JSON PROBLEM SHAPE
  local v=$1 p=$2 s=$3
  out=$(timeout 20 ./tessel-run-gpu $v --problem $p --target=cuda --shape $s --dtype bf16 --bench --reps 200 2>&1)
  echo "$(basename $v .json) $s $(grep -oE 'PASS|FAIL' <<<"$out" | head -1) $(grep -E '^bench:' <<<"$out" | sed -E 's/bench: //')"
}
SECONDS=0
# The rows the issues name first, two rounds; then the rest once. Each line is written as it
# comes, so that a call cut short still brings back what ran.
for r in ${ROUNDS:-1 2}; do
  for k in rmA rmE; do echo "R$r $(run k/${k}__bf16__BLOCK_16384__num_warps_16__div8.json rmsnorm 4096x16384)"; done
  for k in rmC2 rmC4 rmC8; do echo "R$r $(run k/${k}__bf16__BLOCK_16384__num_warps_4__div8.json rmsnorm 4096x16384)"; done
  echo "R$r $(run k/rmC4__bf16__BLOCK_16384__num_warps_8__div8.json rmsnorm 4096x16384)"
  for k in lnA lnE lnI lnJ; do
    for nw in 1 2; do echo "R$r $(run k/${k}__bf16__BLOCK_1024__num_warps_${nw}__div8.json layernorm 32768x1000)"; done
  done
  for k in rmA rmE rmJ; do
    for nw in 1 2; do echo "R$r $(run k/${k}__bf16__BLOCK_1024__num_warps_${nw}__div8.json rmsnorm 32768x1000)"; done
  done
done >> $o/ab.txt 2>&1
echo "first rounds ${SECONDS}s"
[[ -n $QUICK ]] && { grep -E "PASS|FAIL" $o/ab.txt | cut -c1-150; exit; }
for k in lnA lnJ; do
  echo "R1 $(run k/${k}__bf16__BLOCK_1024__num_warps_4__div8.json layernorm 32768x1000)"
  for nw in 4 8; do echo "R1 $(run k/${k}__bf16__BLOCK_4096__num_warps_${nw}__div8.json layernorm 16384x4096)"; done
  echo "R1 $(run k/${k}__bf16__BLOCK_16384__num_warps_16__div8.json layernorm 4096x16384)"
done >> $o/ab.txt 2>&1
for k in rmC2 rmC8; do echo "R1 $(run k/${k}__bf16__BLOCK_16384__num_warps_8__div8.json rmsnorm 4096x16384)"; done >> $o/ab.txt 2>&1
for k in rmR rmS; do echo "R1 $(run k/${k}__bf16__BLOCK_16384__num_warps_4__div8.json rmsnorm 4096x16384)"; done >> $o/ab.txt 2>&1
echo "R1 $(run k/rmA__bf16__BLOCK_4096__num_warps_8__div8.json rmsnorm 16384x4096)" >> $o/ab.txt 2>&1
for k in rmC2 rmC4; do
  for nw in 2 4; do echo "R1 $(run k/${k}__bf16__BLOCK_4096__num_warps_${nw}__div8.json rmsnorm 16384x4096)"; done
done >> $o/ab.txt 2>&1
echo "sweep ${SECONDS}s"
# The candidates' plain variants on odd shapes (their __div8 twins ran above).
SECONDS=0
for f in k2/*.json; do
  p=rmsnorm; [[ $(basename $f) == ln* ]] && p=layernorm
  b=$(basename $f | sed -E 's/.*BLOCK_([0-9]+).*/\1/')
  [[ $f == *div8* ]] && continue; shapes="5x$((b - 3)) 2x$((b / 2 + 1))"
  for s in $shapes; do
    echo "$(basename $f .json) $s $(timeout 20 ./tessel-run-gpu $f --problem $p --target=cuda --shape $s --dtype bf16 --quiet 2>&1 | tail -1)"
  done
done > $o/odd.txt 2>&1
echo "odd shapes ${SECONDS}s: $(grep -c PASS $o/odd.txt) PASS of $(wc -l < $o/odd.txt)"; grep -v PASS $o/odd.txt | head
grep -c PASS $o/ab.txt; grep -v PASS $o/ab.txt | head
sed -E 's/^R[12] //' $o/ab.txt | sed -E 's/__bf16__BLOCK_/ /; s/__num_warps_/ /; s/__div8//' | sort -k2,2 -k3,3n -k4,4n -k1,1 | cut -c1-160
