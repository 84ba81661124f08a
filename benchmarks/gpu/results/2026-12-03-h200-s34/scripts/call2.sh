#!/usr/bin/env bash
# Session 34 call 2: norm_bench.py with the backward variant chosen by programs per SM; the
# BLOCK 16384 backward variants at 4096x16384; torch_ops.py's norm rows for comparison.
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
export PYTHONPATH=/tmp/lg
t "norm_bench"
timeout 240 env OUT=$o python3 norm_bench.py > $o/norm_bench.txt 2>&1; echo norm_bench rc=$?
t "rows 16384"
(cd $o && T=100 timeout 110 python3 $OLDPWD/../exp/rows_exp.py $OLDPWD/tessel-run-gpu $OLDPWD/../exp/k/*BLOCK_16384*__div8.json $OLDPWD/kernels/{rmsnorm,layernorm}_backward__bf16__BLOCK_16384__num_warps_*__div8.json > $o/rows16384.txt 2>&1); echo rows rc=$?
t "torch_ops norms"
timeout 200 env OUT=$o python3 torch_ops.py --only rms_norm,layer_norm > $o/torch.txt 2>&1; echo torch rc=$?
t done
echo "== summary"
grep -E "PASS|FAIL" $o/norm_bench.txt | head -8
sed -n '/speed-up/,$p' $o/norm_bench.txt
tail -6 $o/rows16384.txt
grep -E "^  (rms_norm|layer_norm) .*(tessel|eager|compile|liger) " $o/torch.txt | head -24
grep -E "checks," $o/torch.txt
