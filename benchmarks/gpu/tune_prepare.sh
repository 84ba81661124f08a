#!/usr/bin/env bash
# tune_prepare.sh DEST [--only KERNEL,...]: the compile half of tuning the row kernels and GEMM
# (docs/Autotuning.md) for an H200 without LLVM: each kernel's TESSEL_TUNE space at the
# benchmark shapes, pruned by cuda:sm_90a's limits and compiled in parallel (cubins) into
# DEST/tune, plus tessel-tune-gpu and DEST/tune.sh, which times every variant on the GPU,
# verifies the winners and writes DEST/tuning.json. The compile logs (prune counts, compile
# times) are in DEST/logs. --only: just these kernels (e.g. --only gemm_block_ptr).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
dest=${1:?usage: tune_prepare.sh DEST [--only KERNEL,...]}
only=""
if (($# > 1)); then
  [[ $2 == --only && $# == 3 ]] || { echo "usage: tune_prepare.sh DEST [--only KERNEL,...]" >&2; exit 2; }
  only=",$3,"
fi
build=${TESSEL_BUILD_DIR:-$root/build}
"$root/scripts/build.sh" >/dev/null
rm -rf "$dest" && mkdir -p "$dest/bin" "$dest/logs"
# tune FILE KERNEL SHAPE... [-- TESSEL-TUNE-ARGS]: one compile-only run over the shapes
# (RUN_NAME=NAME: its log and its own directory under tune/, for a second run of a kernel).
tune() {
  local file=$1 kernel=$2 shapes=() extra=()
  shift 2
  [[ -z $only || $only == *",$kernel,"* ]] || return 0
  while (($#)) && [[ $1 != -- ]]; do shapes+=(--shape "$1"); shift; done
  (($#)) && shift && extra=("$@")
  /usr/bin/time -f "$kernel: %e s wall" "$build/bin/tessel-tune" "$root/dsl/kernels/$file" \
    -k "$kernel" --dtype="${DTYPE:-bf16}" "${shapes[@]}" "${extra[@]}" --target=cuda:sm_90a --emit=cubin \
    --compile-only -o "$dest/tune${RUN_NAME:+/$RUN_NAME}" -v >"$dest/logs/${RUN_NAME:-$kernel}${DTYPE:+_$DTYPE}.log" 2>&1
  grep -E "space of|compiled [0-9]+ variants|wall" "$dest/logs/${RUN_NAME:-$kernel}${DTYPE:+_$DTYPE}.log"
}
tune softmax.cpp softmax 4096x16384 16384x4096 32768x1000
tune softmax.cpp softmax_looped 4096x16384
tune rmsnorm.cpp rmsnorm 4096x16384 16384x4096 32768x1000
tune rmsnorm.cpp add_rmsnorm 16384x4096
# add_rmsnorm_out: what tessel.ops.rms_norm(x, w, residual=r) runs (the sum into a new buffer),
# at the ops benchmark's shapes; without an entry the op ran an untuned default.
tune rmsnorm.cpp add_rmsnorm_out 4096x16384 16384x4096 32768x1000
tune layernorm.cpp layernorm 4096x16384 16384x4096 32768x1000
# 8192x128256 is 33 GB of host buffers and reference: give the key, build no problem here.
# reduction=none: the losses per row, as bench.sh times the row.
tune cross_entropy.cpp cross_entropy 8192x128256 -- --key n_cols=128256 --opt reduction=none
# The element-wise rows and RoPE (B8 S4096 H32/8 D128, as bench.sh runs it: a token's heads
# contiguous, one cos/sin table for every batch).
tune swiglu.cpp swiglu 16384x14336
tune swiglu.cpp geglu 16384x14336
tune swiglu_backward.cpp swiglu_backward 16384x14336
tune swiglu_backward.cpp geglu_backward 16384x14336
# The norms' backward at the benchmark shapes, 32 rows per program (about what tessel.ops
# gives each of the programs that fill the H200 there).
for k in rmsnorm_backward add_rmsnorm_backward; do
  tune rmsnorm_backward.cpp $k 4096x16384 16384x4096 32768x1000 -- --opt rows_per_program=32
done
tune layernorm_backward.cpp layernorm_backward 4096x16384 16384x4096 32768x1000 -- \
  --opt rows_per_program=32
tune vector_add.cpp vector_add 268435456
# RoPE's row on the Triton anchor's tables, (S, D/2) f32 (table=half): on an H100 both kernels
# ran the row 3.4% faster on them than on (S, D) ones (results/2026-12-06-h100-s65).
tune rope.cpp rope 8x32x8x4096x128 -- --key n_qh=32 --key n_kh=8 --opt layout=bshd --opt cos=shared \
  --opt table=half
# rope_qk: the same row in one launch by rope_flat's programs (BLOCK_S tokens of one head).
tune rope.cpp rope_qk 8x32x8x4096x128 -- --key seq_len=4096 --opt layout=bshd --opt cos=shared \
  --opt table=half
# rope_seq_out: what tessel.ops.rope runs on Hugging Face's (B, H, S, D) q and k.
tune rope.cpp rope_seq_out 8x32x8x4096x128 -- --key n_qh=32 --key n_kh=8
# rope_flat: what tessel.ops.rope runs when cos and sin are in q's dtype (q's 32 heads; k's
# launch shares the entry), one (S, D) table as the op benchmark's.
tune rope.cpp rope_flat 8x32x4096x128 -- --key seq_len=4096 --opt cos=shared
# GEMM (bf16, 4096^3): 138 of 216 tiles compile, about 2.5 minutes on 2 cores.
tune gemm.cpp gemm 4096x4096x4096 -- --key M=4096 --key N=4096 --key K=4096
# The TMA GEMM at issue 10's square rows: 82 of 180 configs compile (about a minute per dtype;
# results/2026-12-04-h200-s41 tuned them); the keys are read from the problems' arguments
# (built without data: seconds). Its twin is the
# one that reads A and B through TMA (A (M, K) and B (K, N) row-major, as the gemm problem has
# them): the automatic __div8 sees no unit strides through block pointers.
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
nt=--twin=nt:stride_ak=1,stride_bk=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bn%8,stride_cm%8
tune gemm.cpp gemm_block_ptr 4096x4096x4096 8192x8192x8192 -- "$nn"
DTYPE=f16 tune gemm.cpp gemm_block_ptr 1024x1024x2048 -- "$nn"
# The same key with B stored as nn.Linear's weight (N, K), through the __nt twin: the layouts'
# winners differ (results/2026-12-07-h100-s69, call Q: 128x64 on 8 stages 9.5 us for B (K, N)
# and 10.8 for W^T, where 64x128 with a producer warpgroup takes 9.0), so tessel.ops.matmul
# needs an entry per twin.
RUN_NAME=gemm_block_ptr_f16_nt DTYPE=f16 tune gemm.cpp gemm_block_ptr 1024x1024x2048 -- "$nt" \
  --opt b_order=col
# gemm_split_k at the LLM suite's decode rows (shared/anchors/gemm_suite.py, M <= 64: y = x W^T
# with W (N, K) as nn.Linear stores it, so B is column-major and the __nt twin reads both
# operands with TMA) and its M = 256 rows: 246 variants for the 20 keys (tile, ring, slices)
# from 41 binaries (the slice counts of one tile and ring share theirs), 22 s on 2 cores (25 s
# wall; the keys' problems were built with their random inputs and references before, 133 s).
# tessel.ops.matmul launches the winner with its SPLIT_K.
decode=()
for m in 1 16 64; do
  decode+=("${m}x6144x4096" "${m}x4096x4096" "${m}x28672x4096" "${m}x4096x14336")
done
decode+=(16x10240x8192 16x8192x8192 16x57344x8192 16x8192x28672)
# and its M = 256 rows (48 to 112 tiles of 128x256 on 132 SMs: a split, or 128-row tiles on
# 8 warps in one slice, which the space also holds)
decode+=(256x6144x4096 256x4096x4096 256x28672x4096 256x4096x14336)
tune gemm.cpp gemm_split_k "${decode[@]}" -- "$nt" --opt b_order=col
# The decode rows transposed, c^T (N, M) = W x^T, as tessel.ops.matmul may launch them: the
# weight's rows fill wgmma's M, the tokens a 16-wide N (the space's 64x16 tiles, rings of up to
# 16 stages, up to 16 slices); W row-major as a, x^T column-major as b, c^T column-major (the
# __ntt twin: TMA for both operands). The op takes the entry when it beats the product's own.
# The GPU side times the keys in this order: 64 tokens (the tile the product has anyway) and the
# 940 MB weight (its host data and reference take the most) last, for a time-limited run.
ntt=--twin=ntt:stride_ak=1,stride_bk=1,stride_cm=1,K%8,stride_am%8,stride_bn%8,stride_cn%8
swapped=()
for m in 1 16; do
  swapped+=("6144x${m}x4096" "4096x${m}x4096" "28672x${m}x4096" "4096x${m}x14336")
done
swapped+=(10240x16x8192 8192x16x8192 8192x16x28672)
swapped+=(6144x64x4096 4096x64x4096 28672x64x4096 4096x64x14336 57344x16x8192)
RUN_NAME=gemm_split_k_swap tune gemm.cpp gemm_split_k "${swapped[@]}" -- "$ntt" --opt b_order=col \
  --opt c_order=col
# gemm_block_ptr at the suite's 12 M >= 2048 rows, then its 4 M = 256 rows (where the op takes
# it when faster than split-K's entry), B column-major through the __nt twin: 82 configs for the
# 16 keys, 45-50 s on 2 cores; on the H200 3-33 s a key (results/2026-12-05-h200-s51), on the
# H100 2-61 s (results/2026-12-05-h100-s52). check_rows: the winner's
# float64 reference on 4 rows spread over M (a whole 8192x28672x4096 reference would take the
# host hours). Its own directory (tune/gemm_block_ptr_llm/gemm_block_ptr__bf16): the square
# rows' manifest above keeps its own.
large=()
for m in 2048 8192 256; do
  large+=("${m}x6144x4096" "${m}x4096x4096" "${m}x28672x4096" "${m}x4096x14336")
done
large+=(2048x10240x8192 2048x8192x8192 2048x57344x8192 2048x8192x28672)
RUN_NAME=gemm_block_ptr_llm tune gemm.cpp gemm_block_ptr "${large[@]}" -- "$nt" --opt b_order=col --opt check_rows=4
# gemm_persistent at the same 16 keys (its 16 configs: one program per SM; tessel.ops.matmul
# launches its entry where it is the fastest of the shape), 9 s on 2 cores.
RUN_NAME=gemm_persistent_llm tune gemm.cpp gemm_persistent "${large[@]}" -- "$nt" --opt b_order=col --opt check_rows=4
cp "$build/bin/tessel-tune-gpu" "$dest/bin/"
cat >"$dest/tune.sh" <<'SH'
#!/usr/bin/env bash
# Times every variant under tune/ on the GPU, verifies each winner, writes tuning.json.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/bin/tessel-tune-gpu" "$here/tune" --cache "$here/tuning.json" "$@"
SH
chmod +x "$dest/tune.sh"
echo "tune_prepare: $(find "$dest/tune" -name '*.cubin' | wc -l) cubins in $dest/tune ($(du -sh "$dest" | cut -f1)); run $dest/tune.sh on the GPU"
