#!/bin/bash
# s53 call 1 (asked for an H200, ran on an H100): tune what session 51's H200 cache lacks: gemm_split_k at the 16 decode keys
# transposed (__ntt), split-K as written at the M = 256 keys it did not reach, gemm_block_ptr at
# the 2 M >= 2048 keys it did not reach and the 4 M = 256 keys. 20 timed launches after 3, cold L2.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
cp seed_tuning.json $OUT/tuning.json
short() { grep -E "best|FAIL|error" "$1" | grep -v "^  \[" | sed 's/gemm_split_k__bf16__//; s/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200; }
SECONDS=0
timeout 200 bin/tessel-tune-gpu tune/gemm_split_k_swap --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_swap.txt 2>&1
echo "tune swap rc=$? in ${SECONDS}s"; short $OUT/tune_swap.txt
SECONDS=0
timeout 60 bin/tessel-tune-gpu tune/gemm_split_k__bf16 --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_split_k.txt 2>&1
echo "tune split-K rc=$? in ${SECONDS}s"; short $OUT/tune_split_k.txt
SECONDS=0
timeout 140 bin/tessel-tune-gpu tune/gemm_block_ptr_llm --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_block_ptr.txt 2>&1
echo "tune block_ptr rc=$? in ${SECONDS}s"; short $OUT/tune_block_ptr.txt
mkdir -p /tmp/s53 && cp $OUT/tuning.json /tmp/s53/tuning.json
python3 - <<'PY'
import json, os
d = json.load(open(os.environ["OUT"] + "/tuning.json"))
from collections import Counter
print(Counter((e["device"][:11], e["kernel"], e.get("twin")) for e in d["entries"]))
PY
