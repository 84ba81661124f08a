#!/usr/bin/env bash
# Session 32 call 3: fused linear cross-entropy's second pass through gemm_cross_entropy_grad
# (the logits window and its gradient in one kernel), wider cross_entropy_fused blocks, and a
# 128x256 split-K tile for grad_x.
#  - verify: gemm_cross_entropy_grad (every variant; odd shapes on the base variants, multiples
#    of 8 on the __nt twins), the new cross_entropy_fused and gemm_split_k configs;
#  - time: gemm_cross_entropy_grad at 8192x3968x4096 (beside call 2's gemm_block_ptr 0.352 ms +
#    cross_entropy_backward_lse 0.0385 ms), cross_entropy_fused at 256x128256, gemm_split_k
#    at 256x4096x128256 and 128x4096x128256 by slice count;
#  - the op at both shapes: kernels by device time, then time and peak memory beside Liger-Kernel
#    and eager PyTorch, with the GPU checks (torch_ops.py).
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
run() { # run LABEL VARIANT ARGS...: one verified (and with --bench, timed) run, one line
  local label=$1; shift
  timeout 60 ./tessel-run-gpu "$@" --target=cuda 2>&1 | grep -E "bench:|FAIL|PASS|error" | tr '\n' ' ' | sed "s|^|$label: |"; echo
}
dtype() { python3 -c "import json;print(json.load(open('$1'))['dtype'])"; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader > $o/gpu.txt
t "verify"
{
for v in kernels/gemm_cross_entropy_grad__*.json; do
  sh="100x70x50 1x128x1 136x264x200"; [[ $v == *__nt.json || $v == *__div8.json ]] && sh="136x264x200 1024x1024x1024"
  for x in $sh; do run "$(basename $v .json) $x" $v --shape $x --dtype $(dtype $v) --opt check_rows=64 --quiet; done
  run "$(basename $v .json) 264x136x64 col_offset=0" $v --shape 264x136x64 --dtype $(dtype $v) --opt col_offset=0 --opt ignore=none --quiet
done
for v in kernels/cross_entropy_fused__bf16__BLOCK_16384*.json; do
  for x in 8x5000 3x128256; do run "$(basename $v .json) $x" $v --shape $x --dtype bf16 --opt inplace=1 --quiet; done
done
for v in kernels/gemm_split_k__bf16__BLOCK_M_128__BLOCK_N_256*.json; do
  for k in 2 4; do run "$(basename $v .json) split_k=$k" $v --shape 256x4096x128256 --dtype bf16 --opt split_k=$k --opt check_rows=8 --quiet; done
  [[ $v == *__n?.json ]] || run "$(basename $v .json) C7s3" $v --shape 1000x999x1001 --dtype bf16 --opt split_k=3 --quiet
done
} | tee $o/verify.txt
t "kernels"
{
for v in kernels/gemm_cross_entropy_grad__bf16__*__nt.json; do run "$(basename $v .json)" $v --shape 8192x3968x4096 --dtype bf16 --opt col_offset=3968 --opt check_rows=16 --bench --reps 30; done
for v in kernels/cross_entropy_fused__bf16__*__div8.json; do run "$(basename $v .json)" $v --shape 256x128256 --dtype bf16 --opt inplace=1 --bench --reps 100; done
for v in kernels/gemm_split_k__bf16__BLOCK_M_128__BLOCK_N_256*__nn.json kernels/gemm_split_k__bf16__BLOCK_M_128__BLOCK_N_128__BLOCK_K_64*num_stages_4__nn.json kernels/gemm_split_k__bf16__BLOCK_M_64__BLOCK_N_256*__nn.json; do
  for k in 2 4; do run "$(basename $v .json) 256 rows split_k=$k" $v --shape 256x4096x128256 --dtype bf16 --opt split_k=$k --opt check_rows=8 --bench --reps 30; done
  for k in 4 8; do run "$(basename $v .json) 128 rows split_k=$k" $v --shape 128x4096x128256 --dtype bf16 --opt split_k=$k --opt check_rows=8 --bench --reps 30; done
done
} | tee $o/kernels.txt
t "flce"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 120 python3 flce_profile.py > $o/flce_profile.txt 2>&1; echo flce rc=$?
timeout 120 python3 flce_profile.py 4096 4096 128256 > $o/flce_profile_4096.txt 2>&1; echo flce4096 rc=$?
timeout 200 env OUT=$o python3 torch_ops.py --only fused_linear_ce > $o/torch_flce.txt 2>&1; echo torch rc=$?
t done
echo "== summary"
echo "verify: $(grep -c ': PASS' $o/verify.txt) PASS lines, $(grep -cE 'FAIL|error' $o/verify.txt) FAIL/error"; grep -E "FAIL|error" $o/verify.txt | cut -c1-200 | head -5
sed -E 's/__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//; s/__SPLIT_K_0__HAS_BIAS_false__ACT_none//; s/:.*bench: median/: median/; s/elements.s, //; s/ over [0-9]+ launches//' $o/kernels.txt | cut -c1-150
grep -E "FAIL|checks,|tessel |liger |eager |fused_linear_ce " $o/torch_flce.txt | head -20
for f in flce_profile flce_profile_4096; do grep -E "memory GiB|Self CUDA" $o/$f.txt; grep -E "^ *(gemm|cross|nvjet|liger|void)" $o/$f.txt | sed -E 's/ +[0-9.]+% +[0-9.]+us +[0-9.]+% +[0-9.]+us +[0-9.]+us//' | awk '{print substr($0,1,60), $(NF-4), $(NF-1)}' | head -7; done
