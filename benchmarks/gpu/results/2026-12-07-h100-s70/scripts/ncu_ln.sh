#!/bin/bash
# s70 call O's prelude: ncu (clocks not locked) of LayerNorm 32768x1000 bf16 forward without
# autograd, tessel.ops.layer_norm (the tuned one-row kernel, BLOCK 1024 on 4 warps, the op's
# default config too) against torch.compile's F.layer_norm, same sections and metrics.
cd "$(dirname "$0")/../../s66/O"; o=$OUT/n; mkdir -p $o; export PYTHONUNBUFFERED=1
m=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__grid_size,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,sm__cycles_active.avg,sm__cycles_elapsed.avg
cat > /tmp/ln.py <<'PY'
import os, sys, torch, torch.nn.functional as F
sys.path.insert(0, "python")
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.abspath("kernels"))
from tessel import ops
x = torch.randn(32768, 1000, device="cuda", dtype=torch.bfloat16)
w = (torch.rand(1000, device="cuda") + 0.5).to(torch.bfloat16)
b = torch.randn(1000, device="cuda", dtype=torch.bfloat16)
f = (lambda x, w, b: ops.layer_norm(x, w, b)) if sys.argv[1] == "tessel" else \
    torch.compile(lambda x, w, b: F.layer_norm(x, (1000,), w, b, 1e-5))
with torch.no_grad():
    for _ in range(3):
        y = f(x, w, b)
    torch.cuda.synchronize()
    with torch.cuda.nvtx.range("prof"):
        y = f(x, w, b)
torch.cuda.synchronize()
ref = F.layer_norm(x.double(), (1000,), w.double(), b.double(), 1e-5)
print(sys.argv[1], "rel err", ((y.double() - ref).norm() / ref.norm()).item())
PY
for lib in tessel compile; do
  k=$([[ $lib == tessel ]] && echo layernorm || echo triton)
  SECONDS=0; timeout 150 ncu --clock-control none --section LaunchStats --section Occupancy --metrics $m --nvtx --nvtx-include prof/ -k regex:$k -c 1 python3 /tmp/ln.py $lib > $o/ncu_ln_$lib.txt 2>&1; echo "ncu $lib rc=$? ${SECONDS}s"
  grep -E "rel err|gpu__time_duration|dram__throughput|registers_per_thread|grid_size|block_size|warps_active|stalled_barrier|stalled_long|inst_executed|Achieved Occ|Theoretical Occ" $o/ncu_ln_$lib.txt | sed 's/  */ /g' | head -16
done
