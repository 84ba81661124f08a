#!/usr/bin/env bash
# bench.sh (in a directory made by prepare.sh, on a GPU machine): times Tessel's kernels at the
# shapes of DESIGN.md section 7 (each run verified first) and prints one "ROW" line per run:
#   ROW <kernel> <shape> <variant> <median ms> <GB/s> <% of copy>
set -uo pipefail
cd "$(dirname "$0")"
row() { # row KERNEL SHAPE DTYPE VARIANT [OPTS...]
  local kernel=$1 shape=$2 dtype=$3 variant=$4; shift 4
  out=$(./tessel-run-gpu "kernels/$variant.json" --target=cuda --shape "$shape" --dtype "$dtype" \
        --bench --reps 100 "$@" 2>&1)
  if ! grep -q "^bench:" <<<"$out"; then echo "FAILED $kernel $shape $variant: $out"; return; fi
  local ms gbps pct verdict=FAIL
  ms=$(sed -nE 's/.*bench: median ([0-9.]+) ms.*/\1/p' <<<"$out")
  gbps=$(sed -nE 's/^bench:.*, ([0-9.]+) GB\/s.*/\1/p' <<<"$out")
  pct=$(sed -nE 's/.*\(([0-9.]+)% of.*/\1/p' <<<"$out")
  grep -q "PASS" <<<"$out" && verdict=PASS
  echo "ROW $kernel $shape $variant $ms $gbps ${pct:--} $verdict"
}
# Candidate configs per row (num_warps around the library defaults, the looped two-pass
# kernels for 16384-wide rows); table.py keeps the fastest of each row.
cands() { ls kernels/$1.json 2>/dev/null | xargs -n1 basename 2>/dev/null | sed 's/\.json$//'; }
for k in softmax rmsnorm layernorm; do
  for v in $(cands "${k}__bf16__BLOCK_4096__num_warps_[48]__div8"); do row $k 16384x4096 bf16 $v; done
  for v in $(cands "${k}__bf16__BLOCK_16384__num_warps_16__div8") \
           $(cands "${k}_looped__bf16__BLOCK_4096__num_warps_16__div8"); do
    row $k 4096x16384 bf16 $v
  done
  for v in $(cands "${k}__bf16__BLOCK_1024__num_warps_[24]__div8"); do row $k 32768x1000 bf16 $v; done
done
for v in $(cands "add_rmsnorm__bf16__BLOCK_4096__num_warps_[48]__div8"); do row add_rmsnorm 16384x4096 bf16 $v; done
for v in $(cands "swiglu__bf16__BLOCK_*__div8"); do row swiglu 16384x14336 bf16 $v; done
for v in $(cands "rope__bf16__HALF_64__BLOCK_H_32__num_warps_*__div8"); do
  row rope 8x32x8x4096x128 bf16 $v --opt layout=bshd --opt cos=shared
done
# The same row by rope_qk (blocks of one head's tokens, q's heads then k's, one launch).
for v in $(cands "rope_qk__bf16__HALF_64__BLOCK_S_*__div8"); do
  row rope 8x32x8x4096x128 bf16 $v --opt layout=bshd --opt cos=shared
done
# The anchor's tables (D/2 columns, one load per half) through the __h0 twins.
for v in $(cands "rope__bf16__HALF_64__BLOCK_H_32__num_warps_*__h0"); do
  row rope 8x32x8x4096x128 bf16 $v --opt layout=bshd --opt cos=shared --opt table=half
done
for v in $(cands "cross_entropy__bf16__BLOCK_2048__num_warps_4__div8") \
         $(cands "cross_entropy__bf16__BLOCK_4096__num_warps_8__div8"); do
  row cross_entropy 8192x128256 bf16 $v --opt reduction=none
done
for v in $(cands "vector_add__bf16__BLOCK_*__div8"); do row vector_add 268435456 bf16 $v; done
