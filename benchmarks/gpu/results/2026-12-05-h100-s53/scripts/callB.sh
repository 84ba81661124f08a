#!/bin/bash
# s53 call B (H100, the machine of call A; run inline): gemm_bench.py's acceptance rows, every
# library GEMM cubin that reads with TMA verified then timed by tessel-run-gpu, beside cuBLAS and
# Triton (do_bench). .device/r55b carried the f16, gemm_persistent and gemm_stream_k cubins.
cd .device/r55 && cp -n ../r55b/kernels/* kernels/ && mkdir -p $OUT && PYTHONUNBUFFERED=1 OUT=$OUT timeout 330 python3 gemm_bench.py --reps 40 --shapes bf16:4096x4096x4096,bf16:8192x8192x8192,f16:1024x1024x2048,bf16:4096x4096x4096:bias_relu > $OUT/gemm_bench.txt 2>&1; echo "bench rc=$?"; grep -v '^  ' $OUT/gemm_bench.txt | tail -16
