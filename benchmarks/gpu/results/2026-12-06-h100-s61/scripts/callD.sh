#!/bin/bash
cd "$(dirname "$0")"
for m in staged new old; do for s in 3x5000 3x5000 7x9000 1x4096 2x12345; do
  echo "== $m $s: $(./tessel-run-gpu $m/cumsum_looped__bf16__BLOCK_4096__num_warps_8__div8.json --shape $s --target=cuda 2>&1 | tr '\n' ' ' | cut -c1-300)"
done; done
for m in new old; do for s in 3x5000 5x7777; do
  echo "== f16 $m $s: $(./tessel-run-gpu $m/cumsum_looped__f16__BLOCK_4096__num_warps_8__div8.json --shape $s --target=cuda 2>&1 | tr '\n' ' ' | cut -c1-300)"
done; done
