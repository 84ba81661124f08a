#!/usr/bin/env python3
"""cublas_probe.py [DT:MxNxK[:bT] ...] [--once]: which kernel cuBLAS runs for each GEMM (the
torch.profiler's kernel name, which spells nvjet's tile, ring depth and cluster), and its time:
do_bench (cold L2, as gemm_bench.py) and in a CUDA graph of 50 back-to-back launches (warm L2,
no launch gaps). --once: one launch per shape after a warm-up (for ncu)."""
import sys, torch, torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
import triton.testing

args = [a for a in sys.argv[1:] if not a.startswith("--")]
once = "--once" in sys.argv
dts = {"bf16": torch.bfloat16, "f16": torch.float16}
for spec in args:
    parts = spec.split(":")
    dt = dts[parts[0]]; m, n, k = map(int, parts[1].split("x")); bT = "bT" in parts[2:]
    torch.manual_seed(0)
    x = torch.randn(m, k, dtype=dt, device="cuda")
    w = torch.randn(n, k, dtype=dt, device="cuda") if bT else torch.randn(k, n, dtype=dt, device="cuda")
    fn = (lambda: F.linear(x, w)) if bT else (lambda: torch.matmul(x, w))
    for _ in range(3): fn()
    torch.cuda.synchronize()
    if once:
        fn(); torch.cuda.synchronize(); continue
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        fn(); torch.cuda.synchronize()
    names = sorted({e.name for e in prof.events() if e.device_type.name == "CUDA"})
    cold = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median") * 1e3
    g = torch.cuda.CUDAGraph(); s = torch.cuda.Stream()
    with torch.cuda.stream(s):
        fn()
        with torch.cuda.graph(g):
            for _ in range(50): fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(10):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); g.replay(); b.record(); torch.cuda.synchronize(); ts.append(a.elapsed_time(b) * 1e3 / 50)
    ts.sort()
    print(f"{spec:28s} do_bench {cold:8.1f} us  graph {ts[len(ts)//2]:8.1f} us  {' | '.join(names)}", flush=True)
