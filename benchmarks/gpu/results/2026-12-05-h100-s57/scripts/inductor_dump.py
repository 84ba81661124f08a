#!/usr/bin/env python3
"""s57: Inductor's generated Triton for the rows where torch.compile leads tessel.ops
(add_rms_norm 16384x4096 and 4096x16384, rms_norm 32768x1000, RoPE), with each compiled
kernel's launch config (num_warps, XBLOCK/R0_BLOCK) from its autotuning; and their do_bench."""
import logging, os, sys, io
import torch, torch.nn.functional as F, triton.testing as tt
buf = io.StringIO()
h = logging.StreamHandler(buf)
torch._logging.set_logs(output_code=True)
for name in ("torch._inductor.codecache", "torch._inductor.graph", "torch._inductor", "torch._inductor.output_code"):
    logging.getLogger(name).addHandler(h)
os.environ.setdefault("TORCHINDUCTOR_CACHE_DIR", "/tmp/ind_cache")
bf = torch.bfloat16
res = []
for M, N in ((16384, 4096), (4096, 16384), (32768, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=bf); r = torch.randn_like(x)
    w = (torch.rand(N, device="cuda") + 0.5).to(bf)
    f = torch.compile(lambda x, r, w: (F.rms_norm(x + r, (N,), w, 1e-6), x + r))
    g = torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))
    with torch.no_grad():
        res.append((f"add_rms {M}x{N}", tt.do_bench(lambda: f(x, r, w), warmup=25, rep=200, return_mode="median")))
        res.append((f"rms {M}x{N}", tt.do_bench(lambda: g(x, w), warmup=25, rep=200, return_mode="median")))
B, HQ, HK, S, D = 8, 32, 8, 4096, 128
q = torch.randn(B, HQ, S, D, device="cuda", dtype=bf); k = torch.randn(B, HK, S, D, device="cuda", dtype=bf)
ang = torch.arange(S, device="cuda")[:, None] * (1e4 ** (-torch.arange(0, D, 2, device="cuda") / D))
ang = torch.cat([ang, ang], -1)[None]
cos, sin = ang.cos().to(bf), ang.sin().to(bf)
def eager_rope(q, k):
    rot = lambda x: torch.cat([-x[..., D // 2:], x[..., :D // 2]], -1)
    c, s_ = cos[:, None], sin[:, None]
    return q * c + rot(q) * s_, k * c + rot(k) * s_
fr = torch.compile(eager_rope)
with torch.no_grad():
    res.append(("rope", tt.do_bench(lambda: fr(q, k), warmup=25, rep=200, return_mode="median")))
for n, ms in res:
    print(f"{n}: {ms*1e3:.1f} us")
text = buf.getvalue()
open(os.path.join(os.environ.get("OUT", "."), "inductor_code.txt"), "w").write(text)
# The kernels' bodies and decorators only.
keep, out = False, []
for line in text.splitlines():
    if "@triton_heuristics" in line or "@triton.jit" in line:
        keep = True
    if keep:
        out.append(line)
    if keep and line.strip().startswith("''', device_str"):
        keep = False; out.append("----")
print("\n".join(out)[:20000])
try:
    from torch._inductor.codecache import PyCodeCache
    mods = PyCodeCache.modules if isinstance(PyCodeCache.modules, list) else list(PyCodeCache.modules.values())
    for mod in mods:
        for k, v in vars(mod).items():
            ls = getattr(v, "launchers", None)
            if ls:
                print(f"{k}: {[str(getattr(l, 'config', l)) for l in ls]}")
except Exception as e:
    print("no launcher configs:", e)
