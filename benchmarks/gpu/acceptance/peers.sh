#!/usr/bin/env bash
# Issue 11's peers (carry the staged q2/, on the machine that ran rows.sh; about 70 s on an
# H100): QuACK installed from rows.sh's half (/tmp/quack-part1) and this one; QuACK
# (quack_reference.py), then Triton 3.6, PyTorch eager and torch.compile (triton_rows.py: the
# anchor script without its GEMM part) on the same rows; one table with rows.sh's tuned rows
# (table.py: ratios against Triton and against the fastest peer, and their geometric means).
cd "$(dirname "$0")" || exit 1
[[ -f payload.tgz ]] && tar xzf payload.tgz # the staged files, packed by stage.sh
o=$OUT && s=/tmp/acc && mkdir -p "$o" $s
export PYTHONUNBUFFERED=1
SECONDS=0
timeout 100 bash install.sh >"$o/quack_install.txt" 2>&1
echo "quack install rc=$? ${SECONDS}s" && tail -1 "$o/quack_install.txt"
cp $s/tuned_rows.txt "$o/" 2>/dev/null || cp tuned_rows.txt "$o/" 2>/dev/null ||
  { echo "no tuned_rows.txt from rows.sh: the table has no Tessel rows" && : >"$o/tuned_rows.txt"; }
SECONDS=0
OUT=$o PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 150 python3 quack_reference.py \
  >"$o/quack.txt" 2>&1
echo "quack rc=$? ${SECONDS}s" && tail -12 "$o/quack.txt"
SECONDS=0
OUT=$o timeout 300 python3 triton_rows.py >"$o/triton.txt" 2>&1
echo "triton rc=$? ${SECONDS}s" && tail -3 "$o/triton.txt"
q=$o/quack.json && [[ -f $q ]] || q=
python3 table.py "$o/tuned_rows.txt" "$o/anchors.json" $q >"$o/table.txt" 2>&1
cat "$o/table.txt"
cp "$o/table.txt" "$o/anchors.json" $q $s/ 2>/dev/null
cd "$o" && tar czf /tmp/peers.tgz . && rm -rf "${o:?}"/* && mv /tmp/peers.tgz "$o/"
