#!/bin/bash
# s70 call W: why LayerNorm 32768x1000 bf16 trails torch.compile's forward: ncu of Tessel's
# one-row kernel on 1, 2 and 4 warps (tessel-run-gpu) and of inductor's, then each kernel's SASS
# opcode histogram (cuobjdump), instructions per row.
export PATH=$PATH:/usr/local/cuda/bin
cd "$(dirname "$0")"; o=$OUT/w; mkdir -p $o; export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name --format=csv,noheader
m=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,launch__block_size,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_barrier_per_warp_active.pct
for w in 1 2 4; do
  v=layernorm__bf16__BLOCK_1024__num_warps_${w}__div8
  timeout 60 ncu --clock-control none --metrics $m -k regex:layernorm -c 1 ./tessel-run-gpu k/$v.json --target=cuda --shape 32768x1000 --dtype bf16 > $o/ncu_$v.txt 2>&1
  echo "$v: $(grep -E 'PASS|FAIL' $o/ncu_$v.txt | tail -1 | cut -c1-80)"; grep -E "duration|inst_executed|dram__|registers|warps_active|stalled" $o/ncu_$v.txt | sed 's/  */ /g'
  cuobjdump -sass k/$v.cubin > $o/sass_$v.txt 2>&1
done
cat > /tmp/lnc.py <<'PY'
import torch, torch.nn.functional as F
x = torch.randn(32768, 1000, device="cuda", dtype=torch.bfloat16)
w = (torch.rand(1000, device="cuda") + 0.5).to(torch.bfloat16)
b = torch.randn(1000, device="cuda", dtype=torch.bfloat16)
f = torch.compile(lambda x, w, b: F.layer_norm(x, (1000,), w, b, 1e-5))
with torch.no_grad():
    for _ in range(3):
        f(x, w, b)
    torch.cuda.synchronize()
    with torch.cuda.nvtx.range("prof"):
        f(x, w, b)
torch.cuda.synchronize()
PY
export TRITON_CACHE_DIR=/tmp/tc TORCHINDUCTOR_CACHE_DIR=/tmp/ic
timeout 150 ncu --clock-control none --metrics $m --nvtx --nvtx-include prof/ -k regex:triton -c 1 python3 /tmp/lnc.py > $o/ncu_inductor.txt 2>&1
echo "inductor:"; grep -E "triton_|duration|inst_executed|dram__|registers|warps_active|stalled" $o/ncu_inductor.txt | grep -v PROF | sed 's/  */ /g'
c=$(find /tmp/tc -name "*layer_norm*.cubin" | head -1); cp "$c" $o/inductor.cubin 2>/dev/null; cp "${c%.cubin}.ptx" "${c%.cubin}.ttgir" $o/ 2>/dev/null
cuobjdump -sass "$c" > $o/sass_inductor.txt 2>&1
cp "$(find /tmp/ic -name '*.py' | xargs grep -l layer_norm | head -1)" $o/inductor_kernel.py 2>/dev/null
for f in $o/sass_*.txt; do
  echo "== $(basename $f): $(grep -cE '^\s+/\*[0-9a-f]{4}\*/' $f) SASS instructions"
  grep -E '^\s+/\*[0-9a-f]{4}\*/' $f | sed -E 's/^\s+\/\*[0-9a-f]+\*\/\s+//; s/^@!?U?P[0-9T] //' | awk '{print $1}' | sed 's/\..*//' | sort | uniq -c | sort -rn | head -14 | tr '\n' ' '; echo
done
cd $o && tar czf /tmp/w.tgz . && rm -rf $o && mkdir -p $OUT && mv /tmp/w.tgz $OUT/
