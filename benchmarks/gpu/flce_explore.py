#!/usr/bin/env python3
"""flce_explore.py (in a directory made by prepare.sh, on a GPU machine): each product and
kernel of fused linear cross-entropy at (BT, H, V) = (8192, 4096, 128256), bf16, over every
compiled variant that can run it, beside cuBLAS on the same product: which tile and which
schedule each step should take. Each variant is checked against torch (relative Frobenius
error of its output, NaN-poisoned first) before it is timed: the median of `reps` launches,
each after an L2 flush, between device events (ms).

  logits   x_c (256, H) @ W^T             gemm_block_ptr / gemm (__nt)
  grad_x   dlogits (256, V) @ W           gemm_split_k at 1-4 slices, gemm_block_ptr (__nn)
  window   x (BT, H) @ W_c^T -> dlogits   gemm_ce_backward (__nt), per window width (cols)
  grad_w   dlogits_c^T (cols, BT) @ x     gemm / gemm_block_ptr (__tn)
  ce       cross_entropy_fused on (256, V) in place

usage: flce_explore.py [--kernels DIR ...] [--cols 3968,3072] [--reps N]
DIR: directories searched before the staged kernels (the first wins; a second gemm_ce_backward
build is timed as `DIR:variant` when --alt DIR names it)."""
import argparse, os, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
ap = argparse.ArgumentParser()
ap.add_argument("--kernels", action="append", default=[], type=os.path.abspath)
ap.add_argument("--alt", action="append", default=[], type=os.path.abspath,
                help="a directory whose gemm_ce_backward variants are timed beside the staged ones")
ap.add_argument("--cols", default="3968,3072")
ap.add_argument("--reps", type=int, default=15)
args = ap.parse_args()
base_path = args.kernels + [os.path.join(here, "kernels")]
os.environ["TESSEL_KERNEL_PATH"] = ":".join(base_path)
import torch
from tessel import kernels as K
from tessel import _linear_cross_entropy as L

dev, bf = "cuda", torch.bfloat16
BT, H, V, CH = 8192, 4096, 128256, 256
torch.manual_seed(0)
x = torch.randn(BT, H, device=dev, dtype=bf)
W = (torch.randn(V, H, device=dev, dtype=bf) * 0.02)
t = torch.randint(0, V, (BT,), device=dev)
flush = torch.empty(256 * 2**20, dtype=torch.int8, device=dev)
sms = torch.cuda.get_device_properties(0).multi_processor_count
rows = []


def timed(fn, reps=args.reps):
    fn()
    ts = []
    for _ in range(reps):
        flush.zero_()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record(); fn(); b.record()
        torch.cuda.synchronize()
        ts.append(a.elapsed_time(b))
    return statistics.median(ts)


def rel(out, ref):
    out, ref = out.double(), ref.double()
    if not torch.isfinite(out).all():
        return float("nan")
    return ((out - ref).norm() / ref.norm()).item()


def report(step, shape, name, ms, err, flops=None, tol=2e-2):
    ok = err == err and err < tol
    tf = f"{flops / ms / 1e9:6.1f}" if flops else "     -"
    rows.append((step, shape, name, ms, ok))
    print(f"{step:7s} {shape:22s} {ms:8.4f} ms {tf} TFLOP/s  err {err:.2e} "
          f"{'PASS' if ok else 'FAIL'}  {name}", flush=True)


def plain(v):
    c = v.config
    return not c.get("HAS_BIAS") and c.get("ACT", "none") == "none"


def twins(kernel, layout):
    return [v for v in K.variants(kernel, "bf16", dev)
            if plain(v) and any(tw.name == f"{v.name}__{layout}" for tw in v.twins)]


def short(v):
    c = v.config
    s = f"{v.kernel} {c['BLOCK_M']}x{c['BLOCK_N']}x{c['BLOCK_K']} w{c['num_warps']} s{c['num_stages']}"
    return s + (" ws" if c.get("warp_specialize") else "")


