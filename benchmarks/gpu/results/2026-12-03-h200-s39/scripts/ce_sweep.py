#!/usr/bin/env python3
"""ce_sweep.py (session 39): every bf16 cross_entropy_fused variant at 8192x128256 and
2048x128256 (mean, out of place, as ops.cross_entropy_forward_backward launches it), its loss
and gradient checked against float64 first; three rounds of the median of 10 launches after
an L2 flush."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ["TESSEL_KERNEL_PATH"] = os.path.join(here, "kernels")
import torch
import torch.nn.functional as F
from tessel import kernels as K
from tessel._linear_cross_entropy import _grad_scale
flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
def time_us(fn, n=10):
    fn(); torch.cuda.synchronize()
    ts = []
    for _ in range(n):
        flush.zero_()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record(); torch.cuda.synchronize()
        ts.append(a.elapsed_time(b) * 1e3)
    return statistics.median(ts)
V = 128256
res = {}
for rows in (8192,):
    x = torch.randn(rows, V, device="cuda", dtype=torch.bfloat16)
    t = torch.randint(0, V, (rows,), device="cuda")
    g = _grad_scale(t, -100, "mean")
    loss = torch.empty(rows, device="cuda"); lse = torch.empty(rows, device="cuda")
    dx = torch.empty_like(x)
    xd = x[:256].double().requires_grad_()
    ref = F.cross_entropy(xd, t[:256], reduction="sum")
    ref.backward()
    vs = [v for v in K.variants("cross_entropy_fused", "bf16", "cuda")]
    for v in vs:
        run = lambda: K.launch(v, rows, loss, lse, dx, x, t, g, V, V, V, -100, 0.0, 0.0)
        dx.fill_(float("nan")); run(); torch.cuda.synchronize()
        e_l = abs(loss[:256].double().sum().item() - ref.item()) / abs(ref.item())
        e_g = ((dx[:256].double() * rows - xd.grad).norm() / xd.grad.norm()).item()
        ok = e_l < 1e-4 and e_g < 1e-2 and bool(torch.isfinite(dx).all())
        print(f"{rows} {v.name}: loss rel err {e_l:.1e} grad rel err {e_g:.1e} {'PASS' if ok else 'FAIL'}", flush=True)
    for rnd in range(3):
        for v in vs:
            run = lambda: K.launch(v, rows, loss, lse, dx, x, t, g, V, V, V, -100, 0.0, 0.0)
            res.setdefault((rows, v.config["BLOCK"], v.config["num_warps"]), []).append(time_us(run))
    del x, dx
    torch.cuda.empty_cache()
print("\nrows  BLOCK warps   us (median of 3 rounds)")
for (rows, b, w), ts in sorted(res.items(), key=lambda kv: (kv[0][0], statistics.median(kv[1]))):
    print(f"{rows:5d} {b:6d} {w:5d} {statistics.median(ts):9.1f}   " + " ".join(f"{v:.1f}" for v in ts))
