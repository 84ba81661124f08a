#!/usr/bin/env bash
# compile.sh SRCDIR DEST: the experimental kernels' bf16 variants, library configs + prepare.sh's extras.
set -e
src=$1 dest=$2 tc=/work/main/build/bin/tesselc
mkdir -p $dest
c() { $tc "$src/$1" -k $2 --dtype bf16 --target=cuda:sm_90a --emit=cubin -o $dest "${@:3}" >/dev/null; }
for k in rmsnorm add_rmsnorm_out; do c rmsnorm.cpp $k; done
c layernorm.cpp layernorm
for k in swiglu geglu; do c swiglu.cpp $k; done
for k in rope rope_out rope_seq_out; do c rope.cpp $k; done
for k in rmsnorm layernorm; do
  for cfg in "-D BLOCK=16384 -D num_warps=32" "-D BLOCK=4096 -D num_warps=4" "-D BLOCK=4096 -D num_warps=16" "-D BLOCK=1024 -D num_warps=2" "-D BLOCK=1024 -D num_warps=8"; do
    c $k.cpp $k $cfg; done
done
for cfg in "-D BLOCK=4096 -D num_warps=16" "-D BLOCK=4096 -D num_warps=4"; do c rmsnorm.cpp add_rmsnorm_out $cfg; done
h0=--twin=h0:q_batch_stride%8,q_seq_stride%8,q_head_stride%8,k_batch_stride%8,k_seq_stride%8
h0+=,k_head_stride%8,cos_batch_stride%8,cos_seq_stride%8,cos_half_offset=0
for cfg in "-D HALF=64 -D BLOCK_H=32 -D num_warps=8 $h0" "-D HALF=64 -D BLOCK_H=32 -D num_warps=2 $h0" "-D HALF=64 -D BLOCK_H=32 -D num_warps=16" "-D HALF=64 -D BLOCK_H=32 -D num_warps=4 $h0"; do
  c rope.cpp rope $cfg; done
