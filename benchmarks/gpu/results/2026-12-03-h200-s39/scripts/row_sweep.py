#!/usr/bin/env python3
"""row_sweep.py (session 39): every bf16 variant of rmsnorm, layernorm and add_rmsnorm_out whose
BLOCK is the row's bucket, launched directly on the library's kernels (prepare.sh's), at the
benchmark shapes: three rounds of the median of 25 launches after an L2 flush; then which
variant ops.rms_norm / layer_norm / rms_norm(residual=) pick, with its output against float64."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ["TESSEL_KERNEL_PATH"] = os.path.join(here, "kernels")
import torch
import torch.nn.functional as F
from tessel import kernels as K, ops, _common

flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
bf = torch.bfloat16

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

sweep = {}
for M, N in ((16384, 4096), (4096, 16384), (32768, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=bf); r = torch.randn_like(x)
    w = (torch.rand(N, device="cuda") + 0.5).to(bf); b = torch.randn(N, device="cuda", dtype=bf)
    out, s = torch.empty_like(x), torch.empty_like(x)
    bucket = 1 << (N - 1).bit_length()
    launches = {
        "rmsnorm": lambda v: K.launch(v, M, out, x, w, N, N, 1e-6),
        "layernorm": lambda v: K.launch(v, M, out, x, w, b, N, N, 1e-5),
        "add_rmsnorm_out": lambda v: K.launch(v, M, out, s, x, r, w, N, N, 1e-6)}
    if N >= 16384:  # the two-pass kernel, a block of the row at a time (as torch.compile's)
        launches["rmsnorm_looped"] = lambda v: K.launch(v, M, out, x, w, N, N, 1e-6)
    for rnd in range(3):
        for kernel, run in launches.items():
            for v in K.variants(kernel, "bf16", "cuda"):
                if v.config["BLOCK"] == bucket or kernel.endswith("_looped"):
                    sweep.setdefault((kernel, f"{M}x{N}", v.config["num_warps"], v.config["BLOCK"]), []).append(
                        time_us(lambda: run(v)))
    K._chosen.clear()
    picks = {"rmsnorm": _common._one_block_or_looped("rmsnorm", "rmsnorm_looped", "bf16", "cuda", N),
             "layernorm": _common._one_block_or_looped("layernorm", "layernorm_looped", "bf16", "cuda", N),
             "add_rmsnorm_out": _common._one_block_or_looped("add_rmsnorm_out", None, "bf16", "cuda", N)}
    errs = {"rmsnorm": (ops.rms_norm(x, w), F.rms_norm(x.double(), (N,), w.double(), 1e-6)),
            "layernorm": (ops.layer_norm(x, w, b), F.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)),
            "add_rmsnorm_out": (ops.rms_norm(x, w, residual=r)[0],
                                F.rms_norm(x.double() + r.double(), (N,), w.double(), 1e-6))}
    for kernel, v in picks.items():
        o, ref = errs[kernel]
        e = ((o.double() - ref).norm() / ref.norm()).item()
        ok = bool(torch.isfinite(o).all()) and e < 1e-2
        print(f"pick {kernel:16s} {M}x{N}: {v.name}  rel err {e:.2e} {'PASS' if ok else 'FAIL'}")
print("\nkernel           shape        warps  BLOCK   us (median of 3 rounds)")
for (kernel, shape, warps, block), t in sorted(sweep.items()):
    print(f"{kernel:16s} {shape:12s} {warps:5d} {block:6d} {statistics.median(t):8.1f}")
