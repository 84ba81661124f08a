#!/usr/bin/env bash
# Session 33 call 1: tensor maps passed by value (a grid-constant kernel parameter) instead of a
# device buffer uploaded per distinct set of maps.
#  - verify: every TMA twin (__nn, __nt, __tn, __tt of gemm_block_ptr, gemm_split_k,
#    gemm_residual; gemm_swiglu's __a16) on the GEMM cases without the 4096^3 ones;
#  - fused linear cross-entropy: device time, the host's share and the forward's profile
#    (flce_profile.py), then time and peak memory beside Liger-Kernel and eager PyTorch with the
#    FLCE checks (torch_ops.py --only fused_linear_ce);
#  - GEMM speed after the change: bf16 4096^3 and 8192^3 beside cuBLAS (gemm_bench.py);
#  - cross-entropy's online softmax with per-lane sums (one cross-warp reduction per block, not
#    three): every cross_entropy* variant verified, then old (old_ce/) against new at FLCE's
#    chunk (256x128256, in place) and the benchmark row 8192x128256;
#  - rms_norm forward + backward: queue against run time and kernels (norm_profile.py).
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
nvidia-smi --query-gpu=name,clocks.sm,clocks.mem,temperature.gpu --format=csv,noheader > $o/gpu.txt
run() { # run LABEL VARIANT ARGS...: one verified (and with --bench, timed) run, one line
  local label=$1; shift
  timeout 60 ./tessel-run-gpu "$@" --target=cuda 2>&1 | grep -E "bench:|FAIL|PASS|error" | tr '\n' ' ' | sed "s|^|$label: |"; echo
}
t "cross-entropy"
VERIFY_FILTER='kernels/cross_entropy*' timeout 120 ./verify.sh library > $o/verify_ce.txt 2>&1; echo ce rc=$?
{
for rep in 1 2; do
  for d in old_ce kernels; do
    for v in $d/cross_entropy_fused__bf16__*__div8.json; do run "$v" $v --shape 256x128256 --dtype bf16 --opt inplace=1 --bench --reps 200; done
    for v in $d/cross_entropy__bf16__BLOCK_{4096,8192}*__div8.json; do run "$v" $v --shape 8192x128256 --dtype bf16 --bench --reps 50; done
  done
done
} > $o/ce_bench.txt
t "flce"
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
timeout 150 python3 flce_profile.py > $o/flce_profile.txt 2>&1; echo flce rc=$?
timeout 150 python3 flce_profile.py 4096 4096 128256 > $o/flce_profile_4096.txt 2>&1; echo flce4096 rc=$?
timeout 200 env OUT=$o python3 torch_ops.py --only fused_linear_ce > $o/torch_flce.txt 2>&1; echo torch rc=$?
t "verify TMA twins"
GEMM_LARGE=0 GEMM_FILTER='kernels/*__[nt][nt].json' timeout 230 ./verify.sh gemm > $o/verify_gemm.txt 2>&1; echo verify rc=$?
VERIFY_FILTER='kernels/gemm_swiglu__*' timeout 60 ./verify.sh library > $o/verify_swiglu.txt 2>&1; echo swiglu rc=$?
t "gemm"
timeout 150 env OUT=$o python3 gemm_bench.py --shapes bf16:4096x4096x4096,bf16:8192x8192x8192 --no-triton --reps 30 > $o/gemm_bench.txt 2>&1; echo gemm rc=$?
t done
echo "== summary"
tail -1 $o/verify_ce.txt
sed -E 's/:.*bench: median/: median/; s/ over [0-9]+ launches//' $o/ce_bench.txt | cut -c1-160
tail -2 $o/verify_gemm.txt; grep -c FAIL $o/verify_gemm.txt; grep FAIL $o/verify_gemm.txt | cut -c1-200 | head -5
tail -1 $o/verify_swiglu.txt
grep -E "FAIL|checks,|tessel |liger |eager |fused_linear_ce " $o/torch_flce.txt | head -20
for f in flce_profile flce_profile_4096; do grep -E "memory GiB|queued|Self CUDA time total" $o/$f.txt; done
grep -E "TFLOP|cuBLAS|best" $o/gemm_bench.txt | tail -8
timeout 60 python3 norm_profile.py > $o/norm_profile.txt 2>&1; echo norms rc=$?
grep -E "queued|do_bench|Self CUDA time total" $o/norm_profile.txt
