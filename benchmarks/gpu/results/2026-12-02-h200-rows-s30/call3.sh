#!/bin/bash
# Session 30 call 3: (1) the scalar reduction's cross-warp step, one partial a lane + butterfly
# (new) against every thread loading the warps' partials (old), same kernels otherwise;
# (2) 16384-wide rows on 32 warps, with and without .minnctapersm 2 (nohint); (3) verify.sh
# library with the new lowering; (4) Triton / torch / torch.compile on the same rows.
cd "$(dirname "$0")"
log=${OUT:-.}/rows.txt
row() { # row SET KERNEL SHAPE VARIANT [OPTS...]
  local set=$1 kernel=$2 shape=$3 variant=$4; shift 4
  out=$(./tessel-run-gpu "$set/$variant.json" --target=cuda --shape "$shape" --dtype bf16 --bench --reps 100 "$@" 2>&1)
  local ms gbps v=FAIL
  ms=$(sed -nE 's/.*bench: median ([0-9.]+) ms.*/\1/p' <<<"$out")
  gbps=$(sed -nE 's/^bench:.*, ([0-9.]+) GB\/s.*/\1/p' <<<"$out")
  grep -q "PASS" <<<"$out" && v=PASS
  [[ -z $ms ]] && echo "FAILED $set $kernel $shape $variant: $(tail -3 <<<"$out")" >> "$log"
  echo "ROW $set $kernel $shape $variant $ms $gbps $v" >> "$log"
}
SECONDS=0
R=(
"softmax 16384x4096 softmax__bf16__BLOCK_4096__num_warps_4__div8"
"softmax 4096x16384 softmax__bf16__BLOCK_16384__num_warps_16__div8"
"rmsnorm 4096x16384 rmsnorm__bf16__BLOCK_16384__num_warps_16__div8"
"rmsnorm 32768x1000 rmsnorm__bf16__BLOCK_1024__num_warps_2__div8"
"layernorm 16384x4096 layernorm__bf16__BLOCK_4096__num_warps_4__div8"
"layernorm 4096x16384 layernorm__bf16__BLOCK_16384__num_warps_16__div8"
)
for rep in 1 2; do
  for r in "${R[@]}"; do set -- $r; for s in old new; do row $s $1 $2 $3; done; done
done
for s in old new; do row $s cross_entropy 8192x128256 cross_entropy__bf16__BLOCK_4096__num_warps_8__div8 --opt reduction=none; done
for k in softmax rmsnorm layernorm; do
  row new $k 4096x16384 ${k}__bf16__BLOCK_16384__num_warps_32__div8
  row nohint $k 4096x16384 ${k}__bf16__BLOCK_16384__num_warps_32__div8
done
row new layernorm 4096x16384 layernorm__bf16__BLOCK_16384__num_warps_16__div8
echo "rows: ${SECONDS}s" >> "$log"
(cd vdir && timeout 260 ./verify.sh library > ${OUT:-.}/verify.txt 2>&1); echo "verify rc $? at ${SECONDS}s" >> "$log"
OUT=${OUT:-.} timeout 220 python3 triton_reference.py > ${OUT:-.}/triton.txt 2>&1; echo "triton rc $? at ${SECONDS}s" >> "$log"
grep -v "^ROW" "$log"; grep "^ROW" "$log" | awk '{printf "%-6s %-13s %-12s %-50s %8s %6s %s\n",$2,$3,$4,$5,$6,$7,$8}'
tail -3 ${OUT:-.}/verify.txt; grep "^FAIL" ${OUT:-.}/verify.txt | head -5
grep -E "softmax|rmsnorm|layernorm|cross_entropy|copy" ${OUT:-.}/triton.txt | tail -24
