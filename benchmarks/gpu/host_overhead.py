#!/usr/bin/env python3
"""host_overhead.py (in a directory made by prepare.sh, on a GPU machine): the host time of one
tessel.ops call on a CUDA tensor (the Python checks, the variant choice, the C API's argument
checks and cuLaunchKernel) against torch's own op, on rows small enough that the GPU waits for
the host, without and with autograd (forward + backward); then the calls' profile by Python
function."""
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
xg = x.clone().requires_grad_()
wg = w.clone().requires_grad_()
dy = torch.randn_like(x)
for name, fn in (("tessel.ops.rms_norm fwd+bwd", lambda: ops.rms_norm(xg, wg).backward(dy)),
                 ("F.rms_norm fwd+bwd (eager)",
                  lambda: F.rms_norm(xg, (1000,), wg, 1e-6).backward(dy))):
    print(f"{name:28s} {per_call(fn, 500):7.1f} us per call (best of 5 x 500, synchronized)")
# The same call through the torch.library custom op (what torch.compile records; eager calls
# used it before the autograd.Function path): the dispatcher's share of the host time.
from tessel import torch_ops
eager_call, torch_ops._call = torch_ops._call, lambda op, eager, *args: op(*args)
t = per_call(lambda: ops.rms_norm(xg, wg).backward(dy), 500)
torch_ops._call = eager_call
print(f"{'  ... through the custom op':28s} {t:7.1f} us per call (best of 5 x 500, synchronized)")
with torch.no_grad():
    cProfile.run("for _ in range(3000): ops.rms_norm(x, w)", "/tmp/host_overhead.prof")
pstats.Stats("/tmp/host_overhead.prof").sort_stats("tottime").print_stats(12)
