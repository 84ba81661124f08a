#!/usr/bin/env bash
# Session 36 call 1: tessel.ops.matmul against cuBLAS and Triton (with every tile explored on
# the small and odd shapes), what a decode GEMM's weight read can reach, then the Python
# package's checks and the cross-entropy and RoPE rows (issue 12).
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*" | tee -a $o/log.txt; }
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1
t "matmul_bench"
timeout 330 env OUT=$o python3 matmul_bench.py --explore > $o/matmul.txt 2>&1; echo "matmul rc=$?" | tee -a $o/log.txt
t "read ceiling"
timeout 60 python3 exp/read_ceiling.py > $o/ceiling.txt 2>&1; echo "ceiling rc=$?" | tee -a $o/log.txt
t "torch_ops"
timeout $((570 - SECONDS + s)) env PYTHONPATH=/tmp/lg OUT=$o python3 torch_ops.py --only cross_entropy,rope > $o/torch.txt 2>&1; echo "torch rc=$?" | tee -a $o/log.txt
t done
echo "== summary"
sed -n '/^do_bench medians/,$p' $o/matmul.txt
grep -E "FAIL" $o/matmul.txt | head
cat $o/ceiling.txt
grep -E "checks,|FAIL" $o/torch.txt | head
tail -25 $o/torch.txt
