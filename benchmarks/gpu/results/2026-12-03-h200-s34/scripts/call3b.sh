cd "$(dirname "$0")/../s34"
for j in kernels/rope_seq_out__bf16__HALF_64__*__div8.json kernels/rope_out__bf16__HALF_64__BLOCK_H_32__num_warps_4__div8.json; do
  p=rope_out; [[ $j == *rope_seq_out* ]] && p=rope_seq_out
  echo "== $j"; ./tessel-run-gpu $j --problem $p --shape 8x32x8x4096x128 --bench --reps 100 2>&1 | grep -E "PASS|FAIL|bench"
done
for sh in 16384x4096:4096 4096x16384:16384 32768x1000:1024; do
  for j in kernels/add_rmsnorm_out__bf16__BLOCK_${sh#*:}__num_warps_*__div8.json kernels/add_rmsnorm__bf16__BLOCK_${sh#*:}__num_warps_8__div8.json; do
    [[ -e $j ]] || continue
    echo "== $j ${sh%:*}"; ./tessel-run-gpu $j --shape ${sh%:*} --bench --reps 100 2>&1 | grep -E "PASS|FAIL|bench"
  done
done
