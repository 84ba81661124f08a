#!/usr/bin/env bash
# Round 4: launch overhead, rope candidates, ncu of the rows below 1.0, the TMA GEMM tuned, the helpers' checks.
cd "$(dirname "$0")/../r26"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*"; }
t example
(cd example && ./tuned_softmax 4096 4096 > $o/example_default.txt 2>&1; tail -3 $o/example_default.txt)
tn/bin/tessel-tune-gpu tex/softmax__f32 --cache $o/tuning_f32.json > /dev/null 2>&1
(cd example && TESSEL_TUNING_CACHE=$o/tuning_f32.json TESSEL_KERNEL_PATH=../tex/softmax__f32 ./tuned_softmax 4096 4096 > $o/example_tuned.txt 2>&1; tail -3 $o/example_tuned.txt)
t tune-elementwise
for k in swiglu vector_add rope; do
  /usr/bin/time -f "$k tune wall %e s" timeout 60 tn/bin/tessel-tune-gpu tn/tune/${k}__bf16 --cache $o/tuning4.json > $o/tune_$k.log 2>&1
  grep -E "best|wall|error" $o/tune_$k.log | grep -v "^  \[" | tail -2
done
timeout 60 python3 tuned_rows.py tn/tune $o/tuning4.json 2>&1 | grep -v "^#" | tee $o/tuned_rows4.txt
t rope
for v in kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_[248]__div8.json ../r26x/kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_16__div8.json; do
  timeout 30 ./tessel-run-gpu $v --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --bench --reps 100 --opt layout=bshd --opt cos=shared 2>&1 | grep -E "bench:|FAIL" | sed "s|^|$(basename $v .json): |"
done | tee $o/rope.txt
t ncu
m="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis"
for k in layernorm; do
  timeout 60 ncu $m -k regex:$k -c 1 ./tessel-run-gpu kernels/${k}__bf16__BLOCK_16384__num_warps_16__div8.json --target=cuda --shape 4096x16384 --dtype bf16 > $o/ncu_tessel_$k.txt 2>&1
  timeout 60 ncu $m -k regex:${k}_kernel -c 1 python3 ../r26x/ncu_peers.py $k > $o/ncu_triton_$k.txt 2>&1
done
timeout 60 ncu $m -k regex:rope -c 1 ./tessel-run-gpu kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_4__div8.json --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --opt layout=bshd --opt cos=shared > $o/ncu_tessel_rope.txt 2>&1
timeout 60 ncu $m -k regex:rope_kernel -c 1 python3 ../r26x/ncu_peers.py rope > $o/ncu_triton_rope.txt 2>&1
timeout 90 ncu $m -k regex:triton_ -c 2 python3 ../r26x/ncu_peers.py rope_compile > $o/ncu_compile_rope.txt 2>&1
for f in $o/ncu_*.txt; do echo "== $(basename $f)"; grep -E "triton .*registers|  Duration|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Block Limit Registers|Warp Cycles Per Issued|Local Memory Spilling Req" $f | head -12; done
t done
