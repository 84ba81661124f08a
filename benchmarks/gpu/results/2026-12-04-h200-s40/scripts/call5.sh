#!/usr/bin/env bash
# Session 40 call 5: fused linear cross-entropy's pass 2 alone, back to back and with gaps,
# Tessel's kernels and cuBLAS's (pass2_sustained.py).
cd "$(dirname "$0")"; o=$OUT
timeout 120 python3 pass2_sustained.py > $o/sustained.txt 2>&1; echo rc=$?
timeout 120 python3 pass2_sustained.py --cublas > $o/sustained_cublas.txt 2>&1; echo rc=$?
cat $o/sustained.txt $o/sustained_cublas.txt
