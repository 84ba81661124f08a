#!/usr/bin/env bash
# Issue 10's GEMM rows (carry the staged gemm/; at most 560 s): every staged GEMM variant
# verified in one batch (verify.sh gemm: C7's odd sizes, single rows, padded A, transposed B); gemm_bench.py: bf16 4096^3 and 8192^3, f16 1024x1024x2048 and 1000x999x1001, bf16
# 4096^3 + bias + ReLU, each verified against float64 then timed beside cuBLAS and Triton 3.6;
# matmul_bench.py's default rows (tessel.ops.matmul as a PyTorch user calls it, copies included)
# with the H200 tuning cache and f16 1024x1024x2048 tuned in both layouts. Then suite.sh (the LLM suite) in a call of its own.
cd "$(dirname "$0")" || exit 1
[[ -f payload.tgz ]] && tar xzf payload.tgz # the staged files, packed by stage.sh
o=$OUT && mkdir -p "$o"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,power.limit,temperature.gpu,driver_version \
  --format=csv,noheader
SECONDS=0
# GEMM_LARGE=0: without the 4096^3 checks, whose float64 host references held the batch past
# 400 s on an H100 (results/2026-12-07-h100-s73); gemm_bench.py verifies its 4096^3 rows itself.
# The batch's own limit leaves time to gather the checks before it and to report after it: killed
# from outside, verify.sh prints nothing.
GEMM_LARGE=0 VERIFY_BATCH=1 VERIFY_BATCH_LIMIT=100 timeout 170 bash verify.sh gemm >"$o/verify_gemm.txt" 2>&1
echo "verify.sh gemm rc=$? ${SECONDS}s" && grep -E "FAIL" "$o/verify_gemm.txt" | head -5 && tail -1 "$o/verify_gemm.txt"
SECONDS=0
OUT=$o timeout 200 python3 gemm_bench.py --reps 40 >"$o/gemm_bench.txt" 2>&1
echo "gemm_bench rc=$? ${SECONDS}s"
grep -E "FAIL" "$o/gemm_bench.txt" | head -5
sed -n '/^shape/,$p' "$o/gemm_bench.txt" | head -20
# The H200 cache (session 54's tuning, kept by session 64) as this card's when it is not an H200:
# the same configs launched.
python3 cache_here.py tuning_h200.json /tmp/acc_gemm_tuning.json
export TESSEL_TUNING_CACHE=/tmp/acc_gemm_tuning.json
# f16 1024x1024x2048 in both layouts of B (K, N) and W^T (N, K): the op picks per twin only
# from an entry (results/2026-12-07-h100-s69).
SECONDS=0
for d in gemm_block_ptr__f16 gemm_block_ptr_f16_nt; do
  timeout 40 bin/tessel-tune-gpu "tune/$d" --cache $TESSEL_TUNING_CACHE >>"$o/tune_f16.txt" 2>&1
  echo "tune $d rc=$? ${SECONDS}s"
done
grep -E "best" "$o/tune_f16.txt" | grep -v "^  \[" | sed 's/, cached in.*//' | cut -c1-170
export TESSEL_KERNEL_PATH=$PWD/kernels:$PWD/tune/gemm_block_ptr__f16:$PWD/tune/gemm_block_ptr_f16_nt/gemm_block_ptr__f16:$PWD/tune/gemm_block_ptr_llm/gemm_block_ptr__bf16:$PWD/tune/gemm_split_k__bf16:$PWD/tune/gemm_split_k_swap/gemm_split_k__bf16
SECONDS=0
OUT=$o timeout 110 python3 matmul_bench.py --rounds 3 >"$o/matmul.txt" 2>&1
echo "matmul_bench rc=$? ${SECONDS}s"
grep -E "rel_err" "$o/matmul.txt" | grep -v PASS | head -5
sed -n '/^do_bench medians/,$p' "$o/matmul.txt" | head -20
cd "$o" && tar czf /tmp/gemm.tgz . && rm -rf "${o:?}"/* && mv /tmp/gemm.tgz "$o/"
