#!/usr/bin/env bash
# Session 39 call 7: cross_entropy_fused configs at 8192 and 2048 rows.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
timeout 300 python3 ce_sweep.py > $o/ce_sweep.txt 2>&1; echo "sweep rc=$? at $((SECONDS - s)) s"
cat $o/ce_sweep.txt
