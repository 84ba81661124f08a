#!/bin/bash
# s57 call 1: RMSNorm 32768x1000 orderings (rms_exp.cpp) beside softmax; vector_add 2^28; the
# 16x6144x4096 do_bench anomaly (g16.py); ncu of rmsnorm vs softmax at 32768x1000.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,power.limit,driver_version --format=csv,noheader
run() { # run JSON PROBLEM SHAPE [opts]
  local v=$1 p=$2 s=$3; shift 3
  out=$(./tessel-run-gpu $v --problem $p --target=cuda --shape $s --dtype bf16 --bench --reps 200 "$@" 2>&1)
  echo "$(basename $v .json) $(grep -oE 'PASS|FAIL' <<<"$out" | head -1) $(grep -E '^bench:' <<<"$out" | sed -E 's/bench: //')"
}
SECONDS=0
for r in 1 2; do
  for v in k/rms{A,B,C,D}__bf16__BLOCK_1024__num_warps_{1,2,4}__div8.json k/rmsnorm__bf16__BLOCK_1024__num_warps_{1,2,4}__div8.json; do
    echo "R$r $(run $v rmsnorm 32768x1000)"
  done
  for v in k/softmax__bf16__BLOCK_1024__num_warps_{1,2,4}__div8.json; do echo "R$r $(run $v softmax 32768x1000)"; done
done > $o/rms.txt
echo "rms sweep ${SECONDS}s"; sort -k2,2 -k1,1 $o/rms.txt | cut -c1-150
SECONDS=0
for r in 1; do
  for s in 16384x4096:4096 4096x16384:16384; do
    for v in k/add{P,Q,R}__bf16__BLOCK_${s#*:}__num_warps_*__div8.json k/add_rmsnorm_out__bf16__BLOCK_${s#*:}__num_warps_*__div8.json; do
      echo "R$r ${s%:*} $(run $v add_rmsnorm_out ${s%:*})"
    done
  done
done > $o/add.txt
echo "add sweep ${SECONDS}s"; sort -k2,2 -k3,3 $o/add.txt | cut -c1-160
SECONDS=0
for r in 1; do
  for v in k/ropeU__bf16__HALF_64__BLOCK_S_*__HEADS_[124]_*__div8.json k/rope_seq_out__bf16__HALF_64__BLOCK_S_16__num_warps_*__div8.json; do
    echo "R$r $(run $v rope_seq_out 8x32x8x4096x128 --opt cos=shared)"
  done
done > $o/rope.txt
echo "rope sweep ${SECONDS}s"; sort -k2,2 $o/rope.txt | cut -c1-170
SECONDS=0
export TESSEL_KERNEL_PATH=$PWD/../r55/kernels:$PWD/../r55/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/../r55/tune/gemm_split_k__bf16:$PWD/../r55/tune/gemm_split_k_swap/gemm_split_k__bf16
export TESSEL_TUNING_CACHE=$PWD/tuning.json
timeout 150 python3 g16.py 16x6144x4096,16x4096x4096,64x6144x4096,1x6144x4096,16x6144x4096 2>&1 | tail -40
echo "g16 ${SECONDS}s"
SECONDS=0; timeout 150 python3 inductor_dump.py 2>&1 | tail -150; echo "inductor ${SECONDS}s"
