#!/usr/bin/env bash
# Session 31 call 3 (kernels of fd39c71): the rows below 1.0 in the last table. RoPE's __div8
# and __h0 twins beside Triton's kernel and torch.compile; RMSNorm 4096x16384 beside Triton's;
# ncu of both pairs; then the GEMM variants (verify.sh gemm) in the time left.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
t rope
for v in kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_[248]__div8.json kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_[248]__h0.json; do
  extra=(); [[ $v == *__h0.json ]] && extra=(--opt table=half)
  timeout 40 ./tessel-run-gpu $v --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --bench --reps 100 --opt layout=bshd --opt cos=shared "${extra[@]}" 2>&1 | grep -E "bench:|FAIL|PASS" | tr '\n' ' ' | sed "s|^|$(basename $v .json): |"; echo
done | tee $o/rope.txt
timeout 120 python3 ncu_peers.py rope --bench 2>&1 | grep "^bench" | tee -a $o/rope.txt
t rmsnorm
for v in kernels/rmsnorm__bf16__BLOCK_16384__num_warps_16__div8.json kernels/rmsnorm_looped__bf16__BLOCK_4096__num_warps_16__div8.json kernels/rmsnorm__bf16__BLOCK_16384__num_warps_16.json; do
  timeout 40 ./tessel-run-gpu $v --target=cuda --shape 4096x16384 --dtype bf16 --bench --reps 100 2>&1 | grep -E "bench:|FAIL|PASS" | tr '\n' ' ' | sed "s|^|$(basename $v .json): |"; echo
done | tee $o/rmsnorm.txt
timeout 60 python3 ncu_peers.py rmsnorm --bench 2>&1 | grep -E "^bench|registers" | tee -a $o/rmsnorm.txt
t ncu
m="--section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats"
timeout 60 ncu $m -k regex:rmsnorm -c 1 ./tessel-run-gpu kernels/rmsnorm__bf16__BLOCK_16384__num_warps_16__div8.json --target=cuda --shape 4096x16384 --dtype bf16 > $o/ncu_tessel_rmsnorm.txt 2>&1
timeout 60 ncu $m -k regex:rmsnorm_kernel -c 1 python3 ncu_peers.py rmsnorm > $o/ncu_triton_rmsnorm.txt 2>&1
timeout 60 ncu $m -k regex:rope -c 1 ./tessel-run-gpu kernels/rope__bf16__HALF_64__BLOCK_H_32__num_warps_4__h0.json --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --opt layout=bshd --opt cos=shared --opt table=half > $o/ncu_tessel_rope_h0.txt 2>&1
timeout 90 ncu $m -k regex:triton_ -c 2 python3 ncu_peers.py rope_compile > $o/ncu_compile_rope.txt 2>&1
for f in $o/ncu_*.txt; do echo "== $(basename $f)"; grep -E "triton .*registers|  Duration|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Block Limit Registers|Warp Cycles Per Issued|Local Memory Spilling Req|No Eligible|Issued Warp" $f | head -14; done | tee $o/ncu_summary.txt
left=$((450 - (SECONDS - s)))
if [[ $left -gt 30 ]]; then t "verify gemm ($left s)"; VERIFY_VERBOSE=1 timeout $left ./verify.sh gemm > $o/verify_gemm.txt 2>&1; echo "rc=$?" >> $o/verify_gemm.txt; echo "$(grep -c ^PASS $o/verify_gemm.txt) passed, $(grep -c ^FAIL $o/verify_gemm.txt) failed before the bound"; tail -3 $o/verify_gemm.txt | tee -a $o/log.txt; fi
t done
