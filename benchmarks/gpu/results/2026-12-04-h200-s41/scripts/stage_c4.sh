#!/usr/bin/env bash
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest"; mkdir -p "$dest/kernels" "$dest/cluster"
cp "$build/bin/tessel-run-gpu" "$root/benchmarks/gpu/gemm_bench.py" "$root/.device/s40/triton_gemm.py" "$dest/"
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
nna=--twin=nna:stride_ak=1,stride_bn=1,stride_cn=1,stride_am%8,stride_bk%8
nta=--twin=nta:stride_ak=1,stride_bk=1,stride_cn=1,stride_am%8,stride_bn%8
comp() { # comp DIR ARGS...
  local out=$1 tmp; shift; tmp=$(mktemp -d)
  "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k gemm_block_ptr --target=cuda:sm_90a \
    --emit=tile,cubin -o "$tmp" -D HAS_BIAS=false -D ACT=none "$@" > "$tmp.log" 2>&1 || { grep -m3 error "$tmp.log"; rm -rf "$tmp"; return 0; }
  find "$tmp" -name '*.json' ! -name '*__nn.json' ! -name '*__nt.json' ! -name '*__nna.json' ! -name '*__nta.json' -delete
  find "$tmp" -name '*.tile.mlir' -delete
  cp "$tmp"/* "$out/"; rm -rf "$tmp" "$tmp.log"
}
# exploration at 1024x1024x2048 (f16): tiles that let two CTAs share an SM, and BLOCK_K = 128
for cfg in "-D BLOCK_M=64 -D BLOCK_N=64 -D num_stages=3" "-D BLOCK_M=64 -D BLOCK_N=64 -D num_stages=4" \
           "-D BLOCK_M=64 -D BLOCK_N=64 -D num_stages=6" "-D BLOCK_M=64 -D BLOCK_N=128 -D num_stages=3" \
           "-D BLOCK_M=128 -D BLOCK_N=64 -D num_stages=3" "-D BLOCK_M=64 -D BLOCK_N=128 -D num_stages=8" \
           "-D BLOCK_M=64 -D BLOCK_N=128 -D BLOCK_K=128 -D num_stages=3" \
           "-D BLOCK_M=128 -D BLOCK_N=64 -D BLOCK_K=128 -D num_stages=3" \
           "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4"; do
  comp "$dest/kernels" --dtype f16 -D num_warps=4 $cfg --specialize=false "$nn" "$nt"
  comp "$dest/kernels" --dtype f16 -D num_warps=4 $cfg -D warp_specialize=1 --specialize=false "$nn" "$nt"
done
# cluster variants to verify
for dt in f16 bf16; do
  for cfg in "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3"; do
    comp "$dest/cluster" --dtype $dt $cfg -D warp_specialize=1 -D cluster_size=2 --specialize=false "$nn" "$nt" "$nna" "$nta"
  done
done
ls "$dest/kernels" | wc -l; ls "$dest/cluster" | wc -l; du -sh "$dest"
