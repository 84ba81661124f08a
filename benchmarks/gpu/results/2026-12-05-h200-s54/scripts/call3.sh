#!/bin/bash
# s54 call 3 (the machine of calls 1-2): Triton 3.6, PyTorch eager, torch.compile
# (triton_reference.py) and QuACK 0.6.5 (quack_reference.py) on the same rows, then one table
# with call 2's Tessel rows.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
(cd ../q2 && pip install -q --no-deps --target /tmp/qk2 *.whl > /dev/null 2>&1; cp -r /tmp/qk2/. /tmp/qk/; PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages python3 -c "import quack; print(\"quack ok\")" 2>&1 | tail -2)
cp /tmp/s54/tessel_bench.txt /tmp/s54/tuned_rows.txt $o/ 2>/dev/null
SECONDS=0; OUT=$o timeout 260 python3 triton_reference.py > $o/triton.txt 2>&1; echo "triton rc=$? ${SECONDS}s"; tail -3 $o/triton.txt
SECONDS=0; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 200 python3 quack_reference.py > $o/quack.txt 2>&1; echo "quack rc=$? ${SECONDS}s"; tail -14 $o/quack.txt
python3 table.py $o/tessel_bench.txt,$o/tuned_rows.txt $o/anchors.json $o/quack.json > $o/table.txt 2>&1; cat $o/table.txt
