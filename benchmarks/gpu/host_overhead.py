#!/usr/bin/env python3
"""host_overhead.py (in a directory made by prepare.sh, on a GPU machine): the host time of one
tessel.ops call on a CUDA tensor (the Python checks, the variant choice, the C API's argument
checks and cuLaunchKernel) against torch's own op, on rows small enough that the GPU waits for
the host; then the calls' profile by Python function."""
import cProfile, os, pstats, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
import torch.nn.functional as F
from tessel import ops

x = torch.randn(64, 1000, device="cuda", dtype=torch.bfloat16)
w = torch.rand(1000, device="cuda", dtype=torch.bfloat16)


def per_call(fn, n=2000):
    best = float("inf")
    for _ in range(5):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        torch.cuda.synchronize()
        best = min(best, (time.perf_counter() - t0) / n * 1e6)
    return best


with torch.no_grad():
    for name, fn in (("tessel.ops.rms_norm", lambda: ops.rms_norm(x, w)),
                     ("F.rms_norm (eager)", lambda: F.rms_norm(x, (1000,), w, 1e-6)),
                     ("tessel.ops.swiglu", lambda: ops.swiglu(x, x))):
        print(f"{name:22s} {per_call(fn):7.1f} us per call (best of 5 x 2000, synchronized)")
    cProfile.run("for _ in range(3000): ops.rms_norm(x, w)", "/tmp/host_overhead.prof")
pstats.Stats("/tmp/host_overhead.prof").sort_stats("tottime").print_stats(12)
