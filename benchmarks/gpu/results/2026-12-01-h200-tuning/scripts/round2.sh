#!/usr/bin/env bash
# Round 2: the library rows (bench.sh), Triton/PyTorch/torch.compile, QuACK, in one session.
cd "$(dirname "$0")/../r26"; export PYTHONUNBUFFERED=1
o=$OUT; s=$SECONDS
t() { echo "[$((SECONDS-s))s] $*"; }
t quack-install
cat ../qa/cu13.part.aa ../qb/cu13.part.ab ../qb/cu13.part.ac > /tmp/nvidia_cutlass_dsl_libs_cu13-4.8.1-cp312-cp312-manylinux_2_28_x86_64.whl
pip install -q --no-deps --target /tmp/qk /tmp/nvidia_cutlass_dsl_libs_cu13-4.8.1-cp312-cp312-manylinux_2_28_x86_64.whl ../qa/*.whl ../qb/*.whl > $o/pip.txt 2>&1; tail -3 $o/pip.txt
t bench; timeout 200 ./bench.sh > $o/tessel_bench.txt 2>&1; grep -c ^ROW $o/tessel_bench.txt
t tuned-rows; [[ -f tuning_r1.json ]] && timeout 100 python3 tuned_rows.py tn/tune tuning_r1.json > $o/tuned_rows.txt 2>&1; grep -c ^ROW $o/tuned_rows.txt
t triton; OUT=$o timeout 220 python3 triton_reference.py > $o/triton.txt 2>&1; tail -3 $o/triton.txt
t quack; OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 150 python3 quack_reference.py > $o/quack.txt 2>&1; tail -14 $o/quack.txt
t table; python3 table.py $o/tessel_bench.txt,$o/tuned_rows.txt $o/anchors.json $o/quack.json > $o/table.txt 2>&1; cat $o/table.txt
t done
