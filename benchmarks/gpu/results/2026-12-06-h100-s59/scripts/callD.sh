#!/bin/bash
# s59 call D (the machine of calls A-C): gemm_bench.py's acceptance rows (bf16 4096^3 and 8192^3,
# f16 1024x1024x2048, f16 1000x999x1001 (case C7's shape), bf16 4096^3 + bias + ReLU): every
# library GEMM cubin whose promises the shape keeps, verified then timed by tessel-run-gpu,
# beside cuBLAS and Triton (do_bench); gemm_split_k at 1024x1024x2048 with 2-4 slices; then
# verify.sh gemm (C7, 511^3, single rows, padded A, transposed B, split-K) on the TMA kernels.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu --format=csv,noheader
SECONDS=0; OUT=$o timeout ${TB:-300} python3 gemm_bench.py --reps 40 > $o/gemm_bench.txt 2>&1; echo "bench rc=$? ${SECONDS}s"; grep -v '^  ' $o/gemm_bench.txt | tail -12
mkdir -p $o/splitk; SECONDS=0; OUT=$o/splitk timeout 60 python3 gemm_bench.py --reps 40 --no-triton --split-k 2,3,4 --shapes f16:1024x1024x2048 > $o/splitk/gemm_bench.txt 2>&1; echo "split-k rc=$? ${SECONDS}s"; grep "^  tessel" $o/splitk/gemm_bench.txt | awk '{print $5, $9, $4}' | sort -n | head -6 | cut -c1-200; grep -v '^  ' $o/splitk/gemm_bench.txt | tail -3
for name in gemm_split_k gemm_persistent gemm_block_ptr__bf16; do
  f="kernels/${name}__*"
  SECONDS=0; GEMM_FILTER="$f" GEMM_LARGE=0 VERIFY_BATCH=1 timeout ${TV:-70} ./verify.sh gemm > $o/verify.txt 2>&1; echo "verify $name rc=$? ${SECONDS}s: $(grep 'gemm variants' $o/verify.txt)"; grep FAIL $o/verify.txt | head -3 | cut -c1-200; mv $o/verify.txt "$o/verify_$name.txt"
done
