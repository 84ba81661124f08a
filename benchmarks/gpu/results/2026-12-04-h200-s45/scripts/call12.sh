cd "$(dirname "$0")"; o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 120 env PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only rms_norm > $o/torch.txt 2>&1; echo "torch rc=$?"
grep -E "checks, |FAIL" $o/torch.txt | tail -4
timeout 110 env PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/lg OUT=$o python3 norm_bench.py --shapes 262144x128,131072x256,32768x1000 > $o/norm_short.txt 2>&1; echo "norm rc=$?"
grep -E "PASS|FAIL|GPU" $o/norm_short.txt | grep -E "PASS|FAIL|tessel|compile" | head -30
