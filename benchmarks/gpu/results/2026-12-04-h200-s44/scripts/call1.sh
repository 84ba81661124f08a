#!/usr/bin/env bash
# Session 44, call 1 (staged by stage_call1.sh).
cd "$(dirname "$0")"
exec > >(tee $OUT/call1.txt) 2>&1
K=kernels
sk8() { ls $K/gemm_stream_k__$1__BLOCK_M_128__BLOCK_N_128*num_warps_8*__$2.json; }
bp8() { ls $K/gemm_block_ptr__$1__BLOCK_M_128__BLOCK_N_128*num_warps_8*__$2.json; }
bpbest_bf16=$(ls $K/gemm_block_ptr__bf16__BLOCK_M_128__BLOCK_N_128*num_warps_4__num_stages_6*__nt.json)
bpbest_f16=$(ls $K/gemm_block_ptr__f16__BLOCK_M_128__BLOCK_N_64*num_warps_4__num_stages_8*__nn.json)
sk64_f16=$(ls $K/gemm_stream_k__f16__BLOCK_M_128__BLOCK_N_64*__nn.json)
pass=0; fail=0
v() { if msg=$(timeout 60 ./tessel-run-gpu "$@" --target=cuda --quiet 2>&1); then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL $*: $(echo "$msg" | head -2)"; fi; }
for j in $K/*__nn.json; do
  dt=$(sed 's/^gemm_[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$(basename $j)")
  for s in 1024x1024x2048 1000x1000x1000 1x128x8; do v $j --shape $s --dtype $dt; [[ $j == *stream_k* ]] && v $j --shape $s --dtype $dt --opt programs=61; done
done
for j in $K/*__nt.json; do
  dt=$(sed 's/^gemm_[a-z_]*__\([a-z0-9]*\)__.*/\1/' <<<"$(basename $j)")
  for s in 256x6144x4096 576x264x200; do v $j --shape $s --dtype $dt --opt b_order=col --opt check_rows=40; done
done
echo "verify: $pass passed, $fail failed"
b() { # b LABEL JSON SHAPE DT OPTS...
  local l=$1 j=$2 s=$3 d=$4; shift 4
  t=$(timeout 120 ./tessel-run-gpu $j --shape $s --dtype $d --target=cuda --bench --reps 40 --opt check_rows=40 "$@" 2>&1 | sed -n 's/^bench: median \([0-9.]*\) ms.*/\1/p')
  printf "%-44s %-18s %s ms\n" "$l" "$s" "$t"
}
echo "== times (tessel-run-gpu --bench, cold L2, median of 40)"
S=256x6144x4096; c="--opt b_order=col"
b "sk 128x128 w8 s4 P=default" "$(sk8 bf16 nt)" $S bf16 $c
b "sk 128x128 w8 s4 P=96 (one tile each)" "$(sk8 bf16 nt)" $S bf16 $c --opt programs=96
b "sk 128x128 w8 s4 P=132" "$(sk8 bf16 nt)" $S bf16 $c --opt programs=132
b "bp 128x128 w8 s4" "$(bp8 bf16 nt)" $S bf16 $c
b "bp 128x128 w4 s6 (library)" "$bpbest_bf16" $S bf16 $c
S=1024x1024x2048
b "sk 128x128 w8 s4 P=default" "$(sk8 f16 nn)" $S f16
b "sk 128x128 w8 s4 P=128" "$(sk8 f16 nn)" $S f16 --opt programs=128
b "sk 128x128 w8 s4 P=132" "$(sk8 f16 nn)" $S f16 --opt programs=132
b "sk 128x64 w4 s6 P=default" "$sk64_f16" $S f16
b "sk 128x64 w4 s6 P=132" "$sk64_f16" $S f16 --opt programs=132
b "bp 128x128 w8 s4" "$(bp8 f16 nn)" $S f16
b "bp 128x64 w4 s8 (library)" "$bpbest_f16" $S f16
echo "== cuBLAS kernels"
timeout 240 python3 cublas_probe.py f16:1024x1024x2048 bf16:256x6144x4096:bT bf16:256x4096x14336:bT \
  bf16:256x4096x4096:bT bf16:2048x6144x4096:bT bf16:1x4096x4096:bT bf16:16x6144x4096:bT f16:1000x999x1001
echo "== ncu"
sec="--section SpeedOfLight --section MemoryWorkloadAnalysis --section ComputeWorkloadAnalysis --section WarpStateStats --metrics dram__bytes_read.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum"
n() { local tag=$1; shift; timeout 120 ncu $sec -k regex:gemm --launch-count 1 "$@" > $OUT/ncu_$tag.txt 2>&1; echo "ncu $tag rc $?"; }
S=256x6144x4096
n sk_default ./tessel-run-gpu "$(sk8 bf16 nt)" --shape $S --dtype bf16 $c --opt check_rows=8 --target=cuda
n sk_p96 ./tessel-run-gpu "$(sk8 bf16 nt)" --shape $S --dtype bf16 $c --opt check_rows=8 --opt programs=96 --target=cuda
n bp_w8s4 ./tessel-run-gpu "$(bp8 bf16 nt)" --shape $S --dtype bf16 $c --opt check_rows=8 --target=cuda
timeout 150 ncu $sec -k regex:"nvjet|sm90|gemm|cutlass" --launch-skip 3 --launch-count 1 python3 cublas_probe.py --once bf16:$S:bT > $OUT/ncu_cublas_256x6144.txt 2>&1; echo "ncu cublas rc $?"
n bp_f16_1024 ./tessel-run-gpu "$bpbest_f16" --shape 1024x1024x2048 --dtype f16 --target=cuda
n sk_f16_1024 ./tessel-run-gpu "$(sk8 f16 nn)" --shape 1024x1024x2048 --dtype f16 --target=cuda
timeout 150 ncu $sec -k regex:"nvjet|sm90|gemm|cutlass" --launch-skip 3 --launch-count 1 python3 cublas_probe.py --once f16:1024x1024x2048 > $OUT/ncu_cublas_1024.txt 2>&1; echo "ncu cublas1024 rc $?"
echo "== ncu summary"
for f in $OUT/ncu_*.txt; do
  echo "-- $(basename $f .txt)"
  grep -E "^\s+(Duration|DRAM Throughput|Memory Throughput|L2 Hit Rate|Compute \(SM\) Throughput|dram__bytes_read.sum|lts__t_sector_hit_rate.pct|Registers Per Thread|Warp Cycles Per Issued Instruction|Issued Ipc Active|Executed Ipc Active)\b" $f | head -14
  grep -E "^\s+(Block Size|Grid Size)" $f | head -2
done
