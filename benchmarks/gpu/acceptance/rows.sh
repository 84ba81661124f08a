#!/usr/bin/env bash
# Issue 11's rows (carry the staged rows/ and q1/; 133 s on an H100, at most 570): QuACK's
# first half kept in /tmp for peers.sh; layernorm's plain variants and __div8 twins on odd
# shapes in f32, f16 and bf16; the C++ launcher example at three shapes; the row kernels tuned at the
# benchmark shapes (tessel-tune-gpu: cold L2, median of event-timed launches, each winner
# verified), then the whole tree again (cache hits, no compiles); the winners timed as bench.sh
# times a row (tuned_rows.py). Leaves /tmp/acc/{tuning.json,tune,tuned_rows.txt}.
cd "$(dirname "$0")" || exit 1
[[ -f payload.tgz ]] && tar xzf payload.tgz # the staged files, packed by stage.sh
o=$OUT && s=/tmp/acc && mkdir -p "$o" $s
start=$(date +%s)
until_s() { # until_s T: seconds left until T seconds after the start (at least 5), for a timeout
  local l=$(($1 - ($(date +%s) - start)))
  echo $((l > 5 ? l : 5))
}
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version \
  --format=csv,noheader
[[ -d ../q1 ]] && bash ../q1/keep.sh # /tmp/quack-part1, for peers.sh
SECONDS=0 n=0 bad=0
for j in odd/*.json; do
  (($(until_s 150) > 5)) || { echo "ODD: stopped at 150 s, before $j" && bad=$((bad + 1)) && break; }
  v=$(basename "$j" .json) && dt=$(cut -d_ -f3 <<<"$v") && B=$(sed -E 's/.*BLOCK_([0-9]+).*/\1/' <<<"$v")
  if [[ $v == *__div8 ]]; then shapes="3x$B 2x$((B / 2 + 8))"; else shapes="3x$((B - 1)) 5x13"; fi
  for shape in $shapes; do
    r=$(timeout 20 ./tessel-run-gpu "$j" --problem layernorm --target=cuda --shape "$shape" --dtype "$dt" \
      --quiet 2>&1 | tail -1)
    n=$((n + 1)) && [[ $r == *PASS* ]] || { bad=$((bad + 1)) && echo "ODD $v $shape: $r"; }
  done
done >"$o/odd.txt" 2>&1
echo "layernorm odd shapes (${SECONDS}s): $((n - bad)) of $n PASS" | tee -a "$o/odd.txt"
head -5 "$o/odd.txt"
(cd ex && for shape in "4096 4096" "100 1000" "33 1003"; do
  TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $shape
done) >"$o/example.txt" 2>&1
grep -v "^device" "$o/example.txt" | tail -6
SECONDS=0
for k in rope rope_qk softmax softmax_looped rmsnorm add_rmsnorm layernorm cross_entropy swiglu vector_add; do
  t=$SECONDS
  l=$(until_s 380) && ((l > 100)) && l=100 # the tuning ends by 380 s, tuned_rows.py's time kept
  timeout $l bin/tessel-tune-gpu "tune/${k}__bf16" --cache "$o/tuning.json" >"$o/tune_$k.txt" 2>&1
  echo "tune $k rc=$? $((SECONDS - t))s"
  grep -E "best|FAIL|error" "$o/tune_$k.txt" | grep -v "^  \[" | cut -c1-170 | sed 's/, cached in.*//' | tail -3
  cp "$o/tuning.json" $s/tuning.json
done
echo "tuning: ${SECONDS}s"
rm -rf $s/tune && cp -r tune $s/tune
SECONDS=0
timeout "$(until_s 420)" bin/tessel-tune-gpu tune --cache "$o/tuning.json" >"$o/tune_again.txt" 2>&1
echo "second run (cache) rc=$? ${SECONDS}s" && tail -3 "$o/tune_again.txt"
SECONDS=0
timeout "$(until_s 570)" python3 tuned_rows.py tune "$o/tuning.json" >"$o/tuned_rows.txt" 2>&1
echo "tuned_rows rc=$? ${SECONDS}s rows=$(grep -c ^ROW "$o/tuned_rows.txt")"
cp "$o/tuned_rows.txt" $s/
grep -E "^ROW|FAIL|^#" "$o/tuned_rows.txt" | cut -c1-200
cd "$o" && tar czf /tmp/rows.tgz . && rm -rf "${o:?}"/* && mv /tmp/rows.tgz "$o/"
