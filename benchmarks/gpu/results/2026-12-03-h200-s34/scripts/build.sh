#!/bin/bash
# experiment kernels: rmsbw_2dpf / lnbw_2dpf at several (BLOCK, ROWS, num_warps), bf16, sm_90a
set -e
c=/work/main/build/bin/tesselc
for f in rmsbw:rmsbw_2dpf lnbw:lnbw_2dpf; do
  src=${f%%:*}.cpp; k=${f##*:}
  for cfg in "4096 1 16" "4096 1 32" "4096 2 16" "4096 2 32" "4096 4 32" \
             "1024 1 4" "1024 1 8" "1024 2 8" "1024 4 8" "1024 4 16" "1024 8 16" \
             "16384 1 32" "16384 2 32"; do
    set -- $cfg
    $c $src -k $k -D BLOCK=$1 -D ROWS=$2 -D num_warps=$3 --target=cuda:sm_90a --emit=cubin -o k >/dev/null
  done
done
