#!/usr/bin/env bash
# Round 5 (not run: no device time was left): padded tiles on the H200 against the interpreter (issue 14); the __h0 RoPE twin; the Python package (issue 12).
cd "$(dirname "$0")"; export PYTHONUNBUFFERED=1; o=$OUT; s=$SECONDS
echo "[$((SECONDS-s))s] pad ops"
timeout 50 python3 ops.py > $o/ops_pad.txt 2>&1; grep -E "^FAIL|ops:" $o/ops_pad.txt | tail -8
echo "[$((SECONDS-s))s] rope"
for v in rope/rope__bf16__HALF_64__BLOCK_H_32__num_warps_4__div8.json rope/*__h0.json; do
  t=""; [[ $v == *h0* ]] && t="--opt table=half"
  timeout 15 ./tessel-run-gpu $v --target=cuda --shape 8x32x8x4096x128 --dtype bf16 --bench --reps 100 --opt layout=bshd --opt cos=shared $t 2>&1 | grep -E "bench:|FAIL" | sed "s|^|$(basename $v .json) $t: |"
done
echo "[$((SECONDS-s))s] python package"
OUT=$o timeout 80 python3 torch_ops.py --quick > $o/torch_ops.txt 2>&1; echo "rc=$?"; tail -25 $o/torch_ops.txt
echo "[$((SECONDS-s))s] done"
