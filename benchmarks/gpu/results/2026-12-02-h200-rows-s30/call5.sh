#!/bin/bash
# Session 30 call 5: predicated loads zero their registers first (new) against the loads
# without (old, ../ln/vdir), same rows, same run; verify.sh over the whole library (new);
# Triton / torch / torch.compile on the same rows.
cd "$(dirname "$0")"
log=${OUT:-.}/rows.txt
row() { # row DIR KERNEL SHAPE VARIANT [OPTS...]
  local set=$1 kernel=$2 shape=$3 variant=$4; shift 4
  out=$(./tessel-run-gpu "$set/$variant.json" --target=cuda --shape "$shape" --dtype bf16 --bench --reps 100 "$@" 2>&1)
  local ms gbps v=FAIL
  ms=$(sed -nE 's/.*bench: median ([0-9.]+) ms.*/\1/p' <<<"$out")
  gbps=$(sed -nE 's/^bench:.*, ([0-9.]+) GB\/s.*/\1/p' <<<"$out")
  grep -q "PASS" <<<"$out" && v=PASS
  [[ -z $ms ]] && echo "FAILED $set $kernel $shape $variant: $(tail -3 <<<"$out")" >> "$log"
  echo "ROW ${set%%/*} $kernel $shape $variant $ms $gbps $v" >> "$log"
}
SECONDS=0
R=(
"layernorm 4096x16384 layernorm__bf16__BLOCK_16384__num_warps_16__div8"
"rmsnorm 4096x16384 rmsnorm__bf16__BLOCK_16384__num_warps_16__div8"
"softmax 4096x16384 softmax__bf16__BLOCK_16384__num_warps_16__div8"
"layernorm 16384x4096 layernorm__bf16__BLOCK_4096__num_warps_8__div8"
"rmsnorm 16384x4096 rmsnorm__bf16__BLOCK_4096__num_warps_8__div8"
"cross_entropy 8192x128256 cross_entropy__bf16__BLOCK_4096__num_warps_8__div8 --opt reduction=none"
)
for r in "${R[@]}"; do set -- $r; for s in ../ln/vdir/kernels kernels; do row $s "$@"; done; done
echo "rows: ${SECONDS}s" >> "$log"
OUT=${OUT:-.} timeout 90 python3 triton_reference.py > ${OUT:-.}/triton.txt 2>&1; echo "triton rc $? at ${SECONDS}s" >> "$log"
timeout 230 ./verify.sh library > ${OUT:-.}/verify.txt 2>&1; echo "verify rc $? at ${SECONDS}s" >> "$log"
grep -v "^ROW" "$log"; grep "^ROW" "$log" | awk '{printf "%-6s %-13s %-12s %-50s %8s %6s %s\n",$2,$3,$4,$5,$6,$7,$8}'
tail -2 ${OUT:-.}/verify.txt; grep "^FAIL\|no shapes" ${OUT:-.}/verify.txt | head -5
grep -E "softmax|rmsnorm|layernorm|cross_entropy" ${OUT:-.}/triton.txt | grep -v compile | tail -14
