#!/usr/bin/env python3
"""norm_bench.py [--only rms_norm,layer_norm] [--shapes MxN,...] (in a directory made by
prepare.sh, on a GPU machine): RMSNorm and LayerNorm forward and forward+backward at DESIGN.md
section 7's shapes (16384x4096, 4096x16384, 32768x1000 bf16; --shapes picks others, e.g. the
short rows of a QK-norm, 262144x128), Tessel against PyTorch eager, Liger-Kernel and
torch.compile, in a process that has run nothing else (torch_ops.py times the same steps after
its checks and torch.compile runs; torch.compile is timed last here). Per step: do_bench's
median (L2 flushed), and the GPU's own time of one step (the sum of its kernels' durations,
torch.profiler; the forward's too), so that a step whose host time exceeds its GPU time shows
as such. Each
Tessel op is checked against eager first (relative error of outputs and gradients).
Writes $OUT/norm_bench.json when OUT is set."""
import argparse, json, os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
ap = argparse.ArgumentParser()
ap.add_argument("--only", default="rms_norm,layer_norm")
ap.add_argument("--shapes", default="16384x4096,4096x16384,32768x1000")
args = ap.parse_args()
import torch
import torch.nn.functional as F
import triton
from torch.profiler import ProfilerActivity, profile
from tessel import ops
try:
    from liger_kernel.ops.layer_norm import LigerLayerNormFunction
    from liger_kernel.ops.rms_norm import LigerRMSNormFunction
except Exception as e:  # pragma: no cover - the GPU machine has it when the wheel is carried
    print(f"liger_kernel not importable ({e}): its rows are skipped")
    LigerRMSNormFunction = LigerLayerNormFunction = None


def rel(a, b):
    return ((a.double() - b.double()).norm() / b.double().norm()).item()


def device_us(step):
    """The GPU time of one step: the sum of the durations of the kernels it ran (us)."""
    step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step()
        torch.cuda.synchronize()
    # As the profiler table's "Self CUDA time total": the kernels' own events, not the CPU-side
    # ops that launched them (which report the same time again).
    return sum(e.self_device_time_total for e in prof.key_averages()
               if e.device_type == torch.autograd.DeviceType.CUDA)


rows, table = [], []
impls_of = {}
for M, N in (tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",")):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    w = (torch.rand(N, device="cuda") + 0.5).to(torch.bfloat16).requires_grad_()
    b = torch.randn(N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    eager_rms = lambda: F.rms_norm(x, (N,), w, 1e-6)
    eager_ln = lambda: F.layer_norm(x, (N,), w, b, 1e-5)
    ops_of = {
        "rms_norm": ([x, w], {"tessel": lambda: ops.rms_norm(x, w), "eager": eager_rms,
                              "liger": (lambda: LigerRMSNormFunction.apply(x, w, 1e-6, 0.0, "llama", False))
                              if LigerRMSNormFunction else None,
                              "compile": torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))}),
        "layer_norm": ([x, w, b], {"tessel": lambda: ops.layer_norm(x, w, b), "eager": eager_ln,
                                   "liger": (lambda: LigerLayerNormFunction.apply(x, w, b, 1e-5))
                                   if LigerLayerNormFunction else None,
                                   "compile": torch.compile(lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5))}),
    }
    for op, (leaves, impls) in ops_of.items():
        if op not in args.only.split(","):
            continue
        shape = f"{M}x{N}"
        # Check Tessel against eager (outputs and every gradient).
        outs = {}
        for name in ("tessel", "eager"):
            for t in leaves:
                t.grad = None
            y = impls[name]()
            y.backward(dy)
            outs[name] = [y.detach()] + [t.grad.clone() for t in leaves]
        errs = [rel(a, e) for a, e in zip(outs["tessel"], outs["eager"])]
        ok = all(e < 2e-2 for e in errs)
        print(f"{'PASS' if ok else 'FAIL'} {op} {shape}: rel err vs eager (out, grads) "
              + ", ".join(f"{e:.2e}" for e in errs), flush=True)
        for name, fn in impls.items():
            if fn is None:
                continue
            if name == "compile":
                f0 = fn
                fn = (lambda f0=f0: f0(*leaves))

            def step(fn=fn):
                for t in leaves:
                    t.grad = None
                torch.autograd.backward([fn()], [dy])
            with torch.no_grad():
                fwd = triton.testing.do_bench(fn, warmup=25, rep=200) * 1e3
                fwd_dev = device_us(fn)
            fb = triton.testing.do_bench(step, warmup=25, rep=200) * 1e3
            dev = device_us(step)
            r = {"op": op, "shape": shape, "impl": name, "fwd_us": fwd, "fwd_bwd_us": fb,
                 "fwd_device_us": fwd_dev, "fwd_bwd_device_us": dev}
            rows.append(r)
            print(f"  {op:10s} {shape:11s} {name:8s} fwd {fwd:7.1f} us  fwd+bwd {fb:7.1f} us"
                  f"  (GPU fwd {fwd_dev:6.1f}, fwd+bwd {dev:6.1f} us)", flush=True)
    del x, w, b, dy
    torch.cuda.empty_cache()

print("\nTessel's speed-up (other's time / Tessel's; > 1: Tessel faster)")
print(f"{'op':10s} {'shape':11s} {'vs':8s} {'fwd':>6s} {'fwd+bwd':>8s} {'GPU fwd':>8s} "
      f"{'GPU fwd+bwd':>12s}")
for r in rows:
    if r["impl"] == "tessel":
        continue
    t = next(q for q in rows if q["impl"] == "tessel" and q["op"] == r["op"] and q["shape"] == r["shape"])
    print(f"{r['op']:10s} {r['shape']:11s} {r['impl']:8s} {r['fwd_us'] / t['fwd_us']:6.2f} "
          f"{r['fwd_bwd_us'] / t['fwd_bwd_us']:8.2f} {r['fwd_device_us'] / t['fwd_device_us']:8.2f} "
          f"{r['fwd_bwd_device_us'] / t['fwd_bwd_device_us']:12.2f}")
if os.environ.get("OUT"):
    json.dump(rows, open(os.path.join(os.environ["OUT"], "norm_bench.json"), "w"), indent=1)
