#!/bin/bash
# s66 call G: issue 10's open rows. (1) matmul_bench.py's default rows: tessel.ops.matmul as a
# PyTorch user calls it (the padded copy of operands TMA cannot read included: f16 1000x999x1001,
# C7's shape), beside cuBLAS and Triton, each verified first. (2) ncu on the LLM suite's rows
# below cuBLAS in session 64 (256x6144x4096 0.920x, 64x4096x4096 0.94x) and a large-M row
# (2048x6144x4096), Tessel's launched kernel (session 54's H200 tuning cache) beside cuBLAS's.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
export TESSEL_KERNEL_PATH=$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16
# Session 54's H200 cache, its entries' device renamed to this card's (the same configs launched
# on an H100 as on the H200).
python3 -c "import sys,json; sys.path.insert(0,'python'); import tessel.kernels as k; d=k._device_key('cuda')[0]; c=json.load(open('tuning_s54.json')); [e.__setitem__('device',d) for e in c['entries']]; json.dump(c,open('/tmp/tuning_here.json','w')); print('cache device:', d)"
export TESSEL_TUNING_CACHE=/tmp/tuning_here.json
SECONDS=0; OUT=$o timeout ${TM:-240} python3 matmul_bench.py --rounds 3 --shapes f16:1000x999x1001,f16:1024x1024x2048,f16:500x499x501,f16:2000x1999x2001,f16:127x255x129 > $o/matmul.txt 2>&1; echo "matmul_bench rc=$? ${SECONDS}s"
grep -E "rel_err" $o/matmul.txt | grep -v PASS | head -5
sed -n '/^do_bench medians/,$p' $o/matmul.txt | head -30
m="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats --section ComputeWorkloadAnalysis"
for s in 256x6144x4096 64x4096x4096 2048x6144x4096; do
  SECONDS=0
  timeout 90 ncu $m -k regex:'gemm|reduce' -s 2 -c 2 python3 ncu_gemm.py tessel $s --bT > $o/ncu_tessel_$s.txt 2>&1; echo "ncu tessel $s rc=$? ${SECONDS}s"
  timeout 90 ncu $m -k regex:'sm90|gemm|cutlass|nvjet|splitK|reduce' -s 2 -c 2 python3 ncu_gemm.py cublas $s --bT > $o/ncu_cublas_$s.txt 2>&1; echo "ncu cublas $s rc=$? ${SECONDS}s"
done
for f in $o/ncu_*.txt; do
  echo "-- $(basename $f .txt)"; grep -E "kernels \[" $f | cut -c1-200
  grep -E "^  [a-zA-Z_].*\(|Duration|DRAM Throughput|Compute \(SM\) Throughput|Registers Per Thread|Achieved Occupancy|Grid Size|Block Size|Warp Cycles Per Issued|No Eligible|Waves Per SM|L2 Hit Rate|Executed Ipc Active|Dynamic Shared" $f | head -30 | cut -c1-160
done
cd $o && tar czf /tmp/g.tgz . && rm -rf $o/* && mv /tmp/g.tgz $o/
