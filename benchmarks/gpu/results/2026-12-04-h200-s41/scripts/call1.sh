#!/usr/bin/env bash
# Cluster multicast: verify every cluster variant on shapes with an even grid, show the error on
# an odd one, then gemm_bench.py over the three kinds (cluster, warp-specialized, plain).
cd "$(dirname "$0")"
pass=0; fail=0
for j in kernels/*cluster_size_2*.json; do
  name=$(basename "$j" .json)
  bm=$(sed 's/.*BLOCK_M_\([0-9]*\).*/\1/' <<<"$name"); bn=$(sed 's/.*BLOCK_N_\([0-9]*\).*/\1/' <<<"$name")
  dt=$(sed 's/^gemm_block_ptr__\([a-z0-9]*\)__.*/\1/' <<<"$name")
  case $name in
    *__nn) shapes="1024x1024x2048 576x256x200 200x264x136 1000x1000x1000"; opt="" ;;
    *__nt) shapes="1024x1024x2048 576x256x200 200x264x136 1000x1000x1000"; opt="--opt b_order=col" ;;
    *__nna) shapes="1000x999x1001 577x255x201 1x128x1 100x70x50"; opt="" ;;
    *__nta) shapes="1000x999x1001 577x255x201 1x128x1 100x70x50"; opt="--opt b_order=col" ;;
  esac
  for s in $shapes; do
    IFS=x read -r M N K <<<"$s"
    g=$(( ((M + bm - 1) / bm) * ((N + bn - 1) / bn) ))
    if (( g % 2 )); then continue; fi
    if msg=$(./tessel-run-gpu "$j" --shape "$s" --dtype "$dt" $opt --target=cuda --quiet 2>&1); then
      pass=$((pass+1))
    else
      fail=$((fail+1)); echo "FAIL $name $s: $msg"
    fi
  done
done
echo "cluster verify: $pass passed, $fail failed"
echo "--- an odd grid (9 programs of 64x128 at 136x264x200):"
./tessel-run-gpu kernels/gemm_block_ptr__f16__BLOCK_M_64__BLOCK_N_128__BLOCK_K_64__GROUP_M_8__HAS_BIAS_false__ACT_none__num_warps_4__num_stages_6__warp_specialize_1__cluster_size_2__nn.json --shape 136x264x200 --dtype f16 --target=cuda --quiet; echo "rc $?"
python3 gemm_bench.py --no-triton --reps 50 --shapes f16:1024x1024x2048,bf16:1024x1024x2048,f16:1024x1024x2048:bT,f16:1000x999x1001,bf16:256x6144x4096:bT,bf16:256x4096x4096:bT,bf16:2048x4096x4096:bT,bf16:4096x4096x4096 2>&1 | tee $OUT/gemm_bench.txt | grep -v "^  tessel" ; cp gemm_bench.json $OUT/ 2>/dev/null
grep "^  tessel" $OUT/gemm_bench.txt | sort -t: -k2 | head -400 > $OUT/configs.txt
