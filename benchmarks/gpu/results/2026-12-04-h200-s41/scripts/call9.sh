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
for s in 1024x1024x2048 8192x128x8192; do printf "%s " $s; ./tessel-run-gpu cluster/gemm_block_ptr__f16__BLOCK_M_64__BLOCK_N_128__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none__num_warps_4__num_stages_6__warp_specialize_1__cluster_size_2__nn.json --shape $s --dtype f16 --target=cuda --bench --reps 20 2>&1 | grep -o "median [0-9.]* ms"; done
