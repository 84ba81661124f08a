#!/usr/bin/env python3
"""decode_flush.py [--shapes MxNxK,...] [--reps N] (in a directory made by prepare.sh, on a GPU
machine): how much of a decode GEMM's cold-L2 time is the L2 flush's.

do_bench and tessel-run-gpu --bench make L2 cold by writing a 256 MiB buffer before each run
(torch's zero_, cuMemsetD32): the L2 then holds that buffer's dirty lines, and the timed kernel's
reads evict them, so DRAM also takes their write-back during the kernel. A GEMM of a few MiB of
weights per microsecond (decode, M = 1..64) then shares DRAM with up to 50 MiB of write-back.
Here each kernel is timed after three flushes, median of --reps runs between CUDA events:
  write        zero_ of 256 MiB (do_bench's flush, the benchmarks' method)
  write+read   the same, then a sum over another 256 MiB: the dirty lines are written back
               during the sum, and the L2 is left full of clean lines of a third buffer
  read         the sum alone (the previous run's lines are clean by then): cold and clean
for cuBLAS (F.linear, W stored (N, K)), tessel.ops.matmul (x @ W^T, its split-K decode plan),
and a read of the weight alone (W.sum(dtype=float32): one pass over the same bytes, what the
GEMM cannot beat), as GB/s of the weight and activation bytes read."""
import argparse, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--shapes", default="1x4096x4096,16x6144x4096,64x4096x4096,1x28672x4096,"
                "1x4096x14336,16x57344x8192")
ap.add_argument("--reps", type=int, default=60)
args = ap.parse_args()

import torch
import torch.nn.functional as F
from flushed import flushed_times  # noqa: E402  (beside this script)
try:
    import tessel
    import tessel.ops
except Exception as e:  # the cuBLAS and read columns still mean something
    print(f"note: no tessel package ({e})")
    tessel = None

dev = "cuda"
scratch = torch.empty(256 << 20, dtype=torch.int8, device=dev)
clean = torch.ones(64 << 20, dtype=torch.float32, device=dev)  # 256 MiB


def flush(mode):
    if mode in ("write", "write+read"):
        scratch.zero_()
    if mode in ("write+read", "read"):
        clean.sum()


def median_us(fn, mode):
    for _ in range(3):
        fn()
    return statistics.median(flushed_times(fn, args.reps, lambda: flush(mode)))


modes = ("write", "write+read", "read")
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}; us, median of {args.reps}; "
      "GB/s of the bytes read (weight + activations)")
print(f"{'shape (bf16, x @ W^T)':24s} {'what':8s} " + " ".join(f"{m:>18s}" for m in modes))
for item in args.shapes.split(","):
    m, n, k = (int(v) for v in item.lower().split("x"))
    torch.manual_seed(0)
    x = torch.randn(m, k, device=dev, dtype=torch.bfloat16)
    w = torch.randn(n, k, device=dev, dtype=torch.bfloat16) / k ** 0.5
    ref = (x.double() @ w.double().T)
    what = {"cublas": lambda: F.linear(x, w), "read": lambda: w.sum(dtype=torch.float32)}
    if tessel is not None:
        out = tessel.ops.matmul(x, w.T)
        err = ((out.double() - ref).norm() / ref.norm()).item()
        ok = err < 1e-2 and bool(torch.isfinite(out).all())
        print(f"{item:24s} tessel verified: rel err {err:.2e} {'PASS' if ok else 'FAIL'}")
        if ok:
            what["tessel"] = lambda: tessel.ops.matmul(x, w.T)
    gb = (m * k + n * k) * 2 / 1e9
    for name, fn in what.items():
        ts = [median_us(fn, mode) for mode in modes]
        print(f"{item:24s} {name:8s} " + " ".join(f"{t:8.1f} {gb / t * 1e6:6.0f} GB/s"
                                                   for t in ts), flush=True)
