#!/usr/bin/env bash
# Session 39 call 6: ncu of cross_entropy_fused beside Liger-Kernel's kernel
# (8192x128256 bf16).
cd "$(dirname "$0")"; o=$OUT; s=$SECONDS
pip install --no-deps --target /tmp/lg liger_kernel-0.8.5-py3-none-any.whl >/dev/null 2>&1; export PYTHONPATH=/tmp/lg
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,launch__grid_size,launch__block_size,launch__occupancy_limit_registers,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__cycles_active.avg
timeout 300 ncu --profile-from-start off --metrics $m --section WarpStateStats --section Occupancy -o $o/ce python3 ncu_ce.py > $o/ncu_log.txt 2>&1; echo "ncu rc=$? at $((SECONDS - s)) s"
ncu --import $o/ce.ncu-rep --page raw --csv > $o/ce_raw.csv 2>&1
ncu --import $o/ce.ncu-rep --page details > $o/ce_details.txt 2>&1
python3 - "$o/ce_raw.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
hdr = rows[0]
want = ["Kernel Name", "gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sector_hit_rate.pct",
        "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
        "launch__grid_size", "launch__block_size", "smsp__inst_executed.sum",
        "smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio"]
idx = [hdr.index(w) if w in hdr else None for w in want]
for r in rows[2:]:
    print(" | ".join((r[i][:60] if i is not None else "-") for i in idx))
PY
