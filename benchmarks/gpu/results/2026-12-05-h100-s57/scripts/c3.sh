#!/bin/bash
# s57 call 3: rmsnorm A/B (w with x), add_rmsnorm_out against Inductor's two-pass form (addL) and
# torch.compile itself, the matmul host path A/B (old package r55 / pyn: cached workspace views).
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,driver_version --format=csv,noheader
lscpu | grep -E "Model name" | tr -s ' '
run() { local p=$1 v=$2 s=$3; out=$(./tessel-run-gpu $v --problem $p --target=cuda --shape $s --dtype bf16 --bench --reps 200 2>&1)
  echo "$(basename $(dirname $v))/$(basename $v .json | sed 's/__bf16__/ /') $s $(grep -oE 'PASS|FAIL' <<<"$out" | head -1) $(sed -nE 's/^bench: median ([0-9.]+) ms.*/\1/p' <<<"$out")"; }
summ() { sort -k1,1 -k2,2 -k3,3 $1 | awk '{k=$1" "$2" "$3; v[k]=v[k]" "$5; p[k]=p[k]$4} END {for (k in v) print k, p[k], v[k]}' | sort -k3,3 -k4,4n; }
SECONDS=0
for r in 1 2 3; do
  for c in 1024_1 1024_2 1024_4; do b=${c%_*}; w=${c#*_}; for d in ko kn; do run rmsnorm $d/rmsnorm__bf16__BLOCK_${b}__num_warps_${w}__div8.json 32768x1000; done; done
  for c in 4096_8 4096_16; do b=${c%_*}; w=${c#*_}; for d in ko kn; do run rmsnorm $d/rmsnorm__bf16__BLOCK_${b}__num_warps_${w}__div8.json 16384x4096; done; done
done > /tmp/rms_ab.txt 2>&1
echo "rms A/B ${SECONDS}s"; summ /tmp/rms_ab.txt
SECONDS=0
for r in 1 2; do
  for v in k/addL__bf16__BLOCK_*.json k/add_rmsnorm_out__bf16__BLOCK_4096__num_warps_[48]__div8.json; do run add_rmsnorm_out $v 16384x4096; done
  for v in k/addL__bf16__BLOCK_*.json k/add_rmsnorm_out__bf16__BLOCK_16384__num_warps_16__div8.json; do run add_rmsnorm_out $v 4096x16384; done
done > /tmp/add.txt 2>&1
echo "add ${SECONDS}s"; summ /tmp/add.txt
SECONDS=0; timeout 120 python3 ind_time.py 2>&1 | grep -E "^compile|Error" ; echo "compile ${SECONDS}s"
export TESSEL_KERNEL_PATH=$PWD/../r55/kernels:$PWD/../r55/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/../r55/tune/gemm_split_k__bf16:$PWD/../r55/tune/gemm_split_k_swap/gemm_split_k__bf16
export TESSEL_TUNING_CACHE=$PWD/tuning.json
S=16x6144x4096,1x6144x4096,16x4096x4096,16x14336x4096
SECONDS=0
for pk in $PWD/../r55/python $PWD/pyn $PWD/../r55/python $PWD/pyn; do timeout 80 python3 host_mm.py $pk $S 2>&1 | grep -vE "^\s*$" | tail -13; done
echo "host ${SECONDS}s"
