#!/usr/bin/env python3
"""host_overhead.py (in a directory made by prepare.sh, on a GPU machine): the host time of one
tessel.ops call on a CUDA tensor (the Python checks, the variant choice, the C API's argument
checks and cuLaunchKernel) against torch's own op, on rows small enough that the GPU waits for
the host, without and with autograd (forward + backward); then the calls' profile by Python
function. "host alone": the time the host takes to queue the calls, without waiting for the
GPU."""
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


def host_only(fn, n=200, batches=25):
    """The host's time alone: batches of n calls from an idle GPU, timed before the
    synchronize (the launch queue holds them), median over the batches."""
    times = []
    for _ in range(batches):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - t0) / n * 1e6)
    torch.cuda.synchronize()
    return sorted(times)[len(times) // 2]


from tessel import kernels
out = torch.empty_like(x)
v = kernels.choose("rmsnorm", "bf16", "cuda", valid=lambda c: c["BLOCK"] >= 1000,
                   prefer=lambda c: c["BLOCK"])
with torch.no_grad():
    for name, fn in (("tessel.launch (rmsnorm)",
                      lambda: kernels.launch(v, 64, out, x, w, 1000, 1000, 1e-6)),
                     ("tessel.ops.rms_norm", lambda: ops.rms_norm(x, w)),
                     ("F.rms_norm (eager)", lambda: F.rms_norm(x, (1000,), w, 1e-6)),
                     ("tessel.ops.swiglu", lambda: ops.swiglu(x, x))):
        print(f"{name:28s} {per_call(fn):7.1f} us per call (best of 5 x 2000, synchronized); "
              f"host alone {host_only(fn, 100):6.1f} us (median of 25 x 100)")
    # The C API's share of a launch: the prepared launch's C call alone (the buffers hold the
    # last launch's arguments), where the package has one (kernels._CudaLaunch).
    prepared = getattr(v, "_cuda_launches", None)
    if prepared:
        c = prepared[0].call
        print(f"{'  ... its C call alone':28s} {per_call(c):7.1f} us per call (best of 5 x 2000, "
              f"synchronized); host alone {host_only(c, 100):6.1f} us (median of 25 x 100)")
xg = x.clone().requires_grad_()
wg = w.clone().requires_grad_()
dy = torch.randn_like(x)
for name, fn in (("tessel.ops.rms_norm fwd+bwd", lambda: ops.rms_norm(xg, wg).backward(dy)),
                 ("F.rms_norm fwd+bwd (eager)",
                  lambda: F.rms_norm(xg, (1000,), wg, 1e-6).backward(dy))):
    print(f"{name:28s} {per_call(fn, 500):7.1f} us per call (best of 5 x 500, synchronized); "
          f"host alone {host_only(fn, 100):6.1f} us (median of 25 x 100)")
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
