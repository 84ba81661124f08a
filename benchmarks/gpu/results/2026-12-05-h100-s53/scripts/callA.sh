#!/bin/bash
# s53 call A (H100: no H200 could be had): the C++ launcher's host time; gemm_clocks.py (burst
# against sustained time, SM clock, board power; Tessel and cuBLAS) at four M >= 2048 rows with
# session 52's H100 entries (timed in a 20-launch burst); gemm_block_ptr tuned again at those four
# keys with --warm-ms 100; gemm_clocks.py with the warm-tuned entries.
cd "$(dirname "$0")"
mkdir -p $OUT /tmp/s53
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
(cd ../ex && for s in "4096 4096" "100 1000" "33 1003"; do TESSEL_KERNEL_PATH=$PWD/kernels TESSEL_TUNING_CACHE=/nonexistent timeout 10 ./tuned_softmax $s; done) > $OUT/example.txt 2>&1; grep -v "^device" $OUT/example.txt
rows=bf16:8192x28672x4096:bT,bf16:2048x8192x28672:bT,bf16:2048x57344x8192:bT,bf16:8192x4096x14336:bT
export TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16
SECONDS=0
TESSEL_TUNING_CACHE=$PWD/seed_tuning.json timeout 100 python3 gemm_clocks.py --seconds 2 --shapes $rows > $OUT/clocks_burst.txt 2>&1
echo "clocks (burst-tuned) rc=$? in ${SECONDS}s"; cat $OUT/clocks_burst.txt
python3 - <<'PY'
import json, os, shutil
src = "tune/gemm_block_ptr_llm/gemm_block_ptr__bf16"; dst = "/tmp/s53/warm/gemm_block_ptr__bf16"
shutil.rmtree("/tmp/s53/warm", ignore_errors=True); os.makedirs(dst)
m = json.load(open(src + "/manifest.json"))
keep = {(8192, 28672, 4096), (2048, 8192, 28672), (2048, 57344, 8192), (8192, 4096, 14336)}
m["shapes"] = [s for s in m["shapes"] if tuple(s["shape"]) in keep]
print("warm run keys:", [s["shape"] for s in m["shapes"]])
json.dump(m, open(dst + "/manifest.json", "w"))
for f in os.listdir(src):
    if f != "manifest.json":
        os.symlink(os.path.abspath(os.path.join(src, f)), os.path.join(dst, f))
PY
SECONDS=0
timeout 230 bin/tessel-tune-gpu /tmp/s53/warm --cache $OUT/tuning_warm.json --reps 20 --warmup 3 --warm-ms 100 > $OUT/tune_warm.txt 2>&1
echo "tune warm rc=$? in ${SECONDS}s"
grep -E "best|FAIL|error" $OUT/tune_warm.txt | grep -v "^  \[" | sed 's/gemm_block_ptr__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
SECONDS=0
TESSEL_TUNING_CACHE=$OUT/tuning_warm.json timeout 100 python3 gemm_clocks.py --seconds 2 --shapes $rows > $OUT/clocks_warm.txt 2>&1
echo "clocks (warm-tuned) rc=$? in ${SECONDS}s"; cat $OUT/clocks_warm.txt
