#!/bin/bash
# s60 call R: ncu (clocks not locked) on the row below its best peer in call B, RMSNorm
# 4096x16384 bf16 (0.991x QuACK): Tessel's tuned variant (BLOCK 16384, 16 warps) and the
# 8-warp one through tessel-run-gpu, and QuACK's rmsnorm_fwd, with the same sections and metrics.
cd "$(dirname "$0")"; o=$OUT/r; mkdir -p $o; export PYTHONUNBUFFERED=1
[[ -d /tmp/qk ]] || { SECONDS=0; timeout 120 bash ../../q/part2/install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_membar_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,sm__cycles_active.avg,sm__cycles_elapsed.avg,sm__cycles_active.max,sm__cycles_active.min
S="--section LaunchStats --section Occupancy"
for v in rmsnorm__bf16__BLOCK_16384__num_warps_16__div8 rmsnorm__bf16__BLOCK_16384__num_warps_8__div8; do
  timeout 120 ncu --clock-control none $S --metrics $m -k regex:rmsnorm -c 1 ./tessel-run-gpu $v.json --target=cuda --shape 4096x16384 --dtype bf16 > $o/ncu_$v.txt 2>&1; echo "ncu $v rc=$?"
done
cat > /tmp/qrms.py <<'PY'
import torch
from quack.rmsnorm import rmsnorm_fwd
x = torch.randn(4096, 16384, device="cuda", dtype=torch.bfloat16); w = torch.randn(16384, device="cuda", dtype=torch.bfloat16)
for _ in range(3): rmsnorm_fwd(x, w, eps=1e-6)
torch.cuda.synchronize()
PY
SECONDS=0; PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 200 ncu --clock-control none $S --metrics $m -k regex:'(?i)rms' -c 2 python3 /tmp/qrms.py > $o/ncu_quack_rmsnorm.txt 2>&1; echo "ncu quack rc=$? ${SECONDS}s"
for f in $o/ncu_*.txt; do echo "== $(basename $f)"; grep -E "^  [a-zA-Z_].*\(|Cluster|Grid Size|Block Size|Registers|Waves|Achieved|Theoretical Occ|gpu__time|dram__|warps_active|inst_exec|stalled|cycles" $f | tail -24 | awk '{$1=$1};1' | cut -c1-110; done
cd $OUT && tar czf /tmp/r.tgz r && rm -rf r && mv /tmp/r.tgz .
