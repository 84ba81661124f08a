#!/usr/bin/env bash
# Issue 10's LLM suite (carry the staged gemm/; at most 580 s): the H200 tuning cache extended by
# tessel-tune-gpu over the suite's spaces for up to 220 s (keys it holds are hits; the rest, the
# persistent GEMM's first, are timed), then shared/anchors/gemm_suite.py's 32 shapes
# through tessel.ops.matmul beside cuBLAS and Triton (matmul_bench.py --shapes llm, 2 rounds):
# each row verified, the geometric mean over cuBLAS, the decode rows' share of the copy bandwidth.
cd "$(dirname "$0")" || exit 1
[[ -f payload.tgz ]] && tar xzf payload.tgz # the staged files, packed by stage.sh
o=$OUT && mkdir -p "$o"
export PYTHONUNBUFFERED=1
[[ -f /tmp/acc_gemm_tuning.json ]] ||
  python3 cache_here.py tuning_h200.json /tmp/acc_gemm_tuning.json
cp /tmp/acc_gemm_tuning.json "$o/tuning.json"
# The suite's spaces (tune_prepare.sh): split-K's decode and M = 256 keys as written and
# transposed, gemm_block_ptr's and gemm_persistent's M >= 256 keys; the square rows' are gemm.sh's.
SECONDS=0
for d in gemm_persistent_llm gemm_split_k__bf16 gemm_split_k_swap gemm_block_ptr_llm; do
  left=$((220 - SECONDS)) && ((left > 10)) || break
  timeout $left bin/tessel-tune-gpu "tune/$d" --cache "$o/tuning.json" --reps 20 --warmup 3 \
    >>"$o/tune.txt" 2>&1
  echo "tune $d rc=$? ${SECONDS}s"
done
grep -E "best" "$o/tune.txt" | grep -v "^  \[" | sed 's/__HAS_BIAS_false__ACT_none//; s/, cached in.*//' | cut -c1-170 | tail -40
export TESSEL_TUNING_CACHE=$o/tuning.json
export TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16:$PWD/tune/gemm_persistent_llm/gemm_persistent__bf16
SECONDS=0
OUT=$o timeout 340 python3 matmul_bench.py --shapes llm --rounds 2 >"$o/suite.txt" 2>&1
echo "suite rc=$? ${SECONDS}s"
grep -E "rel_err" "$o/suite.txt" | grep -v PASS | head -5
sed -n '/^do_bench medians/,$p' "$o/suite.txt"
cd "$o" && tar czf /tmp/suite.tgz . && rm -rf "${o:?}"/* && mv /tmp/suite.tgz "$o/"
