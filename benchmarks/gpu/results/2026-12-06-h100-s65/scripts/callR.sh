#!/bin/bash
# s65 call R (the RoPE row alone, for a short lease): rope_qk's library variants verified on odd
# shapes on the GPU; rope and rope_qk tuned at the row's shape (tessel-tune-gpu: cold L2, median
# of 100 event-timed launches, winner verified); both winners timed as tuned_rows.py times rows;
# then the row's Triton kernel and torch.compile in the same call (ncu_peers.py --bench:
# do_bench as the anchor); the tuned rows once more after them.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o /tmp/s65
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version --format=csv,noheader
SECONDS=0
for j in rq/rope_qk__*.json; do
  h=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['config'].get('HALF', 64))" $j)
  dt=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['dtype'] or 'f32')" $j)
  for s in "2x3x1x37x$((2 * h))" "2x4x8x16x$((2 * h)) --opt layout=bshd --opt table=half"; do
    echo "== $(basename $j) $s: $(timeout 30 ./tessel-run-gpu $j --target=cuda --dtype $dt --shape $s --quiet 2>&1 | tail -1)"
  done
done > $o/verify_rope_qk.txt 2>&1
echo "verify rope_qk ${SECONDS}s: $(grep -c 'PASS$' $o/verify_rope_qk.txt) PASS, $(grep -vc 'PASS$' $o/verify_rope_qk.txt) other"; grep -v 'PASS$' $o/verify_rope_qk.txt | head -5
for k in rope rope_qk; do
  S=$SECONDS; timeout 60 bin/tessel-tune-gpu tune/${k}__bf16 --cache $o/tuning.json > $o/tune_$k.txt 2>&1
  echo "tune $k rc=$? $((SECONDS - S))s"; grep -E "best|FAIL|error" $o/tune_$k.txt | grep -v "^  \[" | cut -c1-170 | sed 's/, cached in.*//'
done
mkdir -p /tmp/rt/tune && cp -r tune/rope__bf16 tune/rope_qk__bf16 /tmp/rt/tune/
timeout 60 python3 tuned_rows.py /tmp/rt/tune $o/tuning.json > $o/tuned_rows_1.txt 2>&1; grep -E "^ROW|FAIL" $o/tuned_rows_1.txt
SECONDS=0; timeout 120 python3 ncu_peers.py rope --bench > $o/peers_rope.txt 2>&1; echo "peers rope rc=$? ${SECONDS}s"; grep ^bench $o/peers_rope.txt
timeout 60 python3 tuned_rows.py /tmp/rt/tune $o/tuning.json > $o/tuned_rows_2.txt 2>&1; grep -E "^ROW|FAIL" $o/tuned_rows_2.txt
grep -h "^  \[" $o/tune_rope_qk.txt | head -20
cp $o/tuning.json /tmp/s65/tuning.json
cd $o && tar czf /tmp/r.tgz . && rm -rf $o/* && mv /tmp/r.tgz $o/
