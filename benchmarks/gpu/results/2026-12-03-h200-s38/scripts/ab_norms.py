#!/usr/bin/env python3
"""ab_norms.py (session 38, in the prepare.sh directory): the norms' backward ops
(tessel.ops.rms_norm_backward, layer_norm_backward) on the library's kernels against the ones
with w reloaded per row (kernels_rn, kernels_ln), alternating A, B, A, B, ... in one process:
per shape the median over 25 launches after an L2 flush, between device events, each round."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
import torch
from tessel import kernels as K, ops

dirs = {"old": "kernels", "new": "kernels_rn:kernels_ln:kernels"}
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

res = {}
for M, N in ((16384, 4096), (4096, 16384), (32768, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = (torch.rand(N, device="cuda") + 0.5).to(torch.bfloat16)
    for op, fn in (("rms_norm_backward", lambda: ops.rms_norm_backward(dy, x, w)),
                   ("layer_norm_backward", lambda: ops.layer_norm_backward(dy, x, w))):
        for r in range(4):
            for name in ("old", "new"):
                use(name)
                res.setdefault((op, f"{M}x{N}", name), []).append(time_us(fn))
for (op, shape, name), t in sorted(res.items()):
    print(f"{op:20s} {shape:11s} {name}: median of rounds {statistics.median(t):7.1f} us  "
          + " ".join(f"{v:.1f}" for v in t))
