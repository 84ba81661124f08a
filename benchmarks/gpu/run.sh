#!/usr/bin/env bash
# run.sh [verify|bench|triton|table|gemm|all] (in a directory made by prepare.sh, on a GPU
# machine): verification, Tessel timings, the Triton/PyTorch reference in the same session, the
# table; gemm: the GEMM variants' verification alone, then gemm_bench.py (Tessel beside cuBLAS
# and Triton, about 5 minutes). all runs each once.
set -uo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
what=${1:-all}
export PYTHONUNBUFFERED=1
if [[ $what == verify || $what == all ]]; then ./verify.sh 2>&1 | tee "$out/verify.txt" | tail -25; fi
if [[ $what == bench || $what == all ]]; then ./bench.sh 2>&1 | tee "$out/tessel_bench.txt"; fi
if [[ $what == triton || $what == all ]]; then
  OUT=$out python3 triton_reference.py 2>&1 | tail -40 > "$out/triton.txt"; tail -3 "$out/triton.txt"
fi
if [[ $what == table || $what == all ]]; then python3 table.py "$out/tessel_bench.txt" "$out/anchors.json" | tee "$out/table.txt"; fi
if [[ $what == gemm ]]; then ./verify.sh gemm 2>&1 | tee "$out/verify_gemm.txt" | tail -25; fi
if [[ $what == gemm || $what == all ]]; then
  OUT=$out python3 gemm_bench.py 2>&1 | tee "$out/gemm_bench.txt" | grep -v '^  '
fi
