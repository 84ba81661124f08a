#!/usr/bin/env bash
# gemm_block_ptr's configs as prepare.sh compiles them, with the __nna / __nta twins added.
set -euo pipefail
root=/work/main; dest=$root/.device/s36/kernels
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
nna=--twin=nna:stride_ak=1,stride_bn=1,stride_cn=1,stride_am%8,stride_bk%8
nta=--twin=nta:stride_ak=1,stride_bk=1,stride_cn=1,stride_am%8,stride_bn%8
for dt in bf16 f16; do
  $root/build/bin/tesselc $root/dsl/kernels/gemm.cpp -k gemm_block_ptr --dtype $dt --target=cuda:sm_90a --emit=tile,cubin -o $dest "$nn" "$nt" "$nna" "$nta" >/dev/null
  for cfg in "-D BLOCK_M=256 -D BLOCK_N=128 -D num_warps=8 -D num_stages=3" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=4" \
             "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=8" \
             "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=64 -D BLOCK_N=64 -D num_warps=4 -D num_stages=8"; do
    $root/build/bin/tesselc $root/dsl/kernels/gemm.cpp -k gemm_block_ptr --dtype $dt $cfg -D HAS_BIAS=false -D ACT=none \
      --target=cuda:sm_90a --emit=tile,cubin -o $dest "$nn" "$nt" "$nna" "$nta" >/dev/null
  done
done
echo twins done
