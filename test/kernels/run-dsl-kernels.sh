#!/usr/bin/env bash
# run-dsl-kernels.sh OUT_DIR KERNEL.cpp...
# Compiles each kernel file of dsl/kernels with tesselc into OUT_DIR and runs every variant on
# the interpreter (tessel-run picks the problem from the variant's kernel name) on shapes that
# fit its config: n_cols not a power of two, a single row, one element, rows longer than the
# block for the looped kernels (so their loops run), the vocabulary spread over two blocks.
# Prints one line per failure and ends with "dsl kernels: N passed, M failed".
set -uo pipefail
out=$1
shift
mkdir -p "$out"
for f in "$@"; do
  tesselc "$f" -o "$out/" >/dev/null || { echo "tesselc failed on $f"; exit 1; }
done
pass=0 fail=0
for j in "$out"/*.json; do
  read -r kernel dtype block half bh < <(python3 - "$j" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); c = j["config"]
print(j["kernel"], j["dtype"] or "f32", c.get("BLOCK", 0), c.get("HALF", 0), c.get("BLOCK_H", 0))
PY
)
  opts=
  case $kernel in
    vector_add | swiglu | geglu | swiglu_backward | geglu_backward) shapes="3x1001 1" ;;
    # Not 1x1: one column makes dx = dy w r eps / (x^2 + eps), a cancellation to ~1e-6.
    rmsnorm_backward | layernorm_backward | add_rmsnorm_backward) shapes="37x$((block - 1)) 1x7 2x17" ;;
    *_rows_backward) shapes="37x$((block - 1)) 1x7 2x17" ;;
    rmsnorm_dw_reduce) shapes="9x1000 1x1 132x257" ;;
    softmax | rmsnorm | add_rmsnorm | add_rmsnorm_out | layernorm) shapes="3x$((block - 1)) 1x1 2x17" ;;
    # 37 rows: a last program with rows past the end, for every ROWS of the library.
    rmsnorm_rows | layernorm_rows) shapes="37x$((block - 1)) 1x1 2x17" ;;
    *_looped) shapes="3x$((block + 905)) 1x1" ;;
    rope | rope_out) shapes="2x${bh}x1x3x$((2 * half)) 1x1x${bh}x2x$((2 * half))" ;;
    # Three blocks of tokens, the last partial; one token.
    rope_seq_out) shapes="2x3x1x37x$((2 * half)) 1x1x1x1x$((2 * half))" ;;
    # Flat: the same blocks, forward and backward (SHAPE:OPT below), one shared table.
    # Blocks of one head's tokens: a partial block, a single k head (C5), k's heads past q's.
    rope_qk) shapes="2x3x1x37x$((2 * half)) 1x2x1x2x$((2 * half)) 1x1x4x9x$((2 * half)):layout=bshd" ;;
    rope_flat) shapes="2x3x37x$((2 * half)) 2x3x37x$((2 * half)):direction=backward 1x1x1x$((2 * half)):cos=shared" ;;
    cross_entropy | cross_entropy_backward) shapes="8x5000 1x15" ;;
    # In place, as fused linear cross-entropy runs it: the gradient over the logits.
    cross_entropy_fused | cross_entropy_backward_lse) shapes="8x5000 1x15"; opts="--opt inplace=1" ;;
    gemm | gemm_block_ptr | gemm_persistent | gemm_residual | gemm_swiglu) shapes="100x70x50 1x128x1" ;;
    # Windows of a wider row (labels in, below and above them) at columns 300 and 0 (SHAPE:OPT
    # passes an option to that shape alone); 300 columns span several column tiles.
    gemm_ce_backward) shapes="100x70x50:col_offset=300 1x128x1:col_offset=0 37x300x20:col_offset=0 37x300x20:col_offset=1000" ;;
    # K in 3 slices, the last shorter (1000 = 8 blocks of 128) or empty (50: 1 block of 64);
    # one slice, which stores c without the workspace.
    gemm_split_k) shapes="100x70x1000 1x128x50 100x70x1000:split_k=1"; opts="--opt split_k=3" ;;
    # Five programs over 2 x 2 tiles of 16 and 1 K-blocks: tiles shared by two and three.
    gemm_stream_k) shapes="100x70x1000 1x128x50"; opts="--opt programs=5" ;;
    moe_routing | moe_routing_atomics) shapes="1000x8 3x1 4100x60" ;;
    # Rows 0-9 of the problem are its edge cases (k, p off, k = 1, tiny p, ties, NaN, +-0).
    top_k_top_p_mask) shapes="12x$((block + 905)) 1x1" ;;
    *) echo "no shapes for kernel $kernel ($(basename "$j"))"; fail=$((fail + 1)); continue ;;
  esac
  for s in $shapes; do
    shape_opts=$opts
    [[ $s == *:* ]] && shape_opts="$opts --opt ${s#*:}" && s=${s%%:*}
    if msg=$(tessel-run "$j" --shape "$s" --dtype "$dtype" $shape_opts --quiet 2>&1); then
      pass=$((pass + 1))
    else
      fail=$((fail + 1))
      echo "FAIL $(basename "$j") --shape $s $shape_opts: $msg"
    fi
  done
done
echo "dsl kernels: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
