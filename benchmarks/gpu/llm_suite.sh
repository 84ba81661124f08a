#!/usr/bin/env bash
# llm_suite.sh [TUNE_DIR] (on a GPU machine, in a directory made by prepare.sh): the LLM
# linear-layer suite of shared/anchors/gemm_suite.py (32 shapes, bf16, y = x W^T) through
# tessel.ops.matmul beside cuBLAS and Triton in one process (matmul_bench.py --shapes llm), after
# tuning gemm_split_k at the suite's 16 decode rows (as written and transposed) and 4 M = 256 rows
# when TUNE_DIR (tune_prepare.sh DEST --only gemm_split_k[,gemm_block_ptr,gemm_persistent]) is given: tessel-tune-gpu writes $OUT/tuning.json and the suite reads it
# (TESSEL_TUNING_CACHE), with the tuned variants on the kernel path. Then the decode rows once
# more without the cache (the op's rules), cuBLAS and Tessel only. Everything lands in $OUT
# (default: ./llm_suite.out); the tables are printed last.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tune=${1:-}
out=${OUT:-$here/llm_suite.out}
mkdir -p "$out/rules"
export PYTHONUNBUFFERED=1 TESSEL_KERNEL_PATH=$here/kernels
cache=/nonexistent/tuning.json
if [[ -n $tune ]]; then
  tune=$(cd "$tune" && pwd)
  # Every manifest under tune/: split-K's 20 keys as written and 16 transposed, gemm_block_ptr's
  # 16 (--only gemm_block_ptr): about 11 minutes on an H100 at 20 reps (results/2026-12-05-h100-s52);
  # keys past the limit stay untuned (a TUNING_CACHE from an earlier call is kept and extended).
  [[ -n ${TUNING_CACHE:-} ]] && cp "$TUNING_CACHE" "$out/tuning.json"
  timeout 480 "$tune/bin/tessel-tune-gpu" "$tune/tune" --cache "$out/tuning.json" --reps 20 \
    --warmup 3 >"$out/tune_split_k.txt" 2>&1
  echo "tessel-tune-gpu rc=$?"
  cache=$out/tuning.json
  TESSEL_KERNEL_PATH+=:$tune/tune/gemm_split_k__bf16
  # the decode rows transposed (tessel.ops.matmul launches c^T = W x^T when that entry is faster)
  [[ -d $tune/tune/gemm_split_k_swap ]] && TESSEL_KERNEL_PATH+=:$tune/tune/gemm_split_k_swap/gemm_split_k__bf16
  # tune_prepare.sh's gemm_block_ptr run at the suite's M >= 256 rows (--only gemm_block_ptr)
  [[ -d $tune/tune/gemm_block_ptr_llm ]] && TESSEL_KERNEL_PATH+=:$tune/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16
  [[ -d $tune/tune/gemm_persistent_llm ]] && TESSEL_KERNEL_PATH+=:$tune/tune/gemm_persistent_llm/gemm_persistent__bf16
fi
TESSEL_TUNING_CACHE=$cache OUT=$out timeout 540 python3 "$here/matmul_bench.py" --shapes llm \
  >"$out/suite.txt" 2>&1
echo "suite rc=$?"
decode=bf16:1x4096x4096:bT,bf16:16x4096x4096:bT,bf16:64x4096x4096:bT,bf16:64x6144x4096:bT
decode+=,bf16:16x8192x8192:bT,bf16:64x4096x14336:bT,bf16:1x28672x4096:bT
TESSEL_TUNING_CACHE=/nonexistent/tuning.json OUT=$out/rules timeout 200 \
  python3 "$here/matmul_bench.py" --no-triton --shapes "$decode" >"$out/decode_rules.txt" 2>&1
echo "decode rules rc=$?"
[[ -n $tune ]] && grep -E "best|FAIL|error" "$out/tune_split_k.txt" |
  sed 's/gemm_split_k__bf16__//; s/__GROUP_M_8//; s/__HAS_BIAS_false__ACT_none//' | cut -c1-200
grep -E "rel_err" "$out/suite.txt" | grep -v PASS
echo "== the suite (tuned split-K where the cache has it):"
sed -n '/^do_bench medians/,$p' "$out/suite.txt"
echo "== decode rows by the rules:"
grep -E "rel_err" "$out/decode_rules.txt" | sed 's/gemm_split_k__bf16__//' | cut -c1-170
sed -n '/^shape/,$p' "$out/decode_rules.txt"
