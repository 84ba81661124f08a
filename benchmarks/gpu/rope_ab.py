"""rope_ab.py (in a directory made by prepare.sh, on a GPU machine; TESSEL_TUNING_CACHE and
TESSEL_KERNEL_PATH may name tessel-tune-gpu's entries and variants for both kernels):
tessel.ops.rope on Hugging Face's layout at DESIGN.md's shape, flat (rope_flat: bf16 tables as
given, q's and k's launches) against blocks of tokens (rope_seq_out: f32 tables made once),
eager and torch.compile; forward and forward + backward, do_bench medians (as torch_ops.py),
three rounds in rotated order; each Tessel path verified first against float64."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch, triton
from tessel import ops, _rope, kernels

torch.manual_seed(0)
dev, bf = "cuda", torch.bfloat16
B, HQ, HK, S, D = 8, 32, 8, 4096, 128
q = torch.randn(B, HQ, S, D, device=dev, dtype=bf, requires_grad=True)
k = torch.randn(B, HK, S, D, device=dev, dtype=bf, requires_grad=True)
ang = torch.arange(S, device=dev)[:, None] * (1e4 ** (-torch.arange(0, D, 2, device=dev) / D))
ang = torch.cat([ang, ang], -1)[None]
cos, sin = ang.cos().to(bf), ang.sin().to(bf)


def eager(q, k):
    rot = lambda x: torch.cat([-x[..., D // 2:], x[..., :D // 2]], -1)
    c, s_ = cos[:, None], sin[:, None]
    return q * c + rot(q) * s_, k * c + rot(k) * s_


compiled = torch.compile(eager)
flat_fn = _rope._rope_flat


def mode(flat):
    _rope._rope_flat = flat_fn if flat else (lambda *a: None)


def tessel(q, k):
    return ops.rope(q, k, cos, sin)


launched = []
real_launch = kernels.launch
def spy(v, *a):
    launched.append(v.name)
    return real_launch(v, *a)

# Verify both paths (outputs and gradients) against float64.
qd, kd = (t.detach().double().requires_grad_() for t in (q, k))
rot = lambda x: torch.cat([-x[..., D // 2:], x[..., :D // 2]], -1)
c64, s64 = cos.double()[:, None], sin.double()[:, None]
rq, rk = qd * c64 + rot(qd) * s64, kd * c64 + rot(kd) * s64
gq, gk = torch.randn_like(rq), torch.randn_like(rk)
torch.autograd.backward([rq, rk], [gq, gk])
for flat in (True, False):
    mode(flat)
    kernels.launch = spy
    launched.clear()
    q.grad = k.grad = None
    oq, ok = tessel(q, k)
    torch.autograd.backward([oq, ok], [gq.to(bf), gk.to(bf)])
    torch.cuda.synchronize()
    kernels.launch = real_launch
    for name, o, r in (("q", oq, rq), ("k", ok, rk), ("dq", q.grad, qd.grad), ("dk", k.grad, kd.grad)):
        e = ((o.double() - r.detach()).norm() / r.detach().norm()).item()
        ok_ = e < 1e-2 and torch.isfinite(o).all().item()
        print(f"verify {'flat' if flat else 'seq_out'} {name}: rel_err {e:.2e} {'PASS' if ok_ else 'FAIL'}")
    print(f"  launched: {sorted(set(launched))}")

nbytes = 2 * (q.numel() + k.numel()) * 2
dq, dk = torch.randn_like(q), torch.randn_like(k)
def fb(fn):
    def step():
        q.grad = k.grad = None
        o = fn(q, k)
        torch.autograd.backward(list(o), [dq, dk])
    return step
impls = [("tessel flat", True, tessel), ("tessel seq_out", False, tessel), ("eager", None, eager),
         ("compile", None, compiled)]
res = {n: {"fwd": [], "fb": []} for n, _, _ in impls}
for rnd in range(3):
    order = impls[rnd % 4:] + impls[:rnd % 4]
    for name, flat, fn in order:
        if flat is not None:
            mode(flat)
        with torch.no_grad():
            res[name]["fwd"].append(triton.testing.do_bench(lambda: fn(q, k), warmup=25, rep=200, return_mode="median"))
        res[name]["fb"].append(triton.testing.do_bench(fb(fn), warmup=25, rep=200, return_mode="median"))
mode(True)
print(f"{'impl':16s} {'fwd us (3 rounds)':>30s} {'GB/s':>6s}  {'fwd+bwd us':>30s}")
for name, _, _ in impls:
    f, b = res[name]["fwd"], res[name]["fb"]
    print(f"{name:16s} {' '.join(f'{x*1e3:8.1f}' for x in f):>30s} {nbytes / min(f) / 1e6:6.0f}  {' '.join(f'{x*1e3:8.1f}' for x in b):>30s}")
best = lambda n, key: min(res[n][key])
for key in ("fwd", "fb"):
    print(f"{key}: compile/flat {best('compile', key) / best('tessel flat', key):.3f}  "
          f"compile/seq_out {best('compile', key) / best('tessel seq_out', key):.3f}  "
          f"seq_out/flat {best('tessel seq_out', key) / best('tessel flat', key):.3f}")
