#!/bin/bash
# s58 call C (the machine of calls A-B): Triton 3.6, PyTorch eager, torch.compile
# (triton_reference.py) and QuACK 0.6.5 (quack_reference.py) on the same rows, then one table
# with call B's tuned Tessel rows.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
cp /tmp/s58/tuned_rows.txt $o/ 2>/dev/null || echo "no tuned_rows.txt from call B"
SECONDS=0; OUT=$o timeout 280 python3 triton_reference.py > $o/triton.txt 2>&1; echo "triton rc=$? ${SECONDS}s"; tail -3 $o/triton.txt
SECONDS=0; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 200 python3 quack_reference.py > $o/quack.txt 2>&1; echo "quack rc=$? ${SECONDS}s"; tail -14 $o/quack.txt
python3 table.py $o/tuned_rows.txt $o/anchors.json $o/quack.json > $o/table.txt 2>&1; cat $o/table.txt
