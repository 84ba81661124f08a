#!/usr/bin/env bash
# Call 9 (issue 12, launch host time): the package at a37df8d ("base") against branch h40
# ("new"), in alternating processes, over call 8's kernels and libtessel_launcher.so (DIR = the
# directory prepare.sh made for call 8; the C API and the kernels did not change since). PATCH:
# `git diff -U1 a37df8d h40 -- python benchmarks/gpu/host_overhead.py`, sent to the machine.
set -e
R=${DIR:?} W=/tmp/w
rm -rf $W && mkdir -p $W/src
git archive a37df8d python benchmarks/gpu | tar -x -C $W/src
cp -r $W/src $W/newsrc && (cd $W/newsrc && git apply -p1 "${PATCH:?}")
for w in base new; do
  s=$W/src; [ $w = new ] && s=$W/newsrc
  d=$W/$w; mkdir -p $d/python/tessel/lib
  cp $s/python/tessel/*.py $d/python/tessel/
  cp $R/python/tessel/lib/libtessel_launcher.so $d/python/tessel/lib/
  cp $W/newsrc/benchmarks/gpu/host_overhead.py $s/benchmarks/gpu/torch_ops.py $d/
done
export TESSEL_KERNEL_PATH=$R/kernels
set +e
for r in 1 2 3; do for w in base new; do
  echo "== $w $r"; (cd $W/$w && python3 host_overhead.py 2>&1 | head -8)
done; done 2>&1 | tee $OUT/host_overhead_ab.txt
(cd $W/new && python3 host_overhead.py 2>&1) > $OUT/host_overhead_new.txt
(cd $W/base && python3 host_overhead.py 2>&1) > $OUT/host_overhead_base.txt
(cd $W/new && timeout 240 python3 torch_ops.py --quick 2>&1) > $OUT/torch_ops_quick.txt
