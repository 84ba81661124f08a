#!/usr/bin/env python3
"""norm_profile.py (copied into a prepare.sh directory): where rms_norm's forward + backward goes
at 16384x4096 bf16 (torch_ops.py's fwd+bwd step): the kernels by device time (torch.profiler),
the time to queue one step from an idle GPU against the time until the GPU has run it, and the
same for eager F.rms_norm."""
import os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
import torch.nn.functional as F
import triton
from torch.profiler import ProfilerActivity, profile
from tessel import ops

M, N = 16384, 4096
x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
w = (torch.rand(N, device="cuda") + 0.5).to(torch.bfloat16).requires_grad_()
dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
for name, fn in (("tessel", lambda: ops.rms_norm(x, w)),
                 ("eager", lambda: F.rms_norm(x, (N,), w, 1e-6))):
    def step():
        x.grad = w.grad = None
        torch.autograd.backward([fn()], [dy])
    for _ in range(5):
        step()
    for _ in range(3):
        torch.cuda.synchronize()
        t0 = time.perf_counter(); step(); t1 = time.perf_counter()
        torch.cuda.synchronize(); t2 = time.perf_counter()
        print(f"{name}: step queued in {(t1 - t0) * 1e6:.0f} us, run by {(t2 - t0) * 1e6:.0f} us")
    print(f"{name}: do_bench fwd+bwd {triton.testing.do_bench(step, warmup=25, rep=200) * 1e3:.1f} us")
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step()
        torch.cuda.synchronize()
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=8, max_name_column_width=70))
