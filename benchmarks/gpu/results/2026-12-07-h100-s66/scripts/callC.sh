#!/bin/bash
# s65 call C (the machine of call B): QuACK installed from call B's half (in /tmp) and this
# call's; then Triton 3.6, PyTorch eager, torch.compile
# (triton_reference.py) and QuACK 0.6.5 (quack_reference.py) on the same rows, then one table
# with call B's tuned Tessel rows. triton_rows.py is the anchor script without its GEMM section (the rows only).
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
SECONDS=0; timeout 150 bash install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; tail -1 $o/quack_install.txt
cp /tmp/s65/tuned_rows.txt $o/ 2>/dev/null || echo "no tuned_rows.txt from call B"
SECONDS=0; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 200 python3 quack_reference.py > $o/quack.txt 2>&1; echo "quack rc=$? ${SECONDS}s"; tail -12 $o/quack.txt
SECONDS=0; OUT=$o timeout 330 python3 triton_rows.py > $o/triton.txt 2>&1; echo "triton rc=$? ${SECONDS}s"; tail -3 $o/triton.txt
python3 table.py $o/tuned_rows.txt $o/anchors.json $o/quack.json > $o/table.txt 2>&1; cat $o/table.txt
cp $o/table.txt $o/anchors.json $o/quack.json /tmp/s65/ 2>/dev/null
cd $o && tar czf /tmp/c.tgz . && rm -rf $o/* && mv /tmp/c.tgz $o/
