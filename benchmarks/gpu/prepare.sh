#!/usr/bin/env bash
# prepare.sh DEST: builds Tessel, compiles the kernel library for cuda:sm_90a (cubins and
# metadata) and gathers what a GPU machine without LLVM/MLIR needs into DEST: tessel-run-gpu,
# the kernels, these scripts, the Triton reference script without its GEMM part, and its GEMM
# kernel alone (triton_gemm.py) for gemm_bench.py. PREPARE_GEMM=0: without GEMM (below).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:?usage: prepare.sh DEST}
build=${TESSEL_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
rm -rf "$dest" && mkdir -p "$dest/kernels" "$dest/cases"
for f in "$root"/dsl/kernels/*.cpp; do
  [[ $(basename "$f") == gemm.cpp ]] && continue # below: it may not compile for GPUs yet
  "$build/bin/tesselc" "$f" --target=cuda:sm_90a --emit=tile,cubin -o "$dest/kernels" >/dev/null
done
# More configs of the row kernels for the benchmark to choose from (what an autotuner would
# try): num_warps around the library's defaults.
tune() { # tune FILE KERNEL BLOCK-FIELD... : one tesselc run per -D set
  local file=$1 kernel=$2; shift 2
  for cfg in "$@"; do
    "$build/bin/tesselc" "$root/dsl/kernels/$file" -k "$kernel" --dtype bf16 $cfg \
      --target=cuda:sm_90a --emit=tile,cubin -o "$dest/kernels" >/dev/null
  done
}
for k in softmax rmsnorm layernorm; do
  f=$k.cpp
  tune $f $k "-D BLOCK=16384 -D num_warps=32" "-D BLOCK=4096 -D num_warps=4" \
    "-D BLOCK=4096 -D num_warps=16" "-D BLOCK=1024 -D num_warps=2" "-D BLOCK=1024 -D num_warps=8"
done
tune cross_entropy.cpp cross_entropy "-D BLOCK=2048 -D num_warps=4" "-D BLOCK=4096 -D num_warps=16" \
  "-D BLOCK=8192 -D num_warps=8"
# RoPE with an __h0 twin: cos/sin tables of D/2 columns (cos_half_offset = 0, the Triton
# anchor's tables), whose two halves share one load of each table.
h0=--twin=h0:q_batch_stride%8,q_seq_stride%8,q_head_stride%8,k_batch_stride%8,k_seq_stride%8
h0+=,k_head_stride%8,cos_batch_stride%8,cos_seq_stride%8,cos_half_offset=0
tune rope.cpp rope "-D HALF=64 -D BLOCK_H=32 -D num_warps=8 $h0" "-D HALF=64 -D BLOCK_H=32 -D num_warps=2 $h0" \
  "-D HALF=64 -D BLOCK_H=32 -D num_warps=16" "-D HALF=64 -D BLOCK_H=32 -D num_warps=4 $h0"
tune rmsnorm.cpp add_rmsnorm "-D BLOCK=4096 -D num_warps=16" "-D BLOCK=4096 -D num_warps=4"
tune rmsnorm.cpp add_rmsnorm_out "-D BLOCK=4096 -D num_warps=16" "-D BLOCK=4096 -D num_warps=4"
# One warp per row at 1024 (32 elements per thread, no reduction between warps), which the ops'
# fewest-warps rule takes at 1000 columns: H200 layernorm 37.6 us against 38.0 on 2 warps and
# 43.2 on 4, add_rmsnorm_out 66.7 against 67.6 (results/2026-12-03-h200-s39).
for k in rmsnorm layernorm; do tune $k.cpp $k "-D BLOCK=1024 -D num_warps=1"; done
tune rmsnorm.cpp add_rmsnorm_out "-D BLOCK=1024 -D num_warps=1"
tune rmsnorm.cpp rmsnorm_looped "-D BLOCK=4096 -D num_warps=16"
# The norms' backward on 32 warps (past AMD's limit, so not in the library's CONFIGS): fewer
# elements per thread, so fewer registers and spills at 8192 and 16384 columns (tessel.ops
# picks the variant that keeps the most warps per SM), in every dtype: the library's
# layernorm_backward stops at 8192 columns.
# add_rmsnorm_backward (in rmsnorm_backward.cpp) as rmsnorm_backward.
for k in rmsnorm_backward layernorm_backward add_rmsnorm_backward; do
  for block in 4096 8192 16384; do
    "$build/bin/tesselc" "$root/dsl/kernels/${k#add_}.cpp" -k $k -D BLOCK=$block -D num_warps=32 \
      --target=cuda:sm_90a --emit=tile,cubin -o "$dest/kernels" >/dev/null
  done
done
# C1: LayerNorm in blocks wider than the row.
for cfg in "32 1" "4 1" "2048 4"; do
  set -- $cfg
  "$build/bin/tesselc" "$root/dsl/kernels/layernorm.cpp" -k layernorm --dtype f32 -D BLOCK=$1 \
    -D num_warps=$2 --target=cuda:sm_90a --emit=tile,cubin --specialize=false -o "$dest/cases" >/dev/null
done
# Cases without a library kernel: C8 ([16, 1] reduced along axis 0), C9 (masked max, f32),
# C12 (float atomic max / min).
for c in c8_reduce_column c12_atomic_minmax; do
  "$build/bin/tesselc" "$root/benchmarks/gpu/cases/$c.mlir" --target=cuda:sm_90a \
    --emit=tile,cubin -o "$dest/cases" >/dev/null
done
sh "$root/test/kernels/instantiate.sh" f32 arith.bitcast arith.bitcast BLK=128 \
  < "$root/test/kernels/Inputs/row_max.mlir" > "$dest/cases/row_max_f32.mlir"
"$build/bin/tesselc" "$dest/cases/row_max_f32.mlir" --target=cuda:sm_90a --emit=tile,cubin \
  --specialize=false -o "$dest/cases" >/dev/null
# A user kernel, not in the library, for user_kernel.sh (README, "Your own kernel").
"$build/bin/tesselc" "$root/examples/residual_gate.cpp" --target=cuda:sm_90a --emit=tile,cubin \
  -o "$dest/user" >/dev/null || echo "note: tesselc cannot compile examples/residual_gate.cpp"
# PREPARE_GEMM=0 skips gemm.cpp (about 25 of prepare's 30 minutes on two cores): a round of
# the row kernels, their ops and tuning; GEMM, matmul and fused linear cross-entropy then have
# no kernels there.
if [[ ${PREPARE_GEMM:-1} == 1 ]]; then
# GEMM: sm_90a cubins beside the other kernels (verify.sh, gemm_bench.py); sm_80 variants in
# gemm_sm80/ as PTX, which the driver compiles for the H200 at load (an sm_80 cubin does not
# run on sm_90), and as sm_80 cubins in gemm_sm80_cubin/ (ptxas accepts them; not run).
# If tesselc fails on gemm.cpp, one line says so and everything else goes on without GEMM.
# Each target compiles into a scratch directory first, so a failure leaves no partial variants.
gemm() { # gemm TARGET DIR EMIT [TESSELC ARGS...]: every variant of gemm.cpp, or one note
  local target=$1 dir=$2 emit=$3 tmp; shift 3
  tmp=$(mktemp -d)
  if "$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k "${kernel:-gemm}" --target="$target" \
       --emit="$emit" -o "$tmp/out" "$@" >"$tmp/log" 2>&1; then
    mkdir -p "$dir" && cp "$tmp"/out/* "$dir/"
  else
    echo "note: tesselc cannot compile gemm.cpp for $target yet, GEMM skipped there:" \
      "$(grep -m1 'error:' "$tmp/log" | cut -c1-160 || true)"
    rm -rf "$tmp"
    return 1
  fi
  rm -rf "$tmp"
}
# sm_90a variants also get an __nt twin: A and B both contiguous along K (B stored (N, K), as
# nn.Linear's weight), the layout of y = x @ W^T, where both wgmma operands are K-major.
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
# __tn (A contiguous along M, B along N) and __tt (A along M, B along K) twins of 128x128 tiles on
# 4 warps (with every epilogue) and 128x256 on 8 warps: with the default's K-contiguous A and
# N-contiguous B and __nt, each transpose combination of wgmma's operands.
tn=--twin=tn:stride_am=1,stride_bn=1,stride_cn=1,M%8,N%8,stride_ak%8,stride_bk%8,stride_cm%8
tt=--twin=tt:stride_am=1,stride_bk=1,stride_cn=1,M%8,N%8,K%8,stride_ak%8,stride_bn%8,stride_cm%8
if gemm cuda:sm_90a "$dest/kernels" tile,cubin "$nt"; then
  for dt in bf16 f16; do
    gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt -D BLOCK_M=128 -D BLOCK_N=128 \
      -D num_warps=4 -D num_stages=3 "$tn" "$tt" || true
  done
  gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype bf16 -D BLOCK_M=128 -D BLOCK_N=256 \
    -D num_warps=8 -D num_stages=3 -D HAS_BIAS=false -D ACT=none "$tn" "$tt" || true
  # More block shapes for the benchmark to choose from (Triton's autotune list, and 64-row
  # tiles on one warpgroup for shapes with few 128-row tiles), without the epilogue: bf16 and
  # f16 only, the benchmark's dtypes.
  for dt in bf16 f16; do
    for cfg in "-D BLOCK_M=256 -D BLOCK_N=128 -D num_warps=8 -D num_stages=3" \
               "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=4" \
               "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
               "-D BLOCK_M=64 -D BLOCK_N=256 -D num_warps=4 -D num_stages=3" \
               "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=4"; do
      gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt $cfg -D HAS_BIAS=false -D ACT=none \
        "$nt" || true
    done
  done
fi
# gemm_block_ptr: the same GEMM through block pointers, every config; its __nn (A along K, B
# along N) and __nt twins copy A and B with TMA, the others with masked cp.async. Also the
# benchmark's extra block shapes, bf16 and f16, with rings of 6-8 stages for the M = 256, decode
# and small rows (results/2026-12-01-h200-residual: 3-30% faster there than 3-4 stages).
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
# __nna and __nta: the same copies for any M, N and K (only the row strides aligned), which
# tessel.ops.matmul runs on its padded copies of operands whose rows are not 16-byte multiples.
nna=--twin=nna:stride_ak=1,stride_bn=1,stride_cn=1,stride_am%8,stride_bk%8
nta=--twin=nta:stride_ak=1,stride_bk=1,stride_cn=1,stride_am%8,stride_bn%8
if kernel=gemm_block_ptr gemm cuda:sm_90a "$dest/kernels" tile,cubin "$nn" "$nt" "$nna" "$nta"; then
  for dt in bf16 f16; do
    for cfg in "-D BLOCK_M=256 -D BLOCK_N=128 -D num_warps=8 -D num_stages=3" \
               "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=4" \
               "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
               "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
               "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=8" \
               "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6" \
               "-D BLOCK_M=64 -D BLOCK_N=64 -D num_warps=4 -D num_stages=8" \
               "-D BLOCK_M=128 -D BLOCK_N=96 -D num_warps=8 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=96 -D num_warps=4 -D num_stages=6"; do
      kernel=gemm_block_ptr gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt $cfg \
        -D HAS_BIAS=false -D ACT=none "$nn" "$nt" "$nna" "$nta" || true
    done
  done
  # __tn twins (TMA copies of an A stored along M) of the 128x256 tiles: fused linear
  # cross-entropy's grad_weight = dlogits_c^T @ x (results/2026-12-04-h200-s40: 0.348 ms at
  # 3968x4096x8192 against gemm's 0.356 through cp.async; cuBLAS 0.337).
  for dt in bf16 f16; do
    for stages in 3 4; do
      kernel=gemm_block_ptr gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt -D BLOCK_M=128 \
        -D BLOCK_N=256 -D num_warps=8 -D num_stages=$stages -D HAS_BIAS=false -D ACT=none "$tn" || true
    done
  done
  # Warp-specialized candidates (warp_specialize=1: a producer warpgroup issues the TMA copies,
  # num_warps + 4 warps in all; issue 10), for the small and skinny shapes where cuBLAS runs
  # 384-thread kernels: 128x128 with 4 and 6 stages (6: M = 256, results/2026-12-04-h200-s43),
  # 64x128 with 6 and 8, 128x64 with 8 (one wave of tiles at f16 1024x1024x2048: 12.6 us, the
  # tuner's best on the H100, results/2026-12-05-h100-s53), 128x256 with 3 and 4 on two
  # consumer warpgroups.
  for dt in bf16 f16; do
    for cfg in "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
               "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=8" \
               "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=6" \
               "-D BLOCK_M=64 -D BLOCK_N=128 -D num_warps=4 -D num_stages=8" \
               "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3" \
               "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=4"; do
      kernel=gemm_block_ptr gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt $cfg \
        -D warp_specialize=1 -D HAS_BIAS=false -D ACT=none --specialize=false "$nn" "$nt" "$nna" \
        "$nta" || true
    done
  done
  # The TMA-store epilogue (tma_store=1: the tile through shared memory and bulk tensor
  # copies; as fast as st.global on the H200, results/2026-12-05-h200-s48) on the tiles
  # gemm_bench picks most, with and without a producer warpgroup: verify.sh and gemm_bench.py
  # take them as any other.
  for dt in bf16 f16; do
    for cfg in "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3" \
               "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4" \
               "-D BLOCK_M=128 -D BLOCK_N=64 -D num_warps=4 -D num_stages=6"; do
      for ws in 0 1; do
        kernel=gemm_block_ptr gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt $cfg \
          -D warp_specialize=$ws -D tma_store=1 -D HAS_BIAS=false -D ACT=none --specialize=false \
          "$nn" "$nt" "$nna" "$nta" || true
      done
    done
  done
  # gemm_persistent: one program per SM over the tiles, its library configs (a producer
  # warpgroup each) in the TMA twins; 64x128 with 6 stages, which it ran 8-12% faster than
  # gemm_block_ptr (results/2026-12-04-h200-s42).
  kernel=gemm_persistent gemm cuda:sm_90a "$dest/kernels" tile,cubin --specialize=false "$nn" \
    "$nt" || true
  for dt in bf16 f16; do
    kernel=gemm_persistent gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt -D BLOCK_M=64 \
      -D BLOCK_N=128 -D num_warps=4 -D num_stages=6 -D warp_specialize=1 -D HAS_BIAS=false \
      -D ACT=none --specialize=false "$nn" "$nt" || true
  done
  # ... and its library configs with the TMA-store epilogue inside the tile loop.
  for dt in bf16 f16; do
    for cfg in "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=2" \
               "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=4 -D num_stages=4"; do
      kernel=gemm_persistent gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt $cfg \
        -D warp_specialize=1 -D tma_store=1 -D HAS_BIAS=false -D ACT=none --specialize=false \
        "$nn" "$nt" || true
    done
  done
  # gemm_stream_k: one program per SM over equal spans of the tiles' K-blocks; its library
  # configs in the TMA twins (results/2026-12-04-h200-s43: correct, slower than gemm_block_ptr
  # and gemm_split_k on every row timed; staged so that gemm_bench.py keeps timing it).
  kernel=gemm_stream_k gemm cuda:sm_90a "$dest/kernels" tile,cubin --specialize=false "$nn" \
    "$nt" || true
  # The fastest large tile with the fused bias + ReLU epilogue (gemm_bench.py's :bias_relu rows).
  kernel=gemm_block_ptr gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype bf16 -D BLOCK_M=128 \
    -D BLOCK_N=256 -D num_warps=8 -D num_stages=3 -D HAS_BIAS=true -D ACT=relu "$nn" "$nt" || true
fi
# gemm_residual (out = x @ w + residual): TMA twins as gemm_block_ptr's, with the residual
# row-major too; its library configs and the two fastest large tiles without a bias. The
# __tn twin is fused linear cross-entropy's grad_weight += dlogits^T @ x (A along M).
rnn="$nn,stride_rn=1,stride_rm%8" rnt="$nt,stride_rn=1,stride_rm%8" rtn="$tn,stride_rn=1,stride_rm%8"
if kernel=gemm_residual gemm cuda:sm_90a "$dest/kernels" tile,cubin "$rnn" "$rnt"; then
  for cfg in "-D BLOCK_M=128 -D BLOCK_N=256 -D num_warps=8 -D num_stages=3" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D num_warps=8 -D num_stages=4"; do
    kernel=gemm_residual gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype bf16 $cfg \
      -D HAS_BIAS=false "$rnn" "$rnt" "$rtn" || true
  done
fi
# gemm_ce_backward (fused linear cross-entropy's backward windows: x @ W_c^T, both along K, C
# row-major): __nt for windows whose width is a multiple of 8, __nta for any other (the last
# window of an odd vocabulary). Also the 128x256 tile on 8 warps, which the op takes on sm_90a
# (its epilogue needs 128 KiB of shared memory, more than some targets' programs have).
kernel=gemm_ce_backward gemm cuda:sm_90a "$dest/kernels" tile,cubin "$nt" "$nta" || true
for dt in bf16 f16; do
  kernel=gemm_ce_backward gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype $dt -D BLOCK_M=128 \
    -D BLOCK_N=256 -D num_warps=8 -D num_stages=3 "$nt" "$nta" || true
done
# gemm_swiglu (the fused SwiGLU up-projection): its __a16 twin (row strides multiples of 8)
# copies x, w_gate and w_up with TMA.
a16=--twin=a16:K%8,N%8,stride_xm%8,stride_wn%8,stride_om%8
"$build/bin/tesselc" "$root/dsl/kernels/gemm.cpp" -k gemm_swiglu --target=cuda:sm_90a \
  --emit=tile,cubin -o "$dest/kernels" "$a16" >/dev/null ||
  echo "note: tesselc cannot compile gemm_swiglu for cuda:sm_90a"
# gemm_split_k (products with too few tiles for the GPU: decode, M = 1..64): its __nn and __nt
# twins copy A and B with TMA.
# Extra bf16 tiles: 64x32 (128 tiles at N = 4096 without a split), 128x128 (M = 256: 64 tiles at
# N = 4096, split in two), 128x96 (M = 256: 128 tiles at N = 6144, padded to 128 columns and
# run as wgmma m64n96) and 64x256 (N = 28672 in 112 tiles, one wave).
if kernel=gemm_split_k gemm cuda:sm_90a "$dest/kernels" tile,cubin "$nn" "$nt"; then
  for cfg in "-D BLOCK_N=32 -D BLOCK_K=128 -D num_stages=6" \
             "-D BLOCK_M=128 -D BLOCK_N=128 -D BLOCK_K=64 -D num_warps=8 -D num_stages=4" \
             "-D BLOCK_M=128 -D BLOCK_N=96 -D BLOCK_K=64 -D num_warps=8 -D num_stages=6" \
             "-D BLOCK_M=64 -D BLOCK_N=256 -D BLOCK_K=64 -D num_warps=4 -D num_stages=4" \
             "-D BLOCK_M=64 -D BLOCK_N=128 -D BLOCK_K=64 -D num_warps=4 -D num_stages=8" \
             "-D BLOCK_M=64 -D BLOCK_N=32 -D BLOCK_K=128 -D num_warps=4 -D num_stages=8"; do
    kernel=gemm_split_k gemm cuda:sm_90a "$dest/kernels" tile,cubin --dtype bf16 $cfg "$nn" "$nt" ||
      true
  done
fi
gemm cuda:sm_80 "$dest/gemm_sm80" tile,ptx || true
gemm cuda:sm_80 "$dest/gemm_sm80_cubin" cubin || true
fi # PREPARE_GEMM
# DSL ops for ops.py: the interpreter runs of their lit tests, replayed on the GPU, and the
# debug ops (device_print, device_assert) with and without --debug.
ops_tests=()
for t in pow-clamp umulhi reduce-all reduce-3d branch-literal c10-argmax dot-fma-sliced sort topk split-join scan scan-layouts \
  pad-shapes pad-library pad-block-ptr; do
  ops_tests+=("$root/test/kernels/$t.test")
done
python3 "$root/benchmarks/gpu/ops_prepare.py" "$dest" "${ops_tests[@]}" >/dev/null
for mode in debug plain; do
  "$build/bin/tesselc" "$root/test/dsl/debug.cpp" $([[ $mode == debug ]] && echo --debug) \
    --target=cuda:sm_90a --emit=tile,cubin -o "$dest/ops/$mode" >/dev/null 2>&1
done
cp "$build/bin/tessel-run-gpu" "$root"/benchmarks/gpu/{verify.sh,bench.sh,table.py,run.sh,gemm_bench.py,swiglu_bench.py,user_kernel.sh,ops.py,cumsum_bench.py,moe_bench.py,sampling_bench.py,torch_ops.py,matmul_bench.py,norm_bench.py,flce_profile.py,flce_rounds.py,flce_explore.py,host_overhead.py,host_profile.py,decode_flush.py,gemm_clocks.py,flushed.py,norm_step_profile.py,llm_suite.sh,llm_shapes.py,rope_ab.py} "$dest/"
# The tessel Python package for torch_ops.py: its sources and libtessel_launcher.so (the CUDA
# driver only; the interpreter's library, which needs MLIR, stays here), over DEST/kernels.
mkdir -p "$dest/python/tessel/lib"
cp "$build"/python/tessel/*.py "$dest/python/tessel/"
cp "$build/lib/libtessel_launcher.so" "$dest/python/tessel/lib/"
# tessel-tune-gpu times the variants tune_prepare.sh compiles (docs/Autotuning.md).
mkdir -p "$dest/bin" && cp "$build/bin/tessel-tune-gpu" "$dest/bin/"
# The Triton reference without its GEMM part, and its GEMM kernel alone (triton_gemm.py).
python3 "$root/benchmarks/gpu/anchor_split.py" rows "$root/../shared/anchors/triton_reference.py" \
  "$dest/triton_reference.py"
python3 "$root/benchmarks/gpu/anchor_split.py" gemm "$root/../shared/anchors/triton_reference.py" \
  "$dest/triton_gemm.py"
echo "prepared $(ls "$dest/kernels"/*.cubin | wc -l) kernels ($(ls "$dest/kernels" | grep -c '^gemm__.*\.cubin$' || true) GEMM) in $dest"
