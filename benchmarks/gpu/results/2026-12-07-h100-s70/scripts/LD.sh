#!/bin/bash
# s70 call L (add_rmsnorm_out tuned at the ops' shapes; layernorm_rows / rmsnorm_rows against
# one row per program at 32768x1000), then s69's call D (the decode rows with the 64x96 split-K space).
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=name --format=csv,noheader
mkdir -p $OUT/L
SECONDS=0; timeout 90 .device/s70/L/bin/tessel-tune-gpu .device/s70/L/tune --cache $OUT/L/tuning.json > $OUT/L/tune.txt 2>&1
echo "L rc=$? ${SECONDS}s"
grep -E "^\s+\[|best" $OUT/L/tune.txt | sed 's/, cached in.*//' | cut -c1-150
TT=${TT:-150} TV=${TV:-90} TS=${TS:-140} bash .device/s69/D/callD.sh
