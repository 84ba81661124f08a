#!/bin/bash
# s53 call 4 (H100): f16 1024x1024x2048 (A, B row-major: the __nn twins): gemm_split_k and
# gemm_block_ptr tuned at that key, then the op at it and at C7's odd shapes, by the rules
# (no cache) and with the entries, 5 rotated rounds beside cuBLAS.
cd "$(dirname "$0")"
mkdir -p $OUT
export PYTHONUNBUFFERED=1
SECONDS=0
timeout 100 bin/tessel-tune-gpu tune --cache $OUT/tuning.json --reps 40 --warmup 5 > $OUT/tune.txt 2>&1
echo "tune rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune.txt | grep -v "^  \[" | cut -c1-260
python3 - <<'PY'
import json, os
for e in json.load(open(os.environ["OUT"] + "/tuning.json"))["entries"]:
    print(e["kernel"], e["keys"], e["twin"] if "twin" in e else "", round(e["ms"] * 1e3, 2), "us", e["variant"])
PY
rows=f16:1024x1024x2048,f16:1024x1024x2048:bT,f16:1000x999x1001,bf16:1000x999x1001
export TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_split_k__f16:$PWD/tune/gemm_block_ptr__f16
mkdir -p $OUT/rules $OUT/tuned
TESSEL_TUNING_CACHE=/nonexistent OUT=$OUT/rules timeout 120 python3 matmul_bench.py --no-triton --rounds 5 --shapes $rows > $OUT/rules/rows.txt 2>&1; echo "rules rc=$?"
grep -E "rel_err" $OUT/rules/rows.txt | cut -c1-200; sed -n '/^do_bench medians/,$p' $OUT/rules/rows.txt
TESSEL_TUNING_CACHE=$OUT/tuning.json OUT=$OUT/tuned timeout 120 python3 matmul_bench.py --no-triton --rounds 5 --shapes $rows > $OUT/tuned/rows.txt 2>&1; echo "tuned rc=$?"
grep -E "rel_err" $OUT/tuned/rows.txt | cut -c1-200; sed -n '/^do_bench medians/,$p' $OUT/tuned/rows.txt
