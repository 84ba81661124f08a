#!/bin/bash
# s72 call L: the library's layernorm with w and b issued early (raw, evict_last) and rsqrt,
# against the kernel before it (old/) in the same run: (1) the new plain variants and __div8
# twins on odd shapes in f32, f16 and bf16; (2) tessel-tune-gpu on both spaces at the three
# rows, alternating, twice; (3) the changed configs A/B with 200 cold-L2 launches, twice;
# (4) Triton (the anchor's kernel), eager and torch.compile at the rows. The binaries are call
# B's: carry .device/s65/B with .device/s72.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,power.limit,driver_version --format=csv,noheader
SECONDS=0
n=0; bad=0
for j in odd/*.json; do
  v=$(basename $j .json); B=$(sed -E 's/.*BLOCK_([0-9]+).*/\1/' <<<$v); dt=$(cut -d_ -f3 <<<$v)
  if [[ $v == *__div8 ]]; then shapes="3x$B 2x$((B / 2 + 8))"; else shapes="3x$((B - 1)) 5x13"; fi
  for s in $shapes; do
    r=$(timeout 20 ../s65/B/tessel-run-gpu $j --problem layernorm --target=cuda --shape $s --dtype $dt --quiet 2>&1 | tail -1)
    n=$((n + 1)); [[ $r == *PASS* ]] || { bad=$((bad + 1)); echo "ODD $v $s: $r"; }
  done
done > $o/odd.txt 2>&1
echo "odd shapes ${SECONDS}s: $((n - bad)) PASS of $n"; cat $o/odd.txt | head -5
SECONDS=0
for r in 1 2; do for side in old new; do
  timeout 60 ../s65/B/bin/tessel-tune-gpu $side/tune --cache $o/tuning_${side}_$r.json > $o/tune_${side}_$r.txt 2>&1
  grep -E "best" $o/tune_${side}_$r.txt | sed -E 's/, cached in.*//; s/^/'"R$r $side"' /' | cut -c1-160
done; done
echo "tuning ${SECONDS}s"
run() { # side BLOCK warps shape
  local j=$1/tune/layernorm__bf16/layernorm__bf16__BLOCK_$2__num_warps_$3__div8.json
  out=$(timeout 20 ../s65/B/tessel-run-gpu $j --problem layernorm --target=cuda --shape $4 --dtype bf16 --bench --reps 200 2>&1)
  echo "$1 $2/$3 $4 $(grep -oE 'PASS|FAIL' <<<"$out" | head -1) $(grep -E '^bench:' <<<"$out" | grep -oE 'median [0-9.]+ ms')"
}
SECONDS=0
for r in 1 2; do
  for nw in 1 2 4; do for side in old new; do echo "R$r $(run $side 1024 $nw 32768x1000)"; done; done
  for nw in 4 8; do for side in old new; do echo "R$r $(run $side 4096 $nw 16384x4096)"; done; done
  for nw in 8 16; do for side in old new; do echo "R$r $(run $side 16384 $nw 4096x16384)"; done; done
done | tee $o/ab.txt
echo "a/b ${SECONDS}s"
SECONDS=0; timeout 200 python3 peers_ln.py > $o/peers.txt 2>&1; echo "peers rc=$? ${SECONDS}s"; grep -E "PEER|Error|error" $o/peers.txt | tail -12
