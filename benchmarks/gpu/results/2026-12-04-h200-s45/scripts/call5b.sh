cd "$(dirname "$0")"; o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_BATCH=1 GEMM_LARGE=0 timeout 260 ./verify.sh gemm > $o/verify_gemm.txt 2>&1; echo "gemm verify rc=$?"
grep -E "^FAIL|variants:|gpu verify" $o/verify_gemm.txt | head -20
VERIFY_BATCH=1 timeout 60 ./verify.sh cases > $o/verify_cases.txt 2>&1; echo "cases rc=$?"; tail -3 $o/verify_cases.txt
timeout 200 env PYTHONPATH=/tmp/lg OUT=$o python3 norm_bench.py --shapes 262144x128,131072x256,65536x512,32768x1000 > $o/norm_short.txt 2>&1; echo "norm rc=$?"
grep -v -i warn $o/norm_short.txt | grep -v "^ *_warn\|^$" | tail -42
