#!/usr/bin/env python3
"""s57: why 16x6144x4096 (bT) takes 35.8 us by do_bench against 13.4 in a CUDA graph and 22.9 in
the tuner. Per shape: the plan, host time per call, do_bench x5 (tessel, cuBLAS alternating),
then a profiled do_bench-like loop (256 MB zero_ then the op): each kernel's GPU time and the
gap between the memset's end and the GEMM kernel's start."""
import os, sys, time, statistics
here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "../r55/python"), os.path.join(here, "../r55")]
import torch, triton.testing as tt
import tessel
from tessel._matmul import plan_of
from torch.profiler import profile, ProfilerActivity
tessel.add_kernel_directory(os.path.join(here, "../r55/kernels"))
cache = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device="cuda")
for item in sys.argv[1].split(","):
    m, n, k = (int(x) for x in item.split("x"))
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16).t()
    ref = a.double() @ b.double()
    c = tessel.ops.matmul(a, b)
    err = ((c.double() - ref).norm() / ref.norm()).item()
    p = plan_of(a, b)
    print(f"{item}: err {err:.2e} plan {p.variant.name[:-60]}.. splits={p.splits} swap={p.swap}")
    for name, fn in (("tessel", lambda: tessel.ops.matmul(a, b)), ("cublas", lambda: torch.matmul(a, b))):
        torch.cuda.synchronize(); t0 = time.perf_counter()
        for _ in range(2000):
            fn()
        t1 = time.perf_counter(); torch.cuda.synchronize()
        host = (t1 - t0) / 2000 * 1e6
        db = [tt.do_bench(fn, warmup=25, rep=100, return_mode="median") * 1e3 for _ in range(5)]
        gr = tt.do_bench_cudagraph(fn, rep=100, return_mode="median") * 1e3
        with profile(activities=[ProfilerActivity.CUDA]) as prof:
            for _ in range(50):
                cache.zero_(); fn()
            torch.cuda.synchronize()
        ev = sorted([e for e in prof.events() if e.device_type.name == "CUDA"], key=lambda e: e.time_range.start)
        kern, gaps, prev = [], [], None
        for e in ev:
            if "elementwise" in e.name or "fill" in e.name.lower() or "memset" in e.name.lower():
                prev = e; continue
            if prev is not None:
                kern.append(e.time_range.end - e.time_range.start)
                gaps.append(e.time_range.start - prev.time_range.end); prev = None
        names = sorted({e.name[:50] for e in ev})
        print(f"  {name}: host/call {host:.1f} us; do_bench {' '.join(f'{x:.1f}' for x in db)}; graph {gr:.1f}; "
              f"profiled kernel med {statistics.median(kern) if kern else 0:.1f} us, gap after memset med "
              f"{statistics.median(gaps) if gaps else 0:.1f} max {max(gaps) if gaps else 0:.1f}; kernels {names}")
