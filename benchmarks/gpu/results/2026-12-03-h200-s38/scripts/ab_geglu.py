#!/usr/bin/env python3
"""ab_geglu.py (session 38): tessel.ops.geglu and geglu_backward (approximate='tanh') at
16384x14336 bf16 on the library's kernels (tanh from libdevice) against kernels_gg (the same
function as a sigmoid), alternately in one process: four rounds of the median of 25 launches
after an L2 flush, between device events."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
import torch
from tessel import kernels as K, ops

dirs = {"old": "kernels", "new": "kernels_gg:kernels"}
flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")

def use(name):
    os.environ["TESSEL_KERNEL_PATH"] = ":".join(os.path.join(here, d) for d in dirs[name].split(":"))
    K._index = None
    K._chosen.clear()

def time_us(fn, n=25):
    fn(); torch.cuda.synchronize()
    ts = []
    for _ in range(n):
        flush.zero_()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b) * 1e3)
    return statistics.median(ts)

g = torch.randn(16384, 14336, device="cuda", dtype=torch.bfloat16)
u = torch.randn_like(g)
d = torch.randn_like(g)
ref = torch.nn.functional.gelu(g.double(), approximate="tanh") * u.double()
res = {}
for r in range(4):
    for name in ("old", "new"):
        use(name)
        out = ops.geglu(g, u, "tanh")
        err = ((out.double() - ref).norm() / ref.norm()).item()
        res.setdefault(("geglu", name), []).append(time_us(lambda: ops.geglu(g, u, "tanh")))
        res.setdefault(("geglu_backward", name), []).append(
            time_us(lambda: ops.geglu_backward(d, g, u, "tanh")))
        if r == 0:
            print(f"{name}: forward rel err vs float64 {err:.2e}")
for (op, name), t in sorted(res.items()):
    print(f"{op:15s} {name}: median of rounds {statistics.median(t):7.1f} us  "
          + " ".join(f"{v:.1f}" for v in t))
