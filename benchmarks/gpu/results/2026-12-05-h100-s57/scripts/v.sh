#!/bin/bash
# s57 call 4: every rmsnorm.cpp variant (the weights loaded with x up to 8 warps and 16
# elements a thread) verified on odd shapes; the final rule's variants timed against the old.
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
SECONDS=0; VERIFY_BATCH=1 VERIFY_FILTER='kernels/*rmsnorm*' timeout 150 ./verify.sh library 2>&1 | tail -8; echo "verify ${SECONDS}s"
run() { out=$(./tessel-run-gpu $1 --target=cuda --shape $2 --dtype bf16 --bench --reps 200 2>&1)
  echo "$(basename $(dirname $1)) $(basename $1 .json | sed 's/rmsnorm__bf16__//') $2 $(grep -oE 'PASS|FAIL' <<<"$out" | head -1) $(sed -nE 's/^bench: median ([0-9.]+) ms.*/\1/p' <<<"$out")"; }
for r in 1; do
  for c in 1024_2 1024_4; do for d in ../x57/ko kernels; do run $d/rmsnorm__bf16__BLOCK_${c%_*}__num_warps_${c#*_}__div8.json 32768x1000; done; done
  for c in 4096_8 4096_16; do for d in ../x57/ko kernels; do run $d/rmsnorm__bf16__BLOCK_${c%_*}__num_warps_${c#*_}__div8.json 16384x4096; done; done
done
