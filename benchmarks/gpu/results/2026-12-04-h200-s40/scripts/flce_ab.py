#!/usr/bin/env python3
"""Session 40: fused linear cross-entropy end to end, in interleaved rounds (flce_rounds.py's
method: an L2 flush, then device events around one forward+backward), for variants of the
op's choices against Liger-Kernel: the backward's window width (cols) and the window GEMM's
build (extra_gce: label and lse loaded before the K loop). Gradients checked against the
default's first."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
base = os.path.join(here, "kernels")
os.environ["TESSEL_KERNEL_PATH"] = base
import torch
from tessel import kernels as K, torch_ops as ops, _linear_cross_entropy as L
from liger_kernel.ops.fused_linear_cross_entropy import LigerFusedLinearCrossEntropyFunction as LF
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
H, V = 4096, 128256
flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
orig_cols = L._flce_vocab_cols
def setup(path, cols):
    os.environ["TESSEL_KERNEL_PATH"] = path
    K._index = None; K._chosen.clear()
    L._flce_vocab_cols = (lambda r, v, b: cols) if cols else orig_cols
for BT in (8192, 4096):
    torch.manual_seed(0)
    h = torch.randn(BT, H, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    W = (torch.randn(V, H, device="cuda", dtype=torch.bfloat16) * 0.02).requires_grad_()
    y = torch.randint(0, V, (BT,), device="cuda")
    y[::7] = -100
    def step(fn):
        h.grad = W.grad = None
        fn().backward()
    def liger():
        out = LF.apply(h, W, y)
        return out[0] if isinstance(out, tuple) else out
    tes = lambda: ops.fused_linear_cross_entropy(h, W, y)
    configs = {"tessel": (base, None), "tessel cols 3072": (base, 3072),
               "tessel cols 2048": (base, 2048),
               "tessel 3072 + hoisted": (os.path.join(here, "extra_gce") + ":" + base, 3072),
               "tessel 3968 + hoisted": (os.path.join(here, "extra_gce") + ":" + base, None)}
    ref = None
    for name, (p, c) in configs.items():
        setup(p, c)
        step(tes); torch.cuda.synchronize()
        got = (h.grad.float().clone(), W.grad.float().clone())
        if ref is None:
            ref = got
            # against Liger's
            step(liger)
            lg = (h.grad.float(), W.grad.float())
            e = [((a - b).norm() / b.norm()).item() for a, b in zip(ref, lg)]
            print(f"{BT}: tessel vs liger grads rel err {e[0]:.2e} {e[1]:.2e}")
        else:
            e = [((a - b).norm() / b.norm()).item() for a, b in zip(got, ref)]
            print(f"{BT}: {name} vs tessel grads rel err {e[0]:.2e} {e[1]:.2e}", flush=True)
    times = {k: [] for k in list(configs) + ["liger"]}
    for r in range(rounds):
        for name in times:
            if name == "liger":
                fn = liger
            else:
                setup(*configs[name]); fn = tes
                step(fn)  # the choice made and cached before the timed step
            flush.zero_(); torch.cuda.synchronize()
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); step(fn); b.record(); torch.cuda.synchronize()
            times[name].append(a.elapsed_time(b))
    for name, t in times.items():
        print(f"{BT}x{H}x{V} {name:24s} median {statistics.median(t):7.2f} ms  rounds "
              + " ".join(f"{x:.2f}" for x in t), flush=True)
    del h, W, y; torch.cuda.empty_cache()
