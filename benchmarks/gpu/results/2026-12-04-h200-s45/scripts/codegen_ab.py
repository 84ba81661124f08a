"""The same norm kernels compiled four ways, verified and timed by kernel time (torch.profiler,
sum over 30 calls / 30; three rounds in rotating order, the median kept), beside torch.compile:
A the parent's compiler, B without the select after a masked load whose other is zero, C = B
with LLVM's FP contraction (fma), D = C with the column mask compared in i32."""
import os, sys, glob, json, statistics, subprocess
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kB"))
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

dirs = {"A": "kernels", "B": "kB", "C": "kC", "D": "kD"}
cases = [("layernorm", 1024, 1, 32768, 1000), ("layernorm", 1024, 2, 32768, 1000),
         ("rmsnorm", 1024, 1, 32768, 1000), ("rmsnorm", 1024, 2, 32768, 1000),
         ("add_rmsnorm_out", 1024, 1, 32768, 1000),
         ("layernorm", 4096, 4, 16384, 4096), ("rmsnorm", 4096, 4, 16384, 4096),
         ("add_rmsnorm_out", 4096, 4, 16384, 4096),
         ("layernorm", 16384, 16, 4096, 16384), ("rmsnorm", 16384, 16, 4096, 16384),
         ("add_rmsnorm_out", 16384, 16, 4096, 16384)]
bf = torch.bfloat16
data = {}
def inputs(M, N):
    if (M, N) not in data:
        torch.manual_seed(0)
        x = torch.randn(M, N, device="cuda", dtype=bf) * 2 + 0.5
        r = torch.randn(M, N, device="cuda", dtype=bf)
        w = (torch.rand(N, device="cuda") + 0.5).to(bf)
        b = torch.randn(N, device="cuda").to(bf)
        data[(M, N)] = (x, r, w, b)
    return data[(M, N)]

rows = []
for kern, B, W, M, N in cases:
    x, r, w, b = inputs(M, N)
    xd = x.double()
    if kern == "layernorm":
        mu = xd.mean(-1); var = xd.var(-1, unbiased=False)
        ref = ((xd - mu[:, None]) / torch.sqrt(var[:, None] + 1e-5)) * w.double() + b.double()
    else:
        s = (x.double() + r.double()) if kern == "add_rmsnorm_out" else xd
        ref = s * (1 / torch.sqrt((s * s).mean(-1) + 1e-6))[:, None] * w.double()
    calls = {}
    for tag, d in dirs.items():
        p = os.path.join(here, d, f"{kern}__bf16__BLOCK_{B}__num_warps_{W}__div8.json")
        v = K.load_kernel(p)
        out = torch.full_like(x, float("nan")); so = torch.full_like(x, float("nan"))
        st = torch.full((M,), float("nan"), device="cuda"); st2 = torch.full((M,), float("nan"), device="cuda")
        if kern == "layernorm":
            f = lambda v=v, out=out, st=st, st2=st2: K.launch(v, M, out, st, st2, x, w, b, N, N, 1e-5)
        elif kern == "rmsnorm":
            f = lambda v=v, out=out, st=st: K.launch(v, M, out, st, x, w, N, N, 1e-6)
        else:
            f = lambda v=v, out=out, so=so, st=st: K.launch(v, M, out, so, st, x, r, w, N, N, 1e-6)
        f(); torch.cuda.synchronize()
        e = rel(out, ref)
        calls[tag] = (f, e)
    times = {t: [] for t in calls}
    for rnd in range(3):
        order = list(calls)[rnd:] + list(calls)[:rnd]
        for t in order:
            times[t].append(gpu_us(calls[t][0]))
    med = {t: statistics.median(v) for t, v in times.items()}
    line = f"{kern:16s} {M}x{N:<6d} B{B} W{W:<3d} " + "  ".join(
        f"{t} {med[t]:6.1f} ({calls[t][1]:.1e})" for t in calls)
    print(line, flush=True)
    rows.append(dict(kernel=kern, shape=f"{M}x{N}", BLOCK=B, num_warps=W,
                     us={t: times[t] for t in times}, err={t: calls[t][1] for t in calls}))
for M, N in ((32768, 1000), (16384, 4096), (4096, 16384)):
    x, r, w, b = inputs(M, N)
    fs = {"layernorm": (torch.compile(lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5)), (x, w, b)),
          "rmsnorm": (torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6)), (x, w)),
          "add_rmsnorm_out": (torch.compile(lambda x, r, w: (F.rms_norm(x + r, (N,), w, 1e-6), x + r)), (x, r, w))}
    with torch.no_grad():
        for k, (fc, a) in fs.items():
            t = statistics.median([gpu_us(lambda: fc(*a)) for _ in range(3)])
            print(f"{k:16s} {M}x{N:<6d} torch.compile {t:6.1f}", flush=True)
            rows.append(dict(kernel=k, shape=f"{M}x{N}", compile_us=t))
    torch._dynamo.reset()
json.dump(rows, open(os.path.join(os.environ.get("OUT", "."), "codegen_ab.json"), "w"), indent=1)
# SASS instruction counts of LayerNorm 1000 columns, W1, each way, and Triton's (inductor's).
o = os.environ.get("OUT", ".")
for tag, d in dirs.items():
    c = os.path.join(here, d, "layernorm__bf16__BLOCK_1024__num_warps_1__div8.cubin")
    s = subprocess.run(["cuobjdump", "-sass", c], capture_output=True, text=True).stdout
    open(os.path.join(o, f"sass_{tag}.txt"), "w").write(s)
    n = sum(1 for l in s.splitlines() if l.strip().startswith("/*") and "*/" in l and ";" in l)
    print(f"SASS {tag}: {n} instructions")
for c in glob.glob(os.path.expanduser("~/.triton/cache/**/triton_per_fused_native_layer_norm_0.cubin"), recursive=True)[:2]:
    s = subprocess.run(["cuobjdump", "-sass", c], capture_output=True, text=True).stdout
    open(os.path.join(o, "sass_inductor_" + os.path.basename(os.path.dirname(c))[:8] + ".txt"), "w").write(s)
    n = sum(1 for l in s.splitlines() if l.strip().startswith("/*") and "*/" in l and ";" in l)
    print(f"SASS inductor {c[-60:]}: {n} instructions")
