#!/bin/bash
# s70 first call: on an H200, session 66's call B (issue 11's rows tuned; X now holds
# add_rmsnorm_out); on any other card, call L (add_rmsnorm_out tuned at the ops' shapes;
# layernorm_rows / rmsnorm_rows against one row per program at 32768x1000) then s69's call D.
cd "$(dirname "$0")/../.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "card: $name"
if [[ $name == *H200* ]]; then
  bash .device/s65/B/callB.sh
  exit
fi
mkdir -p $OUT/L
SECONDS=0; timeout 90 .device/s70/L/bin/tessel-tune-gpu .device/s70/L/tune --cache $OUT/L/tuning.json > $OUT/L/tune.txt 2>&1
echo "L rc=$? ${SECONDS}s"
grep -E "^\s+\[|best" $OUT/L/tune.txt | sed 's/, cached in.*//' | cut -c1-150
TT=150 TV=90 TS=140 bash .device/s69/D/callD.sh
