#!/usr/bin/env bash
cd "$(dirname "$0")"
for d in base nomc noremote none ctarel; do
  for s in 128x128x8192 1024x1024x2048; do
    printf "%-10s %-16s " $d $s
    ./tessel-run-gpu $d/*__nn.json --shape $s --dtype f16 --target=cuda --bench --reps 30 2>&1 | grep -E "^bench: median|FAIL|PASS" | tr '\n' ' '; echo
  done
done
