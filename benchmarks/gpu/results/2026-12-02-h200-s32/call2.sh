#!/usr/bin/env bash
# Session 32 call 2: fused linear cross-entropy in two passes (row chunks for the loss and
# grad_x, vocabulary chunks for grad_weight).
#  - cross_entropy_fused (now also storing each row's logsumexp) and cross_entropy_backward_lse
#    (a window of columns given the logsumexp): every variant verified on odd shapes, in place;
#  - the pass-2 kernels at (BT, H, V) = (8192, 4096, 128256), windows of 3968 columns:
#    cross_entropy_backward_lse 8192x3968, gemm __tn 3968x4096x8192 (grad_weight rows), gemm_block_ptr
#    __nt 8192x3968x4096 (the recomputed logits);
#  - the op: kernels by device time and memory (flce_profile.py, both shapes), then time and
#    peak memory beside Liger-Kernel and eager PyTorch with the GPU checks (torch_ops.py).
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
for v in kernels/cross_entropy_fused__*.json kernels/cross_entropy_backward_lse__*.json; do
  sh="8x5000 1x15 3x128256"; [[ $v == *__div8.json ]] && sh="8x5000 2x1000 3x128256"
  for x in $sh; do run "$(basename $v .json) $x" $v --shape $x --dtype $(dtype $v) --opt inplace=1 --quiet; done
  run "$(basename $v .json) 7x4001 out-of-place" $v --shape 7x4001 --dtype $(dtype $v) --quiet
done | tee $o/verify.txt
[[ -n $(ls kernels/cross_entropy_backward_lse__*.json 2>/dev/null) ]] && for v in kernels/cross_entropy_backward_lse__bf16__*.json; do
  run "$(basename $v .json) 9x3968 col_offset=0" $v --shape 9x3968 --dtype bf16 --opt col_offset=0 --opt ignore=none --quiet
  run "$(basename $v .json) 9x1280 col_offset=126976" $v --shape 9x1280 --dtype bf16 --opt col_offset=126976 --quiet
done | tee -a $o/verify.txt
t "pass-2 kernels"
{
for v in kernels/cross_entropy_backward_lse__bf16__*.json; do run "$(basename $v .json)" $v --shape 8192x3968 --dtype bf16 --opt inplace=1 --opt col_offset=3968 --bench --reps 100; done
for v in kernels/cross_entropy_fused__bf16__*__div8.json; do run "$(basename $v .json)" $v --shape 256x128256 --dtype bf16 --opt inplace=1 --bench --reps 100; done
for v in kernels/gemm__bf16__*HAS_BIAS_false*__tn.json; do
  [[ -f $v ]] && run "$(basename $v .json)" $v --shape 3968x4096x8192 --dtype bf16 --opt a_order=col --opt check_rows=16 --bench --reps 30
done
for v in kernels/gemm_block_ptr__bf16__BLOCK_M_128__BLOCK_N_256__*HAS_BIAS_false*__nt.json kernels/gemm_block_ptr__bf16__BLOCK_M_256__BLOCK_N_128__*HAS_BIAS_false*__nt.json; do
  [[ -f $v ]] && run "$(basename $v .json)" $v --shape 8192x3968x4096 --dtype bf16 --opt b_order=col --opt check_rows=16 --bench --reps 30
done
} | tee $o/pass2.txt
t "flce"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 120 python3 flce_profile.py > $o/flce_profile.txt 2>&1; echo flce rc=$?
timeout 120 python3 flce_profile.py 4096 4096 128256 > $o/flce_profile_4096.txt 2>&1; echo flce4096 rc=$?
timeout 200 env OUT=$o python3 torch_ops.py --only fused_linear_ce > $o/torch_flce.txt 2>&1; echo torch rc=$?
t done
echo "== summary"
echo "verify: $(grep -c ': PASS' $o/verify.txt) PASS lines, $(grep -cE 'FAIL|error' $o/verify.txt) FAIL/error"; grep -E "FAIL|error" $o/verify.txt | cut -c1-200 | head -5
sed -E 's/__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none//; s/:.*bench: median/: median/; s/elements.s, //' $o/pass2.txt | cut -c1-170
grep -E "FAIL|checks,|tessel |liger |eager |fused_linear_ce " $o/torch_flce.txt | head -20
for f in flce_profile flce_profile_4096; do grep -E "memory GiB" $o/$f.txt; grep -E "^ *(gemm|cross|nvjet|liger|void)" $o/$f.txt | sed -E 's/ +[0-9.]+% +[0-9.]+us +[0-9.]+% +[0-9.]+us +[0-9.]+us//' | awk '{print substr($0,1,60), $(NF-4), $(NF-1)}' | head -9; done
