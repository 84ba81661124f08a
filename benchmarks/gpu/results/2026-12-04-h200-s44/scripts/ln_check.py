#!/usr/bin/env python3
"""ln_check.py (in a directory holding python/tessel and kernels/): tessel.ops.layer_norm's
output and gradients against float64 PyTorch, eager and under torch.compile(fullgraph=True), at
bf16 and f32 on odd and benchmark shapes, and layer_norm_forward's mean and rstd. Exit 1 on a
failure. (torch_ops.py's layer_norm checks, without the other ops' kernels.)"""
import os, sys, traceback
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch, torch.nn.functional as F
from tessel import ops
dev, failures, checks = "cuda", 0, 0
TOL = {torch.bfloat16: 1e-2, torch.float32: 1e-5}

def check(what, got, want, dtype):
    global failures, checks
    checks += 1
    diff, scale = (got.double() - want.double()).norm(), want.double().norm()
    err = (diff / scale if scale > 0 else diff).item()  # (1, 1): dx is exactly 0
    ok = err <= TOL[dtype] and torch.isfinite(got).all().item()
    failures += not ok
    if not ok or "16384" in what:
        print(f"  {'ok  ' if ok else 'FAIL'} {what}: {err:.2e}", flush=True)

ln_compiled = torch.compile(lambda x, w, b: ops.layer_norm(x, w, b) * 2.0, fullgraph=True)
for dtype in (torch.bfloat16, torch.float32):
    for shape in ((3, 5, 1000), (7, 4097), (2, 17), (1, 1), (4096, 16384), (32768, 1000)):
        for mode in ("eager", "compile"):
            try:
                torch.manual_seed(0)
                x0 = torch.randn(shape, device=dev) * 2 + 1
                w0 = torch.rand(shape[-1], device=dev) + 0.5
                b0 = torch.randn(shape[-1], device=dev)
                # Separate leaves (t.to(f32) would be t itself, shared with the reference).
                xs = [t.to(dtype).clone().requires_grad_() for t in (x0, w0, b0)]
                rs = [t.to(dtype).double().requires_grad_() for t in (x0, w0, b0)]
                out = ops.layer_norm(*xs) * 2.0 if mode == "eager" else ln_compiled(*xs)
                ref = F.layer_norm(rs[0], (shape[-1],), rs[1], rs[2], 1e-5) * 2.0
                dout = torch.randn(shape, device=dev)
                out.backward(dout.to(dtype)); ref.backward(dout.double())
                name = f"layer_norm {mode} {str(dtype)[6:]} {shape}"
                check(name + " out", out, ref, dtype)
                for i, (a, r) in enumerate(zip(xs, rs)):
                    check(f"{name} grad[{i}]", a.grad, r.grad, dtype)
                if mode == "eager":
                    _, mean, rstd = ops.layer_norm_forward(xs[0].detach(), xs[1].detach(), xs[2].detach())
                    xd = xs[0].detach().double()
                    check(name + " mean", mean, xd.mean(-1), torch.float32)
                    check(name + " rstd", rstd, 1 / (xd.var(-1, unbiased=False) + 1e-5).sqrt(), torch.float32)
            except Exception:
                failures += 1
                print(f"  FAIL layer_norm {mode} {dtype} {shape}: {traceback.format_exc()}", flush=True)
print(f"ln_check: {checks} checks, {failures} failed")
sys.exit(1 if failures else 0)
