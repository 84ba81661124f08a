#!/usr/bin/env bash
# Session 38 call 6: GeGLU's tanh approximation as a sigmoid (kernels_gg) verified, A/B through
# the ops.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pass=0; fail=0
for j in kernels_gg/*.json; do
  read -r dtype spec < <(python3 -c "
import json; j=json.load(open('$j')); print(j['dtype'] or 'f32', 1 if j.get('specializes') else 0)")
  shapes=$([[ $spec == 1 ]] && echo "3x1000 8 1024x1000" || echo "3x1001 1 1025x1001")
  for sh in $shapes; do
    if m=$(timeout 30 ./tessel-run-gpu $j --target=cuda --shape $sh --dtype $dtype --quiet 2>&1); then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $j $sh: $m" >> $o/verify_gg.txt; fi
  done
done
echo "geglu variants: $pass passed, $fail failed" | tee -a $o/verify_gg.txt; echo "at $((SECONDS - s)) s"
timeout 120 python3 ab_geglu.py > $o/ab_geglu.txt 2>&1; echo "ab rc=$? at $((SECONDS - s)) s"
head -3 $o/verify_gg.txt; cat $o/ab_geglu.txt
