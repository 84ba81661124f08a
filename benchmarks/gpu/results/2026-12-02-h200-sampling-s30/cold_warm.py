#!/usr/bin/env python3
"""Where a single row's do_bench time goes: the host's launch path or a cold cache. Per case:
do_bench (cold L2, Python launch), do_bench of a captured CUDA graph's replay (cold L2, no
Python), do_bench_cudagraph (warm L2) and the host's time a call. Run in a directory made like
call2.sh's (kernels/, python/)."""
import os, sys, time
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch, triton
import tessel
from tessel import kernels
INF = float("inf")
DT = {"f32": torch.float32, "bf16": torch.bfloat16}

def vllm_mask(logits, k, p):
    logits_sort, logits_idx = logits.sort(dim=-1, descending=False)
    if k is not None:
        top_k_mask = logits_sort.size(1) - k.to(torch.long)
        top_k_mask = logits_sort.gather(1, top_k_mask.unsqueeze(dim=1))
        top_k_mask = logits_sort < top_k_mask
        logits_sort.masked_fill_(top_k_mask, -INF)
    probs_sort = logits_sort.softmax(dim=-1)
    probs_sum = torch.cumsum(probs_sort, dim=-1, out=probs_sort)
    top_p_mask = probs_sum <= 1 - p.unsqueeze(dim=1)
    top_p_mask[:, -1] = False
    logits_sort.masked_fill_(top_p_mask, -INF)
    return logits_sort.scatter(dim=-1, index=logits_idx, src=logits_sort)

def host_us(fn, n=200):
    torch.cuda.synchronize()
    t0 = time.perf_counter()
    for _ in range(n):
        fn()
    t1 = time.perf_counter()
    torch.cuda.synchronize()
    return (t1 - t0) / n * 1e6

def graph_of(fn):
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        fn()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        fn()
    torch.cuda.synchronize()
    return g

def row(name, fn):
    fn(); torch.cuda.synchronize()
    a = triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median") * 1e3
    g = graph_of(fn)
    b = triton.testing.do_bench(g.replay, warmup=25, rep=100, return_mode="median") * 1e3
    c = triton.testing.do_bench_cudagraph(fn, rep=200, return_mode="median") * 1e3
    h = host_us(fn)
    torch.cuda.synchronize()
    print(f"{name:60s} do_bench {a:7.1f}  graph-cold {b:7.1f}  graph-warm {c:7.1f}  host/call {h:6.1f} us", flush=True)

sms = torch.cuda.get_device_properties(0).multi_processor_count
for dt in ("f32", "bf16"):
    for v, kk in ((128256, None), (128256, 50), (32000, None)):
        rows = 1
        gen = torch.Generator(device="cuda").manual_seed(rows + v)
        x = (4 * torch.randn(rows, v, device="cuda", generator=gen)).to(DT[dt])
        k = torch.full((rows,), kk or v, dtype=torch.int32, device="cuda")
        p = torch.full((rows,), 0.9, dtype=torch.float32, device="cuda")
        print(f"--- {dt} 1x{v} k={kk or 'V'}", flush=True)
        row("vllm", lambda: vllm_mask(x, k if kk else None, p))
        ws = (torch.empty(rows, v, dtype=x.dtype, device="cuda"),
              torch.empty(rows, v, dtype=torch.int32, device="cuda"),
              torch.zeros(rows, 128, dtype=torch.int64, device="cuda"),
              torch.zeros(rows, 2, dtype=torch.int32, device="cuda"))
        out = torch.empty_like(x)
        for var in kernels.variants("top_k_top_p_mask", dt, "cuda"):
            if var.name.endswith("__div8"):
                continue
            block = var.config.get("BLOCK", 1024)
            pp = max(1, min(128, -(-2 * sms // rows), v // (4 * block)))
            for s in sorted({pp, max(1, pp // 2), min(128, 2 * pp)}):
                row(f"{var.name} S={s}", lambda: tessel.launch(var, (rows, s), out, x, k, p, *ws, x.stride(0), out.stride(0), v))
