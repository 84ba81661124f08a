#!/bin/bash
# s54 call 1 (H200): the C++ launcher's host time (examples/tuned_softmax), then what session
# 51's H200 cache lacks: gemm_split_k at the decode keys transposed (__ntt), split-K as written at
# the M = 256 keys, gemm_block_ptr at the M >= 2048 and M = 256 keys it did not reach.
cd "$(dirname "$0")"
mkdir -p $OUT /tmp/s54
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
(cd ../ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $OUT/example.txt 2>&1; grep -v "^device" $OUT/example.txt
cp seed_tuning.json $OUT/tuning.json
short() { grep -E "best|FAIL|error" "$1" | grep -v "^  \[" | sed 's/gemm_split_k__bf16__//; s/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200; }
SECONDS=0
timeout 170 bin/tessel-tune-gpu tune/gemm_split_k_swap --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_swap.txt 2>&1
echo "tune swap rc=$? in ${SECONDS}s"; short $OUT/tune_swap.txt
cp $OUT/tuning.json /tmp/s54/tuning.json
SECONDS=0
timeout 45 bin/tessel-tune-gpu tune/gemm_split_k__bf16 --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_split_k.txt 2>&1
echo "tune split-K rc=$? in ${SECONDS}s"; short $OUT/tune_split_k.txt
cp $OUT/tuning.json /tmp/s54/tuning.json
SECONDS=0
timeout 130 bin/tessel-tune-gpu tune/gemm_block_ptr_llm --cache $OUT/tuning.json --reps 20 --warmup 3 > $OUT/tune_block_ptr.txt 2>&1
echo "tune block_ptr rc=$? in ${SECONDS}s"; short $OUT/tune_block_ptr.txt
cp $OUT/tuning.json /tmp/s54/tuning.json
python3 - <<'PY'
import json, os
d = json.load(open(os.environ["OUT"] + "/tuning.json"))
from collections import Counter
print(Counter((e["device"][:11], e["kernel"], e.get("twin")) for e in d["entries"]))
PY