# logits: (256, V) = x_c @ W^T
xc = x[:CH].contiguous()
ref = (xc.float() @ W.float().T)
out = torch.empty(CH, V, device=dev, dtype=bf)
fl = 2 * CH * V * H
report("logits", f"{CH}x{V}x{H}", "cuBLAS", timed(lambda: torch.matmul(xc, W.T, out=out)),
       rel(out, ref), fl)
for v in twins("gemm_block_ptr", "nt") + twins("gemm", "nt"):
    out.fill_(float("nan"))
    f = lambda: L._matmul(v, xc, W, out, CH, V, H, (H, 1), (1, H), (V, 1))
    f(); torch.cuda.synchronize()
    err = rel(out, ref)
    report("logits", f"{CH}x{V}x{H}", short(v), timed(f) if err < 2e-2 else float("nan"), err, fl)
lg = out.clone()
del ref

# grad_x: (256, H) = dlogits (256, V) @ W, K = V
d = (torch.softmax(lg.float(), 1) * 0.001).to(bf)
ref = d.float() @ W.float()
gx = torch.empty(CH, H, device=dev, dtype=bf)
report("grad_x", f"{CH}x{H}x{V}", "cuBLAS", timed(lambda: torch.matmul(d, W, out=gx)),
       rel(gx, ref), fl)
for v in twins("gemm_split_k", "nn"):
    for splits in (1, 2, 3, 4):
        sk = L._SplitK(v, x, CH, H, V, splits * L._tiles(v, CH, H))
        if sk.splits != splits:
            continue
        gx.fill_(float("nan"))
        f = lambda: sk(d, W, gx, CH, H, V, (V, 1), (H, 1), (H, 1))
        f(); torch.cuda.synchronize()
        err = rel(gx, ref)
        report("grad_x", f"{CH}x{H}x{V}", f"{short(v)} split {splits}",
               timed(f) if err < 2e-2 else float("nan"), err, fl)
for v in twins("gemm_block_ptr", "nn"):
    gx.fill_(float("nan"))
    f = lambda: L._matmul(v, d, W, gx, CH, H, V, (V, 1), (H, 1), (H, 1))
    f(); torch.cuda.synchronize()
    err = rel(gx, ref)
    report("grad_x", f"{CH}x{H}x{V}", short(v), timed(f) if err < 2e-2 else float("nan"), err, fl)
del d, ref, gx

# ce: cross_entropy_fused on the chunk's logits, in place
loss = torch.empty(CH, device=dev, dtype=torch.float32)
lse = torch.empty(CH, device=dev, dtype=torch.float32)
g = torch.full((1,), 1.0 / BT, device=dev, dtype=torch.float32)
tc = t[:CH].contiguous()
ref_lse = torch.logsumexp(lg.float(), 1)
ref_loss = ref_lse - lg.float().gather(1, tc[:, None])[:, 0]
for v in K.variants("cross_entropy_fused", "bf16", dev):
    buf = lg.clone()
    loss.fill_(float("nan"))
    K.launch(v, CH, loss, lse, buf, buf, tc, g, V, V, V, -100, 0.0, 0.0)
    torch.cuda.synchronize()
    err = max(rel(loss, ref_loss), rel(lse, ref_lse))
    f = lambda: K.launch(v, CH, loss, lse, buf, buf, tc, g, V, V, V, -100, 0.0, 0.0)
    report("ce", f"{CH}x{V}", f"cross_entropy_fused BLOCK {v.config['BLOCK']} "
           f"w{v.config['num_warps']}", timed(f), err, tol=1e-4)
del buf

