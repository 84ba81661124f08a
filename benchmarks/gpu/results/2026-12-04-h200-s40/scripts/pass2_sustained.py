#!/usr/bin/env python3
"""Session 40: why fused linear cross-entropy's pass-2 kernels (the window GEMM with the
gradient epilogue, and grad_weight's __tn GEMM) take 15-18% longer inside the op than timed
alone. The op's pass 2 at BT 8192, H 4096, V 128256 (42 windows of 3072 columns) is run three
ways, each kernel between its own device events: (A) each launch alone, after an L2 flush and
a synchronize; (B) back to back as the op runs them; (C) back to back with a 2 ms idle gap
(torch.cuda._sleep) before each. The SM clock (NVML, every 5 ms) is sampled meanwhile."""
import os, statistics, sys, threading, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
from tessel import kernels as K, _linear_cross_entropy as L
try:
    import pynvml
    pynvml.nvmlInit(); h = pynvml.nvmlDeviceGetHandleByIndex(0)
except Exception:
    h = None
dev, bf = "cuda", torch.bfloat16
BT, H, V, cols = 8192, 4096, 128256, 3072
torch.manual_seed(0)
x = torch.randn(BT, H, device=dev, dtype=bf)
W = torch.randn(V, H, device=dev, dtype=bf) * 0.02
t = torch.randint(0, V, (BT,), device=dev)
lse = torch.logsumexp((x[:, :64].float() @ W[:64, :64].float().T), 1) + 10
g = torch.full((1,), 1.0 / BT, device=dev)
win = torch.empty(BT, cols, device=dev, dtype=bf)
gw = torch.empty(V, H, device=dev, dtype=bf)
flush = torch.empty(256 * 2**20, dtype=torch.int8, device=dev)
sms = torch.cuda.get_device_properties(0).multi_processor_count
gce = L._gemm_variant(("gemm_ce_backward",), "bf16", "cuda", "nt", BT, cols, sms)
tn = L._gemm_variant(("gemm_block_ptr", "gemm"), "bf16", "cuda", "tn", cols, H, sms)
print("cuBLAS" if "--cublas" in sys.argv else f"window: {gce.name}\ngrad_w: {tn.name}")
cub = "--cublas" in sys.argv
def launches():
    if cub:  # the same products on cuBLAS (the window's logits without the epilogue)
        for v0 in range(0, V, cols):
            n = min(cols, V - v0)
            yield "window", lambda v0=v0, n=n: torch.matmul(x, W[v0:v0 + n].T, out=win[:, :n])
            yield "grad_w", lambda v0=v0, n=n: torch.matmul(win[:, :n].T, x, out=gw[v0:v0 + n])
        return
    for v0 in range(0, V, cols):
        n = min(cols, V - v0)
        yield "window", lambda v0=v0, n=n: K.launch(gce, L._tiles(gce, BT, n), x, W[v0:v0 + n], win, t, lse, g, BT, n, H, v0, -100, H, 1, 1, H, cols, 1)
        yield "grad_w", lambda v0=v0, n=n: L._matmul(tn, win, x, gw[v0:v0 + n], n, H, BT, (1, cols), (H, 1), (H, 1))
clocks, stop = [], [False]
def sample():
    while not stop[0]:
        if h is not None:
            clocks.append((time.time(), pynvml.nvmlDeviceGetClockInfo(h, pynvml.NVML_CLOCK_SM),
                           pynvml.nvmlDeviceGetPowerUsage(h) / 1000))
        time.sleep(0.005)
th = threading.Thread(target=sample); th.start()
for _, f in launches(): f()
torch.cuda.synchronize()
res = {}
for mode in ("A alone", "B back to back", "C 2 ms gaps", "B back to back (again)"):
    ev = []
    t0 = time.time()
    for name, f in launches():
        if mode.startswith("A"):
            flush.zero_(); torch.cuda.synchronize()
        if mode.startswith("C"):
            torch.cuda._sleep(2_000_000)
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); f(); b.record()
        ev.append((name, a, b))
        if mode.startswith("A"):
            torch.cuda.synchronize()
    torch.cuda.synchronize()
    t1 = time.time()
    per = {}
    for name, a, b in ev:
        per.setdefault(name, []).append(a.elapsed_time(b))
    ck = [c for c in clocks if t0 <= c[0] <= t1]
    cs = f"SM clock median {statistics.median([c[1] for c in ck]):.0f} MHz (min {min(c[1] for c in ck)}), power median {statistics.median([c[2] for c in ck]):.0f} W" if ck else "no clock samples"
    print(f"{mode:24s} " + "  ".join(f"{k} median {statistics.median(v):.4f} ms (sum {sum(v):.2f})" for k, v in per.items()) + f"  {cs}", flush=True)
stop[0] = True; th.join()
