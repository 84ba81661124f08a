#!/usr/bin/env bash
# Session 34 call 3: add_rmsnorm_out and rope_seq_out verified and timed beside the kernels they
# replace; torch_ops.py's rows for add_rms_norm, rope, swiglu, geglu and cross_entropy.
cd "$(dirname "$0")/../s34"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader > $o/gpu.txt
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
t "verify"
for k in rope_seq_out add_rmsnorm_out; do
  VERIFY_FILTER="kernels/${k}__*" timeout 120 ./verify.sh library 2>&1 | grep -E "FAIL|library variants"
done > $o/verify.txt
t "kernel bench"
{
for j in kernels/rope_seq_out__bf16__HALF_64__*__div8.json kernels/rope_out__bf16__HALF_64__BLOCK_H_32__num_warps_{4,8}__div8.json; do
  p=rope_out; [[ $j == *rope_seq_out* ]] && p=rope_seq_out
  echo "$j: $(./tessel-run-gpu $j --problem $p --shape 8x32x8x4096x128 --bench --reps 100 2>&1 | grep -oE '(PASS|FAIL).*bench: median [0-9.]+ ms.*GB/s \([0-9.]+%' | sed 's/.*\(PASS\|FAIL\)/\1/' | tail -1)"
done
for sh in 16384x4096:4096 4096x16384:16384 32768x1000:1024; do
  for j in kernels/add_rmsnorm_out__bf16__BLOCK_${sh#*:}__num_warps_*__div8.json kernels/add_rmsnorm__bf16__BLOCK_${sh#*:}__num_warps_*__div8.json; do
    [[ -e $j ]] || continue
    echo "$j ${sh%:*}: $(./tessel-run-gpu $j --shape ${sh%:*} --bench --reps 100 2>&1 | grep -oE '(PASS|FAIL).*bench: median [0-9.]+ ms.*GB/s \([0-9.]+%' | sed 's/.*\(PASS\|FAIL\)/\1/' | tail -1)"
  done
done
} > $o/kernel_bench.txt 2>&1
t "torch_ops"
timeout 300 env OUT=$o python3 torch_ops.py --only add_rms_norm,rope,swiglu,geglu,cross_entropy > $o/torch.txt 2>&1; echo torch rc=$?
t done
echo "== summary"
cat $o/verify.txt
cut -c1-220 $o/kernel_bench.txt
grep -E "^  (add_rms|rope|swiglu|geglu|cross_ent).*(tessel|eager|compile|liger) " $o/torch.txt | grep -v PASS
sed -n '/speed-up of Tessel/,$p' $o/torch.txt
