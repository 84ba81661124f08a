#!/bin/bash
# Builds the s57 experiment cubins into .device/x57/k (div8 twins only kept).
cd /work/main; K=.device/x57/k; mkdir -p $K; T=build/bin/tesselc
c() { $T "$@" --dtype bf16 --target=cuda:sm_90a --emit=cubin -o $K >/dev/null 2>&1 || echo "FAILED $*"; }
for k in rmsA rmsB rmsC rmsD; do for nw in 1 2 4; do c .device/x57/src/rms_exp.cpp -k $k -D BLOCK=1024 -D num_warps=$nw; done; done
for nw in 1 2 4; do c dsl/kernels/softmax.cpp -k softmax -D BLOCK=1024 -D num_warps=$nw; c dsl/kernels/rmsnorm.cpp -k rmsnorm -D BLOCK=1024 -D num_warps=$nw; done
for b in 4096:4 4096:8 4096:16 16384:16 16384:32; do
  for k in addP addQ addR; do c .device/x57/src/rms_exp.cpp -k $k -D BLOCK=${b%:*} -D num_warps=${b#*:}; done
  c dsl/kernels/rmsnorm.cpp -k add_rmsnorm_out -D BLOCK=${b%:*} -D num_warps=${b#*:}
done
for bs in 16 32; do for hh in 1 2 4; do for nw in 2 4; do c .device/x57/src/rope_exp.cpp -k ropeU -D BLOCK_S=$bs -D HEADS=$hh -D num_warps=$nw; done; done; done
for nw in 2 4; do c dsl/kernels/rope.cpp -k rope_seq_out -D BLOCK_S=16 -D num_warps=$nw; done
for f in $K/*; do case $f in *__div8.cubin|*__div8.json) ;; *) rm -f $f;; esac; done