# window and grad_w, per window width
lse_all = torch.logsumexp((x.float() @ W[:1024].float().T), 1)  # any lse: the math is checked
for cols in (int(c) for c in args.cols.split(",")):
    wc = W[:cols]
    win = torch.empty(BT, cols, device=dev, dtype=bf)
    logit = x.float() @ wc.float().T
    onehot = torch.zeros_like(logit)
    hit = t < cols
    onehot[hit.nonzero()[:, 0], t[hit]] = 1.0
    ref = (torch.exp(logit - lse_all[:, None]) - onehot) * g[0]
    del logit, onehot
    flw = 2 * BT * cols * H
    report("window", f"{BT}x{cols}x{H}", "cuBLAS (the logits alone)",
           timed(lambda: torch.matmul(x, wc.T, out=win)), 0.0, flw)
    dirs = [None] + args.alt
    for alt in dirs:
        if alt:
            os.environ["TESSEL_KERNEL_PATH"] = ":".join([alt] + base_path)
        K._index = None
        K._chosen.clear()
        for v in twins("gemm_ce_backward", "nt"):
            if alt and not os.path.abspath(v.path).startswith(alt + os.sep):
                continue
            win.fill_(float("nan"))
            f = lambda: K.launch(v, L._tiles(v, BT, cols), x, wc, win, t, lse_all, g, BT, cols,
                                 H, 0, -100, H, 1, 1, H, cols, 1)
            f(); torch.cuda.synchronize()
            err = rel(win, ref)
            report("window", f"{BT}x{cols}x{H}", (f"{os.path.basename(alt)}:" if alt else "")
                   + short(v), timed(f) if err < 2e-2 else float("nan"), err, flw)
    os.environ["TESSEL_KERNEL_PATH"] = ":".join(base_path)
    K._index = None
    K._chosen.clear()
    del ref
    # The same product without the epilogue: what the gradient's epilogue costs.
    ref = x.float() @ wc.float().T
    for v in twins("gemm_block_ptr", "nt"):
        if (v.config["BLOCK_M"], v.config["BLOCK_N"]) != (128, 256):
            continue
        win.fill_(float("nan"))
        f = lambda: L._matmul(v, x, wc, win, BT, cols, H, (H, 1), (1, H), (cols, 1))
        f(); torch.cuda.synchronize()
        err = rel(win, ref)
        report("logits", f"{BT}x{cols}x{H}", short(v), timed(f) if err < 2e-2 else float("nan"),
               err, flw)
    del ref
    # grad_w[c] (cols, H) = win^T @ x, K = BT
    win.copy_((torch.randn(BT, cols, device=dev) * 1e-3).to(bf))
    ref = win.float().T @ x.float()
    gw = torch.empty(cols, H, device=dev, dtype=bf)
    report("grad_w", f"{cols}x{H}x{BT}", "cuBLAS", timed(lambda: torch.matmul(win.T, x, out=gw)),
           rel(gw, ref), flw)
    for v in twins("gemm_block_ptr", "tn") + twins("gemm", "tn"):
        gw.fill_(float("nan"))
        f = lambda: L._matmul(v, win, x, gw, cols, H, BT, (1, cols), (H, 1), (H, 1))
        f(); torch.cuda.synchronize()
        err = rel(gw, ref)
        report("grad_w", f"{cols}x{H}x{BT}", short(v), timed(f) if err < 2e-2 else float("nan"),
               err, flw)
    del win, ref, gw

print("\nfastest per step and shape (ms):")
best = {}
for step, shape, name, ms, ok in rows:
    if ok and ms == ms and (not name.startswith("cuBLAS")):
        if (step, shape) not in best or ms < best[(step, shape)][0]:
            best[(step, shape)] = (ms, name)
cub = {(s, sh): ms for s, sh, n, ms, ok in rows if n.startswith("cuBLAS")}
for (step, shape), (ms, name) in best.items():
    c = cub.get((step, shape))
    print(f"  {step:7s} {shape:22s} {ms:8.4f}  cuBLAS {c if c is None else f'{c:8.4f}'}  {name}")
print(f"{sum(1 for r in rows if not r[4])} failed of {len(rows)}")
