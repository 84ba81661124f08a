#!/bin/bash
# Compiles the experiment's variants into .device/s60/X/{v1,v2,v3}; v0 = session 59's cubins.
set -e
cd /work/main; X=.device/s60/X; rm -rf $X/v0 $X/v1 $X/v2 $X/v3; mkdir -p $X/v0 $X/v1 $X/v2 $X/v3
C="build/bin/tesselc --target=cuda:sm_90 --dtype=bf16 --emit=ptx,cubin"
ce_cfgs="4096:8 8192:8 8192:16 16384:8 16384:16"
sm_cfgs="1024:4 4096:4 16384:16"
one() { # dir src kernel block warps
  $C $2 -k $3 -D BLOCK=$4 -D num_warps=$5 -o $1 > /dev/null; }
for c in $ce_cfgs; do b=${c%:*}; w=${c#*:}
  one $X/v1 /tmp/old/cross_entropy.cpp cross_entropy $b $w
  one $X/v2 dsl/kernels/cross_entropy.cpp cross_entropy $b $w
  one $X/v1 /tmp/old/cross_entropy.cpp cross_entropy_fused $b $w
  one $X/v2 dsl/kernels/cross_entropy.cpp cross_entropy_fused $b $w
done
for c in $sm_cfgs; do b=${c%:*}; w=${c#*:}
  one $X/v1 /tmp/old/softmax.cpp softmax $b $w
  one $X/v2 dsl/kernels/softmax.cpp softmax $b $w
done
# v0: the same names from session 59's tuning directories (old compiler, old kernels)
for f in $X/v1/*.json; do n=$(basename $f .json)
  for d in .device/s59/B/tune/*; do [[ -f $d/$n.cubin ]] && cp $d/$n.json $d/$n.cubin $X/v0/ && break; done; done
# v3: v2's PTX with ex2.approx.ftz.f32, through ptxas as tesselc runs it
for f in $X/v2/*.ptx; do n=$(basename $f .ptx)
  sed 's/ex2\.approx\.f32/ex2.approx.ftz.f32/g' $f > $X/v3/$n.ptx
  /usr/local/cuda/bin/ptxas -arch=sm_90 -O3 $X/v3/$n.ptx -o $X/v3/$n.cubin
  cp $X/v2/$n.json $X/v3/; done
rm -f $X/v*/*.ptx.keep
ls $X/v0 | wc -l; ls $X/v1 | wc -l; ls $X/v3 | wc -l
