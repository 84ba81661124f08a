#!/usr/bin/env bash
# Round 3: GEMM tuning (TMA kernel) + winners beside cuBLAS/Triton; rope candidates; ncu of the rows below 1.0.
cd "$(dirname "$0")/../r26"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*"; }
t gemm-tune
for d in ../r26g/tune/gemm_block_ptr__bf16 ../r26g/tune/gemm_block_ptr__f16; do
  /usr/bin/time -f "$(basename $d) tune wall %e s" timeout 200 tn/bin/tessel-tune-gpu $d --cache $o/tuning_gemm.json > $o/$(basename $d).log 2>&1
  grep -E "best|wall|error" $o/$(basename $d).log | grep -v "^  \[" | tail -4
done
/usr/bin/time -f "second run %e s" tn/bin/tessel-tune-gpu ../r26g/tune/gemm_block_ptr__bf16 --cache $o/tuning_gemm.json 2>&1 | tail -2
python3 - "$o/tuning_gemm.json" <<'PY'
import json, os, shutil, sys
os.makedirs("tuned_gemm", exist_ok=True)
for e in json.load(open(sys.argv[1]))["entries"]:
    d = f"../r26g/tune/{e['kernel']}__{e['dtype']}"
    for f in os.listdir(d):
        if f.startswith(e["variant"] + "."): shutil.copy(os.path.join(d, f), "tuned_gemm")
        if f.startswith(e["variant"] + "__div8."): shutil.copy(os.path.join(d, f), "tuned_gemm")
    print("tuned:", e["keys"], e["variant"], e["ms"])
PY
t gemm-bench; OUT=$o timeout 240 python3 gemm_bench.py --kernels tuned_gemm --shapes bf16:4096x4096x4096,bf16:8192x8192x8192,f16:1024x1024x2048 > $o/gemm_tuned.txt 2>&1; grep -v '^  ' $o/gemm_tuned.txt | tail -8
t rope
for v in kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_[248]__div8.json ../r26x/kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_16__div8.json; do
  ./tessel-run-gpu $v --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --bench --reps 100 --opt layout=bshd --opt cos=shared 2>&1 | grep -E "bench:|FAIL" | sed "s|^|$(basename $v .json): |"
done
t ncu
m="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis"
for k in layernorm rmsnorm; do
  ncu $m -k regex:$k -c 1 ./tessel-run-gpu kernels/${k}__bf16__BLOCK_16384__num_warps_16__div8.json --target=cuda --shape 4096x16384 --dtype bf16 > $o/ncu_tessel_$k.txt 2>&1
  ncu $m -k regex:${k}_kernel -c 1 python3 ../r26x/ncu_peers.py $k > $o/ncu_triton_$k.txt 2>&1
done
ncu $m -k regex:rope -c 1 ./tessel-run-gpu kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_4__div8.json --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --opt layout=bshd --opt cos=shared > $o/ncu_tessel_rope.txt 2>&1
ncu $m -k regex:rope_kernel -c 1 python3 ../r26x/ncu_peers.py rope > $o/ncu_triton_rope.txt 2>&1
ncu $m -k regex:triton_ -c 2 python3 ../r26x/ncu_peers.py rope > $o/ncu_compile_rope.txt 2>&1
for f in $o/ncu_*.txt; do echo "== $(basename $f)"; grep -E "triton .*registers|^  [a-z_]+.*\(|Duration|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Local Memory Spilling Requests  |Block Limit Registers|Warp Cycles Per Issued" $f | head -14; done
t done
