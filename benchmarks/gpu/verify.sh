#!/usr/bin/env bash
# verify.sh [gemm|cases|library] (in a directory made by prepare.sh, on a GPU machine): every kernel
# variant on odd shapes, the cases C1, C5, C6 (full size), C8, C9 and C12, and the GEMM variants
# on the GPU against the harness's double-precision references (`verify.sh gemm`: the GEMM part
# alone; `verify.sh cases`: the cases alone; `verify.sh library`: the library variants alone,
# VERIFY_FILTER (a glob, e.g. 'kernels/gemm_swiglu__*') selecting among them).
# One line per failure (and per pass with VERIFY_VERBOSE=1, which shows how far a run cut short
# got), then "gpu verify: N passed, M failed". VERIFY_BATCH=1 gathers the checks and runs them in
# one `tessel-run-gpu --batch` (one CUDA context instead of one process per check: minutes
# instead of tens of minutes for the whole library); a crash then ends the batch, and the checks
# it did not reach count as failed, as do those after VERIFY_BATCH_LIMIT seconds (per batch; no
# limit by default) when set.
set -uo pipefail
cd "$(dirname "$0")"
run=./tessel-run-gpu
pass=0 fail=0
batch= labels=
if [[ -n ${VERIFY_BATCH:-} ]]; then
  batch=$(mktemp) labels=$(mktemp)
  trap 'rm -f "$batch" "$labels"' EXIT
