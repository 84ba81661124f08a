#!/usr/bin/env python3
"""host_profile.py OP [--shape MxNxK or RxH] [--calls N] (in a directory made by prepare.sh, on
a GPU machine): where the host time of one tessel op call goes. Runs the op N times (after a
warm-up) under cProfile and prints the functions by own time, then the wall time per call
with and without the profiler (the GPU kept busy with nothing else; the call's host time is
what a small, host-bound call costs).

OP: matmul (tessel.ops.matmul(x, W.T), bf16, W stored (N, K)) or add_rms_norm (forward and
backward through autograd, x and residual (R, H) bf16, both requiring grad)."""
import argparse, cProfile, os, pstats, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("op", choices=("matmul", "add_rms_norm"))
ap.add_argument("--shape", default="")
ap.add_argument("--calls", type=int, default=500)
args = ap.parse_args()

import torch
import tessel
import tessel.ops

tessel.add_kernel_directory(os.path.join(here, "kernels"))
dev, bf = "cuda", torch.bfloat16
if args.op == "matmul":
    m, n, k = (int(v) for v in (args.shape or "64x4096x4096").split("x"))
    x = torch.randn(m, k, device=dev, dtype=bf)
    w = torch.randn(n, k, device=dev, dtype=bf)
    call = lambda: tessel.ops.matmul(x, w.T)
else:
    r, h = (int(v) for v in (args.shape or "32768x1000").split("x"))
    x = torch.randn(r, h, device=dev, dtype=bf, requires_grad=True)
    res = torch.randn(r, h, device=dev, dtype=bf, requires_grad=True)
    wt = torch.ones(h, device=dev, dtype=bf, requires_grad=True)
    dy = torch.randn(r, h, device=dev, dtype=bf)
    ds = torch.randn(r, h, device=dev, dtype=bf)

    def call():
        out, s = tessel.ops.rms_norm(x, wt, residual=res)
        torch.autograd.backward([out, s], [dy, ds])

for _ in range(20):
    call()
torch.cuda.synchronize()


def wall(n):
    t = time.perf_counter()
    for _ in range(n):
        call()
    host = time.perf_counter() - t
    torch.cuda.synchronize()
    return host / n * 1e6, (time.perf_counter() - t) / n * 1e6


host, total = wall(args.calls)
print(f"{args.op} {args.shape}: host {host:.1f} us per call (enqueue), {total:.1f} us with the "
      "GPU's work")
prof = cProfile.Profile()
prof.enable()
for _ in range(args.calls):
    call()
prof.disable()
torch.cuda.synchronize()
st = pstats.Stats(prof)
st.sort_stats("tottime").print_stats(22)
