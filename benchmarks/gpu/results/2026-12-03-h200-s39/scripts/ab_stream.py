#!/usr/bin/env python3
"""ab_stream.py (session 39): the streaming forward ops on the library's kernels ("lib") and on
copies whose streaming loads ("L"), or loads and stores ("LS"), carry evict_first (L1 and L2),
beside torch.compile, alternately in one process: rounds of the median of 25 calls after an L2
flush, between device events. Each op's output checked against float64 first; then, per kernel
directory, every add_rmsnorm_out / layernorm variant whose BLOCK is the row's bucket, launched
directly."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
import torch
import torch.nn.functional as F
from tessel import kernels as K, ops

ROUNDS = int(os.environ.get("ROUNDS", "4"))
dirs = {"lib": "kernels", "L": "kernels_L:kernels", "LS": "kernels_LS:kernels"}
flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
bf = torch.bfloat16

def use(name):
    os.environ["TESSEL_KERNEL_PATH"] = ":".join(os.path.join(here, d) for d in dirs[name].split(":"))
    K._index = None
    K._chosen.clear()

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

def rel(out, ref):
    return ((out.double() - ref).norm() / ref.norm()).item()

cases = []  # (name, tessel fn, compiled fn, reference fn -> (out, ref) pairs)
for M, N in ((16384, 4096), (4096, 16384), (32768, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=bf)
    r = torch.randn(M, N, device="cuda", dtype=bf)
    w = (torch.rand(N, device="cuda") + 0.5).to(bf)
    b = torch.randn(N, device="cuda", dtype=bf)
    add = lambda x, r, w, N=N: (F.rms_norm(x + r, (N,), w, 1e-6), x + r)
    ln = lambda x, w, b, N=N: F.layer_norm(x, (N,), w, b, 1e-5)
    rn = lambda x, w, N=N: F.rms_norm(x, (N,), w, 1e-6)
    cases.append((f"add_rms_norm {M}x{N}", lambda x=x, r=r, w=w: ops.rms_norm(x, w, residual=r),
                  (lambda f: (lambda x=x, r=r, w=w: f(x, r, w)))(torch.compile(add)),
                  lambda x=x, r=r, w=w, N=N: [(ops.rms_norm(x, w, residual=r)[0],
                                               F.rms_norm(x.double() + r.double(), (N,), w.double(), 1e-6))]))
    cases.append((f"layer_norm {M}x{N}", lambda x=x, w=w, b=b: ops.layer_norm(x, w, b),
                  (lambda f: (lambda x=x, w=w, b=b: f(x, w, b)))(torch.compile(ln)),
                  lambda x=x, w=w, b=b, N=N: [(ops.layer_norm(x, w, b),
                                               F.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5))]))
    cases.append((f"rms_norm {M}x{N}", lambda x=x, w=w: ops.rms_norm(x, w),
                  (lambda f: (lambda x=x, w=w: f(x, w)))(torch.compile(rn)),
                  lambda x=x, w=w, N=N: [(ops.rms_norm(x, w), F.rms_norm(x.double(), (N,), w.double(), 1e-6))]))
g = torch.randn(16384, 14336, device="cuda", dtype=bf)
u = torch.randn_like(g)
sw = lambda g, u: F.silu(g) * u
gg = lambda g, u: F.gelu(g, approximate="tanh") * u
cases.append(("swiglu 16384x14336", lambda: ops.swiglu(g, u), (lambda f: lambda: f(g, u))(torch.compile(sw)),
              lambda: [(ops.swiglu(g, u), F.silu(g.double()) * u.double())]))
cases.append(("geglu 16384x14336", lambda: ops.geglu(g, u, "tanh"), (lambda f: lambda: f(g, u))(torch.compile(gg)),
              lambda: [(ops.geglu(g, u, "tanh"), F.gelu(g.double(), approximate="tanh") * u.double())]))
B, HQ, HK, S, D = 8, 32, 8, 4096, 128
q = torch.randn(B, HQ, S, D, device="cuda", dtype=bf)
k = torch.randn(B, HK, S, D, device="cuda", dtype=bf)
ang = torch.arange(S, device="cuda")[:, None] * (1e4 ** (-torch.arange(0, D, 2, device="cuda") / D))
ang = torch.cat([ang, ang], -1)[None]
cos, sin = ang.cos().to(bf), ang.sin().to(bf)
def eager_rope(q, k, cos=cos, sin=sin):
    rot = lambda x: torch.cat([-x[..., D // 2:], x[..., :D // 2]], -1)
    c, s_ = cos[:, None], sin[:, None]
    return q * c + rot(q) * s_, k * c + rot(k) * s_
def rope_ref():
    qo, ko = ops.rope(q, k, cos, sin)
    rq, rk = eager_rope(q.double(), k.double(), cos.double(), sin.double())
    return [(qo, rq), (ko, rk)]
cases.append(("rope B8 S4096 H32/8 D128", lambda: ops.rope(q, k, cos, sin),
              (lambda f: lambda: f(q, k))(torch.compile(eager_rope)), rope_ref))

failed = 0
for name in dirs:
    use(name)
    for op, fn, _, ref in cases:
        for out, want in ref():
            e = rel(out, want)
            ok = bool(torch.isfinite(out).all()) and e < 1e-2
            failed += not ok
            if not ok or name == "lib":
                print(f"check {name:3s} {op:26s} rel err {e:.2e} {'PASS' if ok else 'FAIL'}", flush=True)
print(f"checks: {failed} failed", flush=True)

res = {}
for rnd in range(ROUNDS):
    for op, fn, comp, _ in cases:
        res.setdefault((op, "compile"), []).append(time_us(comp))
        for name in dirs:
            use(name)
            res.setdefault((op, name), []).append(time_us(fn))
    print(f"round {rnd} done", flush=True)

# Every variant whose BLOCK is the row's bucket, launched directly, per directory.
sweep = {}
for M, N in ((16384, 4096), (4096, 16384), (32768, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=bf); r = torch.randn_like(x)
    w = (torch.rand(N, device="cuda") + 0.5).to(bf); b = torch.randn(N, device="cuda", dtype=bf)
    out, s = torch.empty_like(x), torch.empty_like(x)
    bucket = 1 << (N - 1).bit_length()
    for rnd in range(2):
        for name in dirs:
            use(name)
            for v in K.variants("add_rmsnorm_out", "bf16", "cuda"):
                if v.config["BLOCK"] == bucket:
                    t = time_us(lambda: K.launch(v, M, out, s, x, r, w, N, N, 1e-6))
                    sweep.setdefault((f"add_rmsnorm_out {M}x{N}", name, v.name), []).append(t)
            for v in K.variants("layernorm", "bf16", "cuda"):
                if v.config["BLOCK"] == bucket:
                    t = time_us(lambda: K.launch(v, M, out, x, w, b, N, N, 1e-5))
                    sweep.setdefault((f"layernorm {M}x{N}", name, v.name), []).append(t)

print("\nop                         compile      lib        L       LS   (median of rounds, us; lib/L/LS x = compile / it)")
for op, *_ in cases:
    c = statistics.median(res[(op, "compile")])
    row = f"{op:26s} {c:8.1f}"
    for name in dirs:
        t = statistics.median(res[(op, name)])
        row += f" {t:8.1f} ({c / t:.3f}x)"
    print(row)
print("\nvariant sweep (median of 2 rounds, us)")
for (op, name, v), t in sorted(sweep.items(), key=lambda kv: (kv[0][0], statistics.median(kv[1]))):
    print(f"  {op:24s} {name:3s} {statistics.median(t):8.1f}  {v}")
