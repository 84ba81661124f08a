cd "$(dirname "$0")"; o=$OUT
VERIFY_BATCH=1 GEMM_LARGE=0 timeout 500 ./verify.sh > $o/verify.txt 2>&1; echo "verify rc=$?"
grep -E "^FAIL|variants:|gpu verify" $o/verify.txt | head -40
