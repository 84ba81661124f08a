#!/usr/bin/env bash
# Session 37 call 2: does capping the programs per SM keep cross_entropy_fused's second pass in
# L2? Copies of the new kernel's variant JSONs that launch with more dynamic shared memory
# (unused by the kernel) so that only P programs fit on an SM (228 KB per SM, 1 KB reserved
# per program), each verified and timed at 2048x128256 bf16 as in call 1; ncu's DRAM bytes.
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
cap() { # cap VARIANT P: kernels_cap/VARIANT__capP.json
  python3 - "$1" "$2" <<'PY'
import json, sys, os
v, p = sys.argv[1], int(sys.argv[2])
d = json.load(open(f"kernels_new/{v}.json"))
d["shared_memory"] = (233472 // p + 233472 // (p + 1)) // 2 - 1024
d["artifacts"]["cubin"] = os.path.abspath(f"kernels_new/{d['artifacts']['cubin']}")
os.makedirs("kernels_cap", exist_ok=True)
json.dump(d, open(f"kernels_cap/{v}__cap{p}.json", "w"))
PY
}
V=cross_entropy_fused__bf16__BLOCK
for c in "16384__num_warps_32 1" "8192__num_warps_32 1" "8192__num_warps_32 2" "8192__num_warps_16 1" "8192__num_warps_16 2" "8192__num_warps_16 3" "4096__num_warps_8 2" "4096__num_warps_8 3" "4096__num_warps_8 4" "2048__num_warps_4 4" "2048__num_warps_4 6"; do
  set -- $c; cap ${V}_$1__div8 $2
done
run() { # run JSON
  local j=$1 v1 b
  v1=$(timeout 30 ./tessel-run-gpu $j --target=cuda --shape 8x5000 --dtype bf16 2>&1 | tail -1)
  b=$(timeout 40 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 --bench --reps 30 2>&1 | grep -E "^bench: median|PASS|FAIL" | tr '\n' ' ')
  echo "$j | 8x5000: $v1 | 2048x128256: $b" | tee -a $o/ce_cap.txt
}
for j in kernels_new/${V}_8192__num_warps_32__div8.json kernels_new/${V}_8192__num_warps_16__div8.json kernels_cap/*.json; do run $j; done
echo "sweep done at $((SECONDS - s)) s"
m="--metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__occupancy_limit_shared_mem"
best=$(grep -o "^kernels_cap[^ ]*\|median [0-9.]*" $o/ce_cap.txt | paste - - | sort -k3 -n | head -2 | cut -f1)
for j in $best; do
  timeout 60 ncu $m -k regex:cross_entropy -c 1 ./tessel-run-gpu $j --target=cuda --shape 2048x128256 --dtype bf16 > $o/ncu_$(basename $j .json).txt 2>&1
done
grep -o "^[^ ]*\|median [0-9.]* ms\|FAIL" $o/ce_cap.txt | paste -s -d' ' | sed 's/ kernels/\nkernels/g'
for f in $o/ncu_*.txt; do echo "$f"; grep -E "duration|dram__bytes|hit_rate|warps_active|limit_shared" $f | awk '{print "  ", $1, $(NF-1), $NF}'; done
