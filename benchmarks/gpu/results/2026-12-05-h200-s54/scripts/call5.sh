#!/bin/bash
# s54 call 5: QuACK's wheels merged into /tmp/qk (call 2's pip refused the existing directory),
# then quack_reference.py and the table of calls 2-3.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o
export PYTHONUNBUFFERED=1
ls ../q2 | head -3; ls /tmp/qk | head
(cd ../q2 && rm -rf /tmp/qk2 && pip install -q --no-deps --target /tmp/qk2 *.whl 2>&1 | grep -v WARNING | tail -3; cp -r /tmp/qk2/. /tmp/qk/)
ls /tmp/qk/nvidia_cutlass_dsl/dsl_packages/cutlass | head -5
PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages python3 -c "import quack; print('quack ok')" 2>&1 | tail -2
cp /tmp/s54/tessel_bench.txt /tmp/s54/tuned_rows.txt $o/ 2>/dev/null
SECONDS=0; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 200 python3 quack_reference.py > $o/quack.txt 2>&1; echo "quack rc=$? ${SECONDS}s"; tail -14 $o/quack.txt
