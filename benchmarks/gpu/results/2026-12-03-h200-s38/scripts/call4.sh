#!/usr/bin/env bash
# Session 38 call 4: the norms' backward with w reloaded per row (kernels_rn: rmsnorm_backward,
# kernels_ln: layernorm_backward) verified variant by variant and timed through the ops against
# the library's (norm_bench.py); fused linear cross-entropy's host share (flce_rounds.py).
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
pass=0; fail=0
for j in kernels_rn/*.json kernels_ln/*.json; do
  read -r dtype block spec < <(python3 -c "
import json,sys; j=json.load(open('$j')); print(j['dtype'] or 'f32', j['config']['BLOCK'], 1 if j.get('specializes') else 0)")
  shapes=$([[ $spec == 1 ]] && echo "37x$((block - 8)) 2x16 64x$block" || echo "37x$((block - 1)) 3x5 64x$block")
  for sh in $shapes; do
    if m=$(timeout 60 ./tessel-run-gpu $j --target=cuda --shape $sh --dtype $dtype --quiet 2>&1); then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $j $sh: $m" >> $o/verify_norms.txt; fi
  done
done
echo "norm backward variants: $pass passed, $fail failed" | tee -a $o/verify_norms.txt; echo "at $((SECONDS - s)) s"
mkdir -p $o/rn_old $o/rn_new
timeout 120 env PYTHONPATH=/tmp/lg OUT=$o/rn_old TESSEL_KERNEL_PATH=kernels python3 norm_bench.py --only rms_norm > $o/rn_old.txt 2>&1; echo "rn old rc=$? at $((SECONDS - s)) s"
timeout 120 env PYTHONPATH=/tmp/lg OUT=$o/rn_new TESSEL_KERNEL_PATH=kernels_rn:kernels python3 norm_bench.py --only rms_norm > $o/rn_new.txt 2>&1; echo "rn new rc=$? at $((SECONDS - s)) s"
timeout 150 env PYTHONPATH=/tmp/lg OUT=$o python3 flce_rounds.py 3 8192 > $o/rounds.txt 2>&1; echo "rounds rc=$? at $((SECONDS - s)) s"
echo "== verify"; head -5 $o/verify_norms.txt
echo "== rn old"; grep -E "tessel|PASS|FAIL" $o/rn_old.txt; echo "== rn new"; grep -E "tessel|PASS|FAIL" $o/rn_new.txt
echo "== rounds"; grep -E "median|step|busy" $o/rounds.txt
