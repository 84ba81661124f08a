"""The norms' forwards on several rows per program (layernorm_rows, rmsnorm_rows) against one
row per program and torch.compile: each variant verified (outputs poisoned with NaN, against
float64 torch), then timed by kernel durations under torch.profiler (sum over N calls / N)."""
import os, sys, glob, json
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch, torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
from tessel import kernels as K

def gpu_us(fn, n=30):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n): fn()
        torch.cuda.synchronize()
    return sum(e.self_device_time_total for e in prof.key_averages()
               if e.device_type == torch.autograd.DeviceType.CUDA) / n

def rel(a, b):
    a, b = a.double(), b.double()
    if not torch.isfinite(a).all(): return float("nan")
    return ((a - b).norm() / b.norm()).item()

tdt = {"bf16": torch.bfloat16, "f32": torch.float32}
results = []
SHAPES = os.environ.get("SHAPES", "bf16:32768x1000,bf16:65536x512,bf16:16384x2048,f32:32768x1000")
for dt, M, N in ((d, int(s.split("x")[0]), int(s.split("x")[1])) for d, s in
                 (t.split(":") for t in SHAPES.split(","))):
    torch.manual_seed(0)
    x = torch.randn(M, N, device="cuda", dtype=tdt[dt]) * 2 + 0.5
    w = (torch.rand(N, device="cuda") + 0.5).to(tdt[dt])
    b = torch.randn(N, device="cuda").to(tdt[dt])
    xd = x.double()
    mu = xd.mean(-1); var = xd.var(-1, unbiased=False)
    ln_ref = ((xd - mu[:, None]) / torch.sqrt(var[:, None] + 1e-5)) * w.double() + b.double()
    ln_rstd = 1 / torch.sqrt(var + 1e-5)
    rms_rstd = 1 / torch.sqrt((xd * xd).mean(-1) + 1e-6)
    rms_ref = xd * rms_rstd[:, None] * w.double()
    tol = 1e-2 if dt == "bf16" else 1e-5
    for op in ("layernorm", "rmsnorm"):
        cands = []
        for kern in (op, op + "_rows"):
            for v in K.variants(kern, dt, "cuda"):
                blk = v.config.get("BLOCK", 0)
                if blk < N or (kern != op and blk > 4 * N): continue
                if kern == op and v.config["num_warps"] > 8: continue
                cands.append((kern, v))
        for kern, v in cands:
            R = v.config.get("ROWS", 1)
            grid = -(-M // R)
            out = torch.full_like(x, float("nan"))
            st = [torch.full((M,), float("nan"), device="cuda") for _ in range(2 if op == "layernorm" else 1)]
            if op == "layernorm":
                tail = (N, M, N, 1e-5) if R > 1 or kern.endswith("_rows") else (N, N, 1e-5)
                call = lambda: K.launch(v, grid, out, st[0], st[1], x, w, b, *tail)
            else:
                tail = (N, M, N, 1e-6) if kern.endswith("_rows") else (N, N, 1e-6)
                call = lambda: K.launch(v, grid, out, st[0], x, w, *tail)
            call(); torch.cuda.synchronize()
            if op == "layernorm":
                errs = (rel(out, ln_ref), rel(st[0], mu), rel(st[1], ln_rstd))
            else:
                errs = (rel(out, rms_ref), rel(st[0], rms_rstd))
            ok = all(e == e and e < tol for e in errs)
            t = gpu_us(call)
            name = f"{kern} R{R} B{v.config['BLOCK']} W{v.config['num_warps']}"
            print(f"{dt} {M}x{N} {name:34s} {t:7.1f} us  {'ok ' if ok else 'BAD'} "
                  + " ".join(f"{e:.1e}" for e in errs), flush=True)
            results.append(dict(dt=dt, shape=f"{M}x{N}", op=op, variant=name, us=t, ok=ok,
                                errs=errs))
        if op == "layernorm":
            fc = torch.compile(lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5))
            f = lambda: fc(x, w, b)
        else:
            fc = torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))
            f = lambda: fc(x, w)
        with torch.no_grad():
            t = gpu_us(f)
        print(f"{dt} {M}x{N} {op} torch.compile {t:7.1f} us", flush=True)
        results.append(dict(dt=dt, shape=f"{M}x{N}", op=op, variant="torch.compile", us=t, ok=True))
        torch._dynamo.reset()
json.dump(results, open(os.path.join(os.environ.get("OUT", "."), "rows_sweep.json"), "w"), indent=1)
