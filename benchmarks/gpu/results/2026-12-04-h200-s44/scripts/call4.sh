cd "$(dirname "$0")"; o=$OUT
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
timeout 240 python3 ln_check.py 2>&1 | tail -25
for r in 1 2; do
  PYTHONPATH=/tmp/lg OUT= timeout 250 python3 norm_bench.py --only layer_norm > $o/norm_new_$r.txt 2>&1; echo "norm_bench round $r rc $?"
  grep -E "^  layer_norm" $o/norm_new_$r.txt
done
