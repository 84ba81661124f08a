#!/bin/bash
# s68 call Q: call P on an H200; on any other card, matmul_bench --explore at f16 1024x1024x2048
# over session 66's f16 gemm_block_ptr variants (why the op's pick there ran 0.890x cuBLAS).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
name=$(nvidia-smi --query-gpu=name --format=csv,noheader); echo "$name"
if [[ $name == *H200* ]]; then TT=${TT:-100} TS=${TS:-55} bash callP.sh; exit; fi
TESSEL_KERNEL_PATH=$PWD/kf16 OUT=$o timeout 110 python3 matmul_bench.py --no-triton --rounds 3 --explore --shapes f16:1024x1024x2048,f16:1024x1024x2048:bT > $o/explore.txt 2>&1
echo "explore rc=$?"; grep -v "^  do_bench\|^note" $o/explore.txt | cut -c1-200 | tail -40
cd $o && tar czf /tmp/q.tgz . && rm -rf $o/* && mv /tmp/q.tgz $o/
