# call C (session 48): every TMA-store twin on verify.sh's GEMM shapes, one process per check,
# 30 s each (call B's batch did not finish in 150 s: a hang or the host references?), then
# session 46's add_rmsnorm_backward variants (library verify, batched).
cd "$(dirname "$0")"; o=$OUT
mv tessel-run-gpu tessel-run-gpu.real
printf '#!/bin/bash\nt0=$(date +%%s%%N)\ntimeout 30 "$(dirname "$0")/tessel-run-gpu.real" "$@"; rc=$?\necho "$rc $(( ($(date +%%s%%N) - t0) / 1000000 )) $*" >> %s/times.txt\nexit $rc\n' "$o" > tessel-run-gpu; chmod +x tessel-run-gpu
GEMM_FILTER='kernels/gemm_*tma_store_1__n*' VERIFY_VERBOSE=1 timeout 290 ./verify.sh gemm > $o/verify_tma_twins.txt 2>&1; echo "verify twins rc=$?"
(cd ../s46 && VERIFY_BATCH=1 VERIFY_FILTER='kernels/*rmsnorm*backward*' timeout 110 ./verify.sh library > $o/verify_norm_bwd.txt 2>&1; echo "verify norm bwd rc=$?")
mv triton_gemm.py triton_gemm.py.off  # cuBLAS and Tessel only: Triton's autotuning costs a minute
timeout 130 env PYTHONUNBUFFERED=1 TESSEL_KERNEL_PATH=$PWD/kernels OUT=$o python3 matmul_bench.py --explore --shapes bf16:64x4096x4096:bT,bf16:16x6144x4096:bT > $o/matmul_explore.txt 2>&1; echo "matmul explore rc=$?"
echo "== norm bwd:"; grep -E "^FAIL|gpu verify" $o/verify_norm_bwd.txt | head -5
echo "== slowest checks (rc ms args):"; sort -k2 -n -r $o/times.txt | head -5 | cut -c1-200
echo "== timeouts:"; awk '$1==124' $o/times.txt | cut -c1-200 | head
echo "== twins:"; grep -c "^PASS" $o/verify_tma_twins.txt; grep -E "^FAIL" $o/verify_tma_twins.txt | cut -c1-250 | head -8; grep -E "gpu verify|gemm variants" $o/verify_tma_twins.txt
echo "== matmul explore:"; grep -E "^  |rel_err|FAIL" $o/matmul_explore.txt | cut -c1-170 | head -30
