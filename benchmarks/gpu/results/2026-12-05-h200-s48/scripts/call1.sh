# call B (session 48): the TMA-store epilogue's first GPU run (verify its variants, then time
# them beside the same tiles with st.global, cuBLAS and Triton); decode GEMMs under three flushes.
cd "$(dirname "$0")"; o=$OUT
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,temperature.gpu --format=csv,noheader
timeout 100 env PYTHONUNBUFFERED=1 TESSEL_KERNEL_PATH=$PWD/kernels python3 decode_flush.py > $o/decode_flush.txt 2>&1; echo "decode rc=$?"
cat $o/decode_flush.txt | tail -30
GEMM_FILTER='kernels/gemm_*tma_store*' VERIFY_BATCH=1 timeout 150 ./verify.sh gemm > $o/verify_gemm_tma_store.txt 2>&1; echo "verify rc=$?"
grep -E "^FAIL|gpu verify" $o/verify_gemm_tma_store.txt | head -12
timeout 300 env PYTHONUNBUFFERED=1 OUT=$o python3 gemm_bench.py --reps 40 \
  --shapes bf16:4096x4096x4096,f16:1024x1024x2048,bf16:8192x8192x8192,bf16:2048x6144x4096:bT > $o/gemm_bench.txt 2>&1; echo "bench rc=$?"
grep -v '^  ' $o/gemm_bench.txt | tail -14
for s in "bf16 4096x4096x4096" "f16 1024x1024x2048" "bf16 8192x8192x8192" "bf16 2048x6144x4096"; do
  echo "== $s: fastest 6 and every tma_store"; grep "tessel $s" $o/gemm_bench.txt | grep -v FAILED | awk -F': ' '{print $NF"\t"$0}' | sort -n | cut -f2 | head -6 | cut -c1-220
  grep "tessel $s" $o/gemm_bench.txt | grep tma_store | cut -c1-220
done