fi
check() { # check LABEL ARGS...: one verified run (or, batched, one line of the batch)
  local label=$1; shift
  if [[ -n $batch ]]; then
    echo "$label" >> "$labels"
    echo "$* --target=cuda --quiet" >> "$batch"
    return
  fi
  if msg=$($run "$@" --target=cuda --quiet 2>&1); then
    pass=$((pass + 1)); [[ -n ${VERIFY_VERBOSE:-} ]] && echo "PASS $label"
  else
    fail=$((fail + 1)); echo "FAIL $label: $msg"
  fi
}
# GEMM (dsl/kernels/gemm.cpp: gemm, gemm_block_ptr, gemm_residual, gemm_split_k, gemm_persistent and
# gemm_stream_k, on five programs), the sm_90a
# cubins and the sm_80 PTX: case C7's odd sizes, a single row, A padded (lda = 65), B col-major
# ("transposed B") and, for bf16, 4096^3 (and 4096^3 with B col-major for the __nt twins), and
# the transposed twins on 136x264x200 and 256^3; every dtype and epilogue variant (HAS_BIAS, ACT
# are per config). A __div8 twin runs only the cases that keep its promises (multiples of 8, unit
# strides equal to 1)
# (the runtime rejects the others at launch). No variants: prepare.sh could not compile gemm.cpp.
# GEMM_FILTER (a glob, e.g. 'kernels/gemm_block_ptr__*') verifies only the variants it matches.
gemm_verify() {
  local j label shape dtype opts p0=$pass f0=$fail
  # Any GEMM kernel's variant (a staged subset may hold gemm_split_k's alone).
  if ! compgen -G 'kernels/gemm_*__*.json' >/dev/null && ! compgen -G 'kernels/gemm__*.json' >/dev/null; then
    echo "gemm: no variants (tesselc could not compile gemm.cpp for cuda:sm_90a): skipped"
    return
  fi
  for j in kernels/gemm__*.json kernels/gemm_block_ptr__*.json kernels/gemm_split_k__*.json \
           kernels/gemm_residual__*.json kernels/gemm_persistent__*.json \
           kernels/gemm_stream_k__*.json \
           gemm_sm80/gemm__*.json; do
    [[ -f $j && $j == ${GEMM_FILTER:-*} ]] || continue
    while read -r label shape dtype opts; do
      check "$(basename "$j") $label" "$j" --shape "$shape" --dtype "$dtype" $opts
    done < <(python3 - "$j" <<'PY'
import json, os, sys
j = json.load(open(sys.argv[1])); dt = j["dtype"] or "f32"
div = {a["name"]: a.get("divisibility", 1) for a in j["args"] if a["kind"] == "scalar"}
eq = {a["name"]: a["equal_to"] for a in j["args"] if "equal_to" in a}
cases = [("C7", 1000, 999, 1001, {}), ("cube511", 511, 511, 511, {}), ("row", 1, 128, 1, {}),
         ("cube256", 256, 256, 256, {}),
         ("lda65", 64, 64, 64, {"lda": 65}), ("bT", 256, 256, 256, {"b_order": "col"})]
split_k = j["kernel"] == "gemm_split_k"
if split_k:  # the slice count by the heuristic, by option, more slices than K-blocks (empty
    # ones), one slice (c stored without the workspace)
    cases += [("C7s5", 1000, 999, 1001, {"split_k": 5}), ("row64s16", 1, 128, 64, {"split_k": 16}),
              ("C7s1", 1000, 999, 1001, {"split_k": 1}),
              ("odd8s1", 136, 264, 200, {"b_order": "col", "split_k": 1}),
              ("bTs3", 256, 256, 256, {"b_order": "col", "split_k": 3}),
              ("dec1", 1, 4096, 4096, {"b_order": "col"}), ("dec16", 16, 6144, 4096, {"b_order": "col"})]
    # The transposed decode product c^T = W x^T (tessel.ops.matmul's swap; __ntt twins): c
    # column-major, x^T as a col-major b of 1, 16 and 5 columns, split and whole.
    ct = {"b_order": "col", "c_order": "col"}
    cases += [("swap1", 4096, 1, 4096, ct), ("swap16", 6144, 16, 4096, ct),
              ("swapodd8s1", 264, 5, 200, {**ct, "split_k": 1}),
              ("swapodd8s3", 264, 5, 200, {**ct, "split_k": 3}), ("C7c", 1000, 999, 1001, ct)]
large = os.environ.get("GEMM_LARGE", "1") != "0"  # GEMM_LARGE=0: no 4096^3 (host references)
if dt == "bf16" and sys.argv[1].startswith("kernels/") and not split_k and large:
    cases.append(("cube4096", 4096, 4096, 4096, {}))
    if "__nt" in sys.argv[1] or "__bT" in sys.argv[1]:  # y = x @ W^T at the benchmark's size
        cases.append(("cube4096bT", 4096, 4096, 4096, {"b_order": "col"}))
# The layout twins (prepare.sh: __nn, __nt, __tn, __tt; gemm_block_ptr's copy with TMA) on
# multiples of 8 that are no multiples of the blocks; only the twin whose promises a layout keeps
# runs it.
if any(t in sys.argv[1] for t in ("__nn", "__nt", "__tn", "__tt")):
    for a_col, b_col in ((False, False), (False, True), (True, False), (True, True)):
        o = {**({"a_order": "col"} if a_col else {}), **({"b_order": "col"} if b_col else {})}
        t = "".join(k[0] + "T" for k in o)  # aT, bT, aTbT
        cases += [("odd8" + t, 136, 264, 200, o)] + ([("cube256" + t, 256, 256, 256, o)] if t else [])
for label, M, N, K, o in cases:
    acol, bcol = o.get("a_order") == "col", o.get("b_order") == "col"
    lda = o.get("lda", M if acol else K)
    # The scalars the gemm problem passes (lib/Harness/Problems.cpp), against the promises.
    ccol = o.get("c_order") == "col"
    v = {"M": M, "N": N, "K": K, "stride_am": 1 if acol else lda, "stride_ak": lda if acol else 1,
         "stride_bk": 1 if bcol else N, "stride_bn": K if bcol else 1,
         "stride_cm": 1 if ccol else N, "stride_cn": M if ccol else 1, "stride_rm": N, "stride_rn": 1}
    if j["kernel"] == "gemm_stream_k":  # five programs share the tiles' K-blocks unevenly
        o = {**o, "programs": 5}
    if all(v.get(name, 1) % d == 0 for name, d in div.items()) and \
            all(v.get(name) == e for name, e in eq.items()):
        print(label, f"{M}x{N}x{K}", dt, " ".join(f"--opt {k}={x}" for k, x in o.items()))
PY
)
  done
  run_batch
  echo "gemm variants: $((pass - p0)) passed, $((fail - f0)) failed"
}
run_batch() { # the gathered checks in one tessel-run-gpu: add to pass and fail, name failures
  [[ -n $batch && -s $batch ]] || return 0
  local out counts
  out=$(mktemp)
  # A limit of its own (VERIFY_BATCH_LIMIT seconds), so that a batch cut short still reports
  # the checks it finished: killed from outside, verify.sh would print nothing.
  timeout "${VERIFY_BATCH_LIMIT:-0}" $run --batch "$batch" > "$out" 2>&1
  counts=$(python3 - "$out" "$labels" "${VERIFY_VERBOSE:-}" <<'PY'
import re, sys
text = open(sys.argv[1], errors="replace").read()
labels = open(sys.argv[2]).read().splitlines()
ok = bad = 0
done = {}
seg = []
for line in text.splitlines():
    m = re.match(r"=== case (\d+) exit (\d+)$", line)
    if m:
        done[int(m.group(1))] = (int(m.group(2)), " ".join(seg)[-400:])
        seg = []
    else:
        seg.append(line.strip())
for i, label in enumerate(labels):
    rc, msg = done.get(i, (None, "not run: the batch ended before it (" + " ".join(seg)[-300:] + ")"))
    if rc == 0:
        ok += 1
        if sys.argv[3]:
            print("PASS " + label, file=sys.stderr)
    else:
        bad += 1
        print(f"FAIL {label}: {msg}", file=sys.stderr)
print(ok, bad)
PY
)
  rm -f "$out"
  : > "$batch"
  : > "$labels"
  pass=$((pass + ${counts% *})) fail=$((fail + ${counts#* }))
}
cases_verify() {
  # C1: LayerNorm, masked lanes take no part in the statistics (f32, 1e-5).
  check C1-17in32 cases/layernorm__f32__BLOCK_32__num_warps_1.json --shape 5x17 --dtype f32
  check C1-3in4 cases/layernorm__f32__BLOCK_4__num_warps_1.json --shape 5x3 --dtype f32
  check C1-1536in2048 cases/layernorm__f32__BLOCK_2048__num_warps_4.json --shape 5x1536 --dtype f32
  # C5: q with 2 heads, k with one head (must be rotated too), cos/sin per batch (B = 2).
  for jr in kernels/rope__f32__HALF_64__BLOCK_H_2__num_warps_1*.json; do
    check "C5 $(basename "$jr") B1" "$jr" --shape 1x2x1x2x128 --dtype f32
    check "C5 $(basename "$jr") B2" "$jr" --shape 2x2x1x2x128 --dtype f32
  done
  run_batch
  # C8: a [16, 1] tile reduced along axis 0 with max and sum.
  vals="0.5,-1.25,3.5,2,-7,1,0.25,-0.5,4.75,-2,1.5,0,-3,2.25,0.75,-1"
  c8=$($run cases/c8_reduce_column.json --target=cuda --grid 1 --arg 'out@f32[2]' --arg "x@f32:[$vals]" 2>&1)
  if grep -q "out = \[4.75, 1.75\]" <<<"$c8"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL C8: $c8"; fi
  # C9: the max of 100 valid values in a 128-wide block with -inf padding; bf16 softmax with
  # other = -inf is the library softmax above (2x17 in 1024-wide blocks).
  check C9-f32 cases/row_max.json --problem row_max --shape 4x100 --dtype f32
  check C9-f32-loop cases/row_max.json --problem row_max --shape 2x300 --dtype f32
  # C6: more than 2^31 elements (2^31 + 4096 bf16), BLOCK = 1024: the last elements are right.
  for jv in kernels/vector_add__bf16__BLOCK_1024__num_warps_4*.json; do
    check "C6 $(basename "$jv")" "$jv" --shape 2147487744 --dtype bf16
  done
  # C12: float atomic max / min through integer atomics, 4 programs (c12_atomic_minmax.mlir).
  local t c12
  for t in f32 f64; do
    c12=$($run cases/minmax_$t.json --target=cuda --grid 4 \
      --arg "x@$t:[-0.0,0.0,0.0,-0.0,-inf,inf,1,1,-5,5]" 2>&1)
    if grep -q "x = \[0, 0, -0, -0, 0, -0, nan, nan, -0.5, -1.5\]" <<<"$c12"; then
      pass=$((pass + 1))
    else
      fail=$((fail + 1)); echo "FAIL C12 $t: $c12"
    fi
  done
}
if [[ ${1:-all} == cases ]]; then
  cases_verify
  echo "gpu verify: $pass passed, $fail failed"
  [[ $fail -eq 0 ]]
  exit
fi
if [[ ${1:-all} == gemm ]]; then
  gemm_verify
  echo "gpu verify: $pass passed, $fail failed"
  [[ $fail -eq 0 ]]
  exit
fi
for j in kernels/*.json; do
  [[ $j == ${VERIFY_FILTER:-*} ]] || continue
  read -r kernel dtype block half bh spec < <(python3 - "$j" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); c = j["config"]
print(j["kernel"], j["dtype"] or "f32", c.get("BLOCK", 0), c.get("HALF", 0), c.get("BLOCK_H", 0),
      1 if j.get("specializes") else 0)
PY
)
  # Base variants get any shape; __div8 twins only shapes whose sizes are multiples of 8.
  case $kernel in
    vector_add | swiglu | geglu) shapes=$([[ $spec == 1 ]] && echo "3x1000 8" || echo "3x1001 1") ;;
    softmax | rmsnorm | add_rmsnorm | add_rmsnorm_out | layernorm)
      shapes=$([[ $spec == 1 ]] && echo "3x$((block - 8)) 2x16" || echo "3x$((block - 1)) 1x1 2x17") ;;
    # Several rows per program: 37 rows leave the last program part empty (the twins promise
    # n_rows % 8 == 0 as well: 40 rows).
    rmsnorm_rows | layernorm_rows)
      shapes=$([[ $spec == 1 ]] && echo "40x$((block - 8)) 8x16" || echo "37x$((block - 1)) 1x1 2x17") ;;
    *_looped) shapes=$([[ $spec == 1 ]] && echo "3x$((block + 904))" || echo "3x$((block + 905)) 1x1") ;;
    rope) shapes="2x${bh}x1x3x$((2 * half)) 1x1x${bh}x2x$((2 * half))" ;;
    cross_entropy | cross_entropy_backward | cross_entropy_fused | cross_entropy_backward_lse)
      shapes=$([[ $spec == 1 ]] && echo "8x5000 2x1000" || echo "8x5000 1x15") ;;
    moe_routing | moe_routing_atomics)
      shapes=$([[ $spec == 1 ]] && echo "1000x8 4096x64" || echo "1000x7 3x1 4100x60") ;;
    # The backward kernels: dx per row and the per-program partial sums of dW (and dB). Not one
    # column: RMSNorm's dx is then dy * w * eps / (x^2 + eps)^1.5, a cancellation that f32
    # leaves about 2% off.
    rmsnorm_backward | layernorm_backward | add_rmsnorm_backward | *_rows_backward)
      shapes=$([[ $spec == 1 ]] && echo "37x$((block - 8)) 2x16" || echo "37x$((block - 1)) 3x5") ;;
    rmsnorm_dw_reduce) shapes=$([[ $spec == 1 ]] && echo "16x1000 3x8" || echo "16x1001 1x1") ;;
    swiglu_backward | geglu_backward)
      shapes=$([[ $spec == 1 ]] && echo "3x1000 8" || echo "3x1001 1") ;;
    rope_out) shapes="2x${bh}x1x3x$((2 * half)) 1x1x${bh}x2x$((2 * half))" ;;
    # Blocks of 16 or 32 tokens, the last partial; one token; the (B, S, H, D) layout too.
    rope_seq_out) shapes="2x3x1x37x$((2 * half)) 1x1x1x1x$((2 * half)) 8x32x8x100x$((2 * half))" ;;
    # Flat, one tensor: a partial block of tokens, forward and backward (SHAPE:OPT), one token
    # with one shared table of D/2 columns, the benchmark's 32 heads.
    # rope's rotation by blocks of one head's tokens: a partial block, C5's single k head, the
    # benchmark's heads in the (B, S, H, D) layout with one shared table.
    rope_qk) shapes="2x3x1x37x$((2 * half)) 1x2x1x2x$((2 * half)) 8x32x8x100x$((2 * half)):layout=bshd,cos=shared" ;;
    rope_flat) shapes="2x3x37x$((2 * half)) 2x3x37x$((2 * half)):direction=backward 1x1x1x$((2 * half)):cos=shared,table=half 8x32x100x$((2 * half)):cos=shared" ;;
    top_k_top_p_mask)
      shapes=$([[ $spec == 1 ]] && echo "12x32000 3x128256" || echo "12x50257 1x1 64x32000") ;;
    gemm | gemm_block_ptr | gemm_split_k | gemm_residual | gemm_persistent | gemm_stream_k)
      continue ;; # gemm_verify below
    # Fused linear cross-entropy's backward window: odd sizes, one row, and for the TMA twins
    # multiples of 8 that are no multiples of the tiles, a window of the benchmark's width
    # (__nt: 3968 columns) and an odd-width last window (__nta).
    gemm_ce_backward)
      case $j in
        *__nta.json) shapes="100x70x56 136x1281x200" ;;
        *__nt.json | *__div8.json) shapes="136x264x200 136x3968x512" ;;
        *) shapes="100x70x50 1x128x1 136x264x200" ;;
      esac ;;
    # The fused SwiGLU up-projection; its __a16 twin (TMA for x, w_gate, w_up) takes multiples
    # of 8 that are no multiples of the blocks, and a 1024^3 product.
    gemm_swiglu)
      shapes=$([[ $spec == 1 ]] && echo "136x264x200 1024x1024x1024" || echo "100x70x50 1x128x1 136x264x200") ;;
    *) echo "no shapes for $kernel"; fail=$((fail + 1)); continue ;;
  esac
  problem=()
  [[ $kernel == moe_routing_atomics ]] && problem=(--problem moe_routing)
  # RoPE's __h0 twins (prepare.sh) assume cos_half_offset = 0: tables of D/2 columns.
  [[ $j == *__h0.json ]] && problem=(--opt table=half)
  # In place (fused linear cross-entropy's use): another warp's gradient pass must not
  # overwrite the target logit before it is read.
  [[ $kernel == cross_entropy_fused || $kernel == cross_entropy_backward_lse ]] &&
    problem=(--opt inplace=1)
  [[ $kernel == gemm_ce_backward ]] && problem=(--opt col_offset=1000)
  for s in $shapes; do
    opts=() # SHAPE:OPT,OPT: problem options for that shape alone
    if [[ $s == *:* ]]; then
      for o in $(tr , ' ' <<< "${s#*:}"); do opts+=(--opt "$o"); done
      s=${s%%:*}
    fi
    check "$(basename "$j") $s ${opts[*]}" "$j" "${problem[@]}" "${opts[@]}" --shape "$s" --dtype "$dtype"
  done
done
run_batch
echo "library variants: $pass passed, $fail failed"
if [[ ${1:-all} == library ]]; then
  echo "gpu verify: $pass passed, $fail failed"
  [[ $fail -eq 0 ]]
  exit
fi

cases_verify
gemm_verify
echo "gpu verify: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
