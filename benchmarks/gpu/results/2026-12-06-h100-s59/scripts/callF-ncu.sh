#!/bin/bash
# s59 call F: ncu (clocks not locked, caches flushed) on the row below QuACK, cross-entropy
# 8192x128256 bf16 (loss per row): Tessel's tuned variant through tessel-run-gpu and QuACK's
# cross_entropy_fwd_out, the same metrics for both.
cd "$(dirname "$0")"; o=$OUT; mkdir -p $o; export PYTHONUNBUFFERED=1
[[ -d /tmp/qk ]] || { SECONDS=0; timeout 120 bash ../../q/part2/install.sh > $o/quack_install.txt 2>&1; echo "quack install rc=$? ${SECONDS}s"; }
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,lts__t_sector_hit_rate.pct,l1tex__t_bytes_pipe_lsu_mem_global_op_ld.sum,sm__cycles_elapsed.avg.per_second,smsp__average_warp_latency_issue_stalled_long_scoreboard,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct
v=tune/cross_entropy__bf16/cross_entropy__bf16__BLOCK_16384__num_warps_8__div8.json
timeout 120 ncu --clock-control none --metrics $m -k regex:cross_entropy -c 2 ./tessel-run-gpu $v --target=cuda --shape 8192x128256 --dtype bf16 --opt reduction=none > $o/ncu_tessel_ce.txt 2>&1; echo "ncu tessel rc=$?"
cat > /tmp/qce.py <<'PY'
import torch
from quack.cross_entropy import cross_entropy_fwd_out
BT, V = 8192, 128256
lg = torch.randn(BT, V, device="cuda", dtype=torch.bfloat16); lab = torch.randint(0, V, (BT,), device="cuda")
loss = torch.empty(BT, device="cuda", dtype=torch.float32)
for _ in range(3): cross_entropy_fwd_out(lg, lab, None, loss, None, None, None)
torch.cuda.synchronize()
PY
PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages timeout 200 ncu --clock-control none --metrics $m -k regex:'(?i)cross|entropy' -c 2 python3 /tmp/qce.py > $o/ncu_quack_ce.txt 2>&1; echo "ncu quack rc=$?"
for f in $o/ncu_tessel_ce.txt $o/ncu_quack_ce.txt; do echo "== $f"; grep -E "^  [a-zA-Z_]+.*\(|gpu__time|dram__|sm__|launch__|smsp__|lts__|l1tex" $f | tail -22; done
