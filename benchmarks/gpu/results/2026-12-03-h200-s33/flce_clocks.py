#!/usr/bin/env python3
"""flce_clocks.py BT (copied into a prepare.sh directory): does fused linear cross-entropy's
forward + backward slow down when repeated back to back? Per implementation (Tessel, Liger): 30
steps each timed alone from an idle GPU (synchronized before and after), then do_bench as
torch_ops.py runs it, while nvidia-smi samples the SM clock and the power draw every 100 ms
(clocks.csv beside the output). Prints each phase's first/median/last step and the clock and
power over it."""
import os, subprocess, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch, triton
from tessel import ops
from liger_kernel.ops.fused_linear_cross_entropy import LigerFusedLinearCrossEntropyFunction

BT, H, V = int(sys.argv[1]), 4096, 128256
out = os.environ.get("OUT", ".")
h = torch.randn(BT, H, device="cuda", dtype=torch.bfloat16, requires_grad=True)
W = (torch.randn(V, H, device="cuda", dtype=torch.bfloat16) * 0.02).requires_grad_()
y = torch.randint(0, V, (BT,), device="cuda")
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                        "--format=csv,noheader,nounits", "-lms", "100"],
                       stdout=open(os.path.join(out, f"clocks_{BT}.csv"), "w"))
marks = []
def mark(label):
    marks.append((label, time.time()))
for name, loss_fn in (("tessel", lambda: ops.fused_linear_cross_entropy(h, W, y)),
                      ("liger", lambda: LigerFusedLinearCrossEntropyFunction.apply(h, W, y))):
    def step():
        h.grad = W.grad = None
        loss = loss_fn()
        (loss[0] if isinstance(loss, tuple) else loss).backward()
    step(); step()
    time.sleep(2)
    mark(f"{name} alone")
    ts = []
    for _ in range(30):
        torch.cuda.synchronize(); t0 = time.perf_counter(); step(); torch.cuda.synchronize()
        ts.append((time.perf_counter() - t0) * 1e3)
    mark(f"{name} do_bench")
    ms = triton.testing.do_bench(step, warmup=5, rep=50, return_mode="median")
    mark(f"{name} end")
    s = sorted(ts)
    print(f"{name} {BT}: 30 synchronized steps: first {ts[0]:.2f} median {s[15]:.2f} "
          f"last {ts[-1]:.2f} min {s[0]:.2f} ms; do_bench median {ms:.2f} ms", flush=True)
    time.sleep(2)
time.sleep(0.3)
smi.terminate(); smi.wait()
import datetime
rows = []
for line in open(os.path.join(out, f"clocks_{BT}.csv")):
    p = [x.strip() for x in line.split(",")]
    try:
        t = datetime.datetime.strptime(p[0], "%Y/%m/%d %H:%M:%S.%f").timestamp()
        rows.append((t, float(p[1]), float(p[2]), float(p[3])))
    except (ValueError, IndexError):
        pass
# nvidia-smi prints local time; align by the offset between the first sample and our clock.
for (label, t0), (_, t1) in zip(marks, marks[1:]):
    if label.endswith("end"):
        continue
    sel = [r for r in rows if t0 <= r[0] <= t1]
    if sel:
        clk = sorted(r[1] for r in sel); pw = sorted(r[2] for r in sel)
        print(f"  {label}: {len(sel)} samples, SM clock min/median/max {clk[0]:.0f}/"
              f"{clk[len(clk) // 2]:.0f}/{clk[-1]:.0f} MHz, power median/max "
              f"{pw[len(pw) // 2]:.0f}/{pw[-1]:.0f} W, temp max {max(r[3] for r in sel):.0f} C")
    else:
        print(f"  {label}: no clock samples (timestamps {rows[0][0] if rows else None} vs {t0})")
