#!/usr/bin/env bash
cd "$(dirname "$0")"
pass=0; fail=0; skipped=0
for j in cluster/*.json; do
  name=$(basename "$j" .json)
  bm=$(sed 's/.*BLOCK_M_\([0-9]*\).*/\1/' <<<"$name"); bn=$(sed 's/.*BLOCK_N_\([0-9]*\).*/\1/' <<<"$name")
  dt=$(sed 's/^gemm_block_ptr__\([a-z0-9]*\)__.*/\1/' <<<"$name")
  case $name in
    *__nn) shapes="1024x1024x2048 576x256x200 200x264x136 1000x1000x1000 640x384x64"; opt="" ;;
    *__nt) shapes="1024x1024x2048 576x256x200 200x264x136 1000x1000x1000 640x384x64"; opt="--opt b_order=col" ;;
    *__nna) shapes="1001x1000x1000 577x256x200 1x128x8 130x136x24"; opt="" ;;
    *__nta) shapes="1001x1000x1000 577x256x200 1x128x8 130x136x24"; opt="--opt b_order=col" ;;
  esac
  [[ $dt == bf16 && $name == *__nt ]] && shapes="$shapes 4096x4096x4096"
  for s in $shapes; do
    IFS=x read -r M N K <<<"$s"
    g=$(( ((M + bm - 1) / bm) * ((N + bn - 1) / bn) ))
    if (( g % 2 )); then skipped=$((skipped+1)); continue; fi
    if msg=$(./tessel-run-gpu "$j" --shape "$s" --dtype "$dt" $opt --target=cuda --quiet 2>&1); then
      pass=$((pass+1))
    else
      fail=$((fail+1)); echo "FAIL $name $s: $msg"
    fi
  done
done
echo "cluster verify: $pass passed, $fail failed ($skipped odd grids skipped)"
python3 gemm_bench.py --no-triton --reps 50 --shapes f16:1024x1024x2048,f16:1024x1024x2048:bT 2>&1 | tee $OUT/explore.txt | tail -8
grep "^  tessel" $OUT/explore.txt | sed 's/gemm_block_ptr__//; s/__HAS_BIAS_false__ACT_none//; s/__GROUP_M_8//' | sort -t: -k3 -n | head -40
# the cluster variants at the bench shapes, and their WS twins (in kernels/ when configs match)
for j in cluster/*f16*BLOCK_M_64__BLOCK_N_128*__nn.json cluster/*f16*BLOCK_M_128__BLOCK_N_64*__nn.json; do
  printf "%s " $(basename $j .json | sed 's/gemm_block_ptr__//; s/__HAS_BIAS_false__ACT_none//'); ./tessel-run-gpu $j --shape 1024x1024x2048 --dtype f16 --target=cuda --bench --reps 50 2>&1 | grep -o "median [0-9.]* ms"
done
