#!/usr/bin/env python3
"""norm_step_profile.py [--shapes MxN,...] [--ops rms_norm,layer_norm,add_rms_norm] [--compile]
(in a directory made by prepare.sh, on a GPU machine): where one forward + backward step of a
norm spends its time, for Tessel, PyTorch eager and Liger-Kernel (when importable), bf16.

Per implementation (--compile: torch.compile of eager too) and shape, three numbers and a
profile:
- step: do_bench's median of one step (inputs' .grad reset, forward, backward; L2 flushed), as
  torch_ops.py times it;
- host: the host's time to queue one step, from an idle GPU (median of 20 batches of 20 steps,
  timed before the synchronize);
- kernels: the step's device time under torch.profiler (sum of its kernels' durations, the
  memset and copy kernels included), and the span from the first kernel's start to the last's end;
then the profiler's CPU ops by self time (the autograd engine's thread included) for Tessel's
step, which shows what the host does between the launches.
Writes $OUT/norm_step_profile.json (and one Chrome trace per Tessel row) when OUT is set."""
import argparse, json, os, statistics, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--shapes", default="16384x4096,4096x16384,32768x1000")
ap.add_argument("--ops", default="rms_norm,layer_norm", help="rms_norm, layer_norm, add_rms_norm")
ap.add_argument("--compile", action="store_true", help="also torch.compile of the eager function")
args = ap.parse_args()

import torch
import torch.nn.functional as F
import triton.testing as tt
from tessel import ops

try:
    from liger_kernel.ops.rms_norm import LigerRMSNormFunction
    from liger_kernel.ops.layer_norm import LigerLayerNormFunction
    liger = True
except Exception as e:
    print(f"note: no Liger-Kernel ({e})")
    liger = False

dev, bf = "cuda", torch.bfloat16
out_dir = os.environ.get("OUT")
rows = []


def host_time(step, batches=20, n=20):
    times = []
    for _ in range(batches):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(n):
            step()
        times.append((time.perf_counter() - t0) / n * 1e6)
    torch.cuda.synchronize()
    return statistics.median(times)


def profiled(step, trace=None):
    """(kernel us, first-to-last kernel span us, CPU ops by self time) of one step, the median
    of five profiled steps' kernel sums."""
    from torch.profiler import profile, ProfilerActivity
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        for _ in range(5):
            step()
            torch.cuda.synchronize()
    if trace:
        prof.export_chrome_trace(trace)
    events = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    events.sort(key=lambda e: e.time_range.start)
    # Split the kernels into the five steps by the gaps the synchronize leaves (the largest).
    gaps = sorted(range(1, len(events)), key=lambda i: events[i].time_range.start
                  - events[i - 1].time_range.end)[-4:] if len(events) > 5 else []
    cuts = [0] + sorted(gaps) + [len(events)]
    sums, spans = [], []
    for a, b in zip(cuts, cuts[1:]):
        part = events[a:b]
        if part:
            sums.append(sum(e.time_range.end - e.time_range.start for e in part))
            spans.append(part[-1].time_range.end - part[0].time_range.start)
    table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=18)
    kernels = {}
    for e in events:
        kernels[e.name] = kernels.get(e.name, 0) + (e.time_range.end - e.time_range.start) / 5
    return statistics.median(sums), statistics.median(spans), table, kernels


for shape in args.shapes.split(","):
    M, N = (int(v) for v in shape.split("x"))
    x = torch.randn(M, N, device=dev, dtype=bf, requires_grad=True)
    w = (torch.rand(N, device=dev) + 0.5).to(bf).requires_grad_()
    b = torch.randn(N, device=dev, dtype=bf, requires_grad=True)
    dy = torch.randn(M, N, device=dev, dtype=bf)
    impls = {}
    if "rms_norm" in args.ops:
        impls["rms_norm"] = ([x, w], {
            "tessel": lambda x, w: ops.rms_norm(x, w),
            "eager": lambda x, w: F.rms_norm(x, (N,), w, 1e-6),
            "liger": (lambda x, w: LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False))
            if liger else None})
    if "layer_norm" in args.ops:
        impls["layer_norm"] = ([x, w, b], {
            "tessel": lambda x, w, b: ops.layer_norm(x, w, b),
            "eager": lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5),
            "liger": (lambda x, w, b: LigerLayerNormFunction.apply(x, w, b, 1e-5))
            if liger else None})
    if "add_rms_norm" in args.ops:  # (norm(x + r), x + r), an upstream gradient for both
        r = torch.randn(M, N, device=dev, dtype=bf, requires_grad=True)
        impls["add_rms_norm"] = ([x, r, w], {
            "tessel": lambda x, r, w: ops.rms_norm(x, w, residual=r),
            "eager": lambda x, r, w: (F.rms_norm(x + r, (N,), w, 1e-6), x + r)})
    ds = torch.randn(M, N, device=dev, dtype=bf)
    for op, (inputs, fns) in impls.items():
        if args.compile:
            fns["compile"] = torch.compile(fns["eager"])
        for name, fn in fns.items():
            if fn is None:
                continue
            def step(fn=fn, inputs=inputs):
                for t in inputs:
                    t.grad = None
                out = fn(*inputs)
                if isinstance(out, tuple):
                    torch.autograd.backward(list(out), [dy, ds])
                else:
                    out.backward(dy)
            r = {"op": op, "shape": shape, "impl": name}
            r["step_us"] = tt.do_bench(step, warmup=25, rep=200, return_mode="median") * 1e3
            r["host_us"] = host_time(step)
            trace = (os.path.join(out_dir, f"trace_{op}_{shape}.json")
                     if out_dir and name == "tessel" else None)
            r["kernel_us"], r["span_us"], table, r["kernels"] = profiled(step, trace)
            rows.append(r)
            print(f"{op:10s} {shape:11s} {name:7s} step {r['step_us']:7.1f} us  host "
                  f"{r['host_us']:7.1f}  kernels {r['kernel_us']:7.1f}  span {r['span_us']:7.1f}",
                  flush=True)
            for k, t in sorted(r["kernels"].items(), key=lambda kv: -kv[1])[:6]:
                print(f"      {t:8.1f} us  {k[:90]}")
            if name == "tessel":
                print(table, flush=True)
    del x, w, b, dy
    torch.cuda.empty_cache()

print("\nop         shape       impl    step us  host us  kernels us  span us")
for r in rows:
    print(f"{r['op']:10s} {r['shape']:11s} {r['impl']:7s} {r['step_us']:7.1f} {r['host_us']:8.1f} "
          f"{r['kernel_us']:11.1f} {r['span_us']:8.1f}")
if out_dir:
    with open(os.path.join(out_dir, "norm_step_profile.json"), "w") as fh:
        json.dump(rows, fh, indent=1)
