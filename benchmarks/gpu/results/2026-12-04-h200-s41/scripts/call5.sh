#!/usr/bin/env bash
cd "$(dirname "$0")"
for d in ws full nomc_rel; do
  ncu --section SpeedOfLight --section MemoryWorkloadAnalysis --section WarpStateStats --section LaunchStats --section Occupancy --metrics l2__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_bytes.sum,smsp__cycles_active.avg,sm__cycles_elapsed.max --launch-count 1 ./tessel-run-gpu $d/*__nn.json --shape 1024x1024x2048 --dtype f16 --target=cuda > $OUT/ncu_$d.txt 2>&1
  echo "== $d"; grep -E "Duration|L2 Cache Throughput|DRAM Throughput|Memory Throughput|lts__t_bytes|Stall|Cluster|Warp Cycles Per Issued|Compute \(SM\)" $OUT/ncu_$d.txt | head -30
done
