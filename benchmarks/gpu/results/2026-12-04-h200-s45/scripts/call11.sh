cd "$(dirname "$0")"; o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
VERIFY_BATCH=1 VERIFY_FILTER='kernels/*norm*' timeout 150 ./verify.sh library > $o/verify_norms.txt 2>&1; echo "verify rc=$?"
grep -E "^FAIL|variants:|gpu verify" $o/verify_norms.txt | head -20
timeout 200 env PYTHONPATH=/tmp/lg OUT=$o python3 norm_bench.py --shapes 262144x128,131072x256,65536x512 > $o/norm_short.txt 2>&1; echo "norm rc=$?"
grep -v -i warn $o/norm_short.txt | grep -v "^ *_warn\|^$" | tail -36
