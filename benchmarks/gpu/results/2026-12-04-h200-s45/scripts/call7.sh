cd "$(dirname "$0")"; o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 470 env PYTHONUNBUFFERED=1 PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py > $o/torch.txt 2>&1; echo "torch rc=$?"
grep -E "checks, |FAIL" $o/torch.txt | tail -6
sed -n "/^speed-up of Tessel/,\$p" $o/torch.txt | head -60
grep -E "^ +[a-z_]+ .*(tessel|liger|compile)" $o/torch.txt | tail -30
