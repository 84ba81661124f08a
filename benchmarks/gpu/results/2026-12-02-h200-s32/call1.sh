#!/usr/bin/env bash
# Session 32 call 1: fused linear cross-entropy's kernels one by one at its chunk shapes
# (8192 x 4096 x 128256 in chunks of 256 rows), then the op beside Liger-Kernel.
#  - cross_entropy_fused (loss + in-place gradient) against cross_entropy + _backward;
#  - gemm_residual __tn (grad_weight += dlogits^T @ x: M = 128256, N = 4096, K = 256), every
#    config compiled, in place;
#  - gemm_split_k __nn (grad_x = dlogits @ W: M = 256, N = 4096, K = 128256) by slice count.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
run() { # run LABEL VARIANT ARGS...: one verified (and with --bench, timed) run, one line
  local label=$1; shift
  timeout 60 ./tessel-run-gpu "$@" --target=cuda 2>&1 | grep -E "bench:|FAIL|PASS|error" | tr '\n' ' ' | sed "s|^|$label: |"; echo
}
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader > $o/gpu.txt
t "cross_entropy_fused verify"
for v in kernels/cross_entropy_fused__*.json; do
  sh="8x5000 1x15"; [[ $v == *__div8.json ]] && sh="8x5000 2x1000"
  for x in $sh; do run "$(basename $v .json) $x" $v --shape $x --dtype $(python3 -c "import json;print(json.load(open('$v'))['dtype'])") --opt inplace=1 --quiet; done
  run "$(basename $v .json) 3x128256 out-of-place" $v --shape 3x128256 --dtype $(python3 -c "import json;print(json.load(open('$v'))['dtype'])") --quiet
done | tee $o/ce_verify.txt
t "cross-entropy chunk 256x128256 bf16"
{
for v in kernels/cross_entropy_fused__bf16__*__div8.json; do run "$(basename $v .json)" $v --shape 256x128256 --dtype bf16 --opt inplace=1 --bench --reps 100; done
for v in kernels/cross_entropy__bf16__*__div8.json; do run "$(basename $v .json)" $v --shape 256x128256 --dtype bf16 --opt reduction=none --bench --reps 100; done
for v in kernels/cross_entropy_backward__bf16__*reduction_sum*__div8.json; do run "$(basename $v .json)" $v --shape 256x128256 --dtype bf16 --bench --reps 100; done
} | tee $o/ce_bench.txt
t "gemm_residual tn 128256x4096x256 in place"
for v in kernels/gemm_residual__bf16__*HAS_BIAS_false*__tn.json; do
  run "$(basename $v .json)" $v --shape 128256x4096x256 --dtype bf16 --opt a_order=col --opt inplace=1 --opt check_rows=16 --bench --reps 50
done | tee $o/residual_tn.txt
t "gemm_split_k nn 256x4096x128256"
for v in kernels/gemm_split_k__bf16__BLOCK_M_128__BLOCK_N_128__BLOCK_K_64*num_stages_4__nn.json kernels/gemm_split_k__bf16__BLOCK_M_64__BLOCK_N_256__*__nn.json kernels/gemm_split_k__bf16__BLOCK_M_64__BLOCK_N_128__BLOCK_K_64*num_stages_6__nn.json; do
  for k in 2 4 5 8; do
    run "$(basename $v .json) split_k=$k" $v --shape 256x4096x128256 --dtype bf16 --opt split_k=$k --opt check_rows=8 --bench --reps 50
  done
done | tee $o/splitk_nn.txt
t "flce"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 150 python3 flce_profile.py > $o/flce_profile.txt 2>&1; echo flce rc=$?
timeout 200 env OUT=$o python3 torch_ops.py --only fused_linear_ce > $o/torch_flce.txt 2>&1; echo torch rc=$?
t done
echo "== summary"
grep -c PASS $o/ce_verify.txt; grep -E "FAIL|error" $o/ce_verify.txt | head
for f in ce_bench residual_tn splitk_nn; do echo "-- $f"; sed -E 's/__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none//; s/bench: //' $o/$f.txt | cut -c1-230; done
grep -E "FAIL|checks,|fused_linear|tessel |liger |eager " $o/torch_flce.txt | head -20
grep -E "memory GiB|ms " $o/flce_profile.txt | head; grep -E "^(gemm|cross|nvjet|liger)" $o/flce_profile.txt | cut -c1-100,180-260 | head -14
