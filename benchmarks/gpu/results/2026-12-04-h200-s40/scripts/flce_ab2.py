#!/usr/bin/env python3
"""Session 40 call 2: fused linear cross-entropy end to end in interleaved rounds (an L2
flush, then device events around one forward+backward; flce_rounds.py's method): this
session's library (kernels/: the window GEMM's epilogue in the accumulator's layout, grad_weight
on gemm_block_ptr's __tn twin, the window width by waves) against session 39's (old/: its
kernels, the widest window) and Liger-Kernel. Gradients of both against each other and Liger's."""
import os, statistics, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
new, old = os.path.join(here, "kernels"), os.path.join(here, "old")
os.environ["TESSEL_KERNEL_PATH"] = new
import torch
from tessel import kernels as K, torch_ops as ops, _linear_cross_entropy as L
from liger_kernel.ops.fused_linear_cross_entropy import LigerFusedLinearCrossEntropyFunction as LF
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
H, V = 4096, 128256
flush = torch.empty(256 * 2**20, dtype=torch.int8, device="cuda")
model_cols = L._flce_window_cols
def setup(name):
    os.environ["TESSEL_KERNEL_PATH"] = old if name == "session 39" else new
    K._index = None; K._chosen.clear()
    L._flce_window_cols = (lambda rows, h, v, widest, *a: widest) if name == "session 39" else model_cols
for BT in (8192, 4096):
    torch.manual_seed(0)
    h = torch.randn(BT, H, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    W = (torch.randn(V, H, device="cuda", dtype=torch.bfloat16) * 0.02).requires_grad_()
    y = torch.randint(0, V, (BT,), device="cuda")
    y[::7] = -100
    def liger():
        out = LF.apply(h, W, y)
        return out[0] if isinstance(out, tuple) else out
    tes = lambda: ops.fused_linear_cross_entropy(h, W, y)
    def step(fn):
        h.grad = W.grad = None
        fn().backward()
    grads = {}
    for name in ("tessel", "session 39", "liger"):
        if name != "liger":
            setup(name)
        step(liger if name == "liger" else tes); torch.cuda.synchronize()
        grads[name] = (h.grad.float().clone(), W.grad.float().clone())
    # float64 reference on a slice of rows would need the full logits: compare the three.
    for a, b in (("tessel", "session 39"), ("tessel", "liger")):
        e = [((x - y_).norm() / y_.norm()).item() for x, y_ in zip(grads[a], grads[b])]
        print(f"{BT}: {a} vs {b}: grad_x rel {e[0]:.2e}, grad_w rel {e[1]:.2e}", flush=True)
    del grads
    times = {"tessel": [], "session 39": [], "liger": []}
    for r in range(rounds):
        for name in times:
            if name != "liger":
                setup(name); step(tes)
            fn = liger if name == "liger" else tes
            flush.zero_(); torch.cuda.synchronize()
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record(); step(fn); b.record(); torch.cuda.synchronize()
            times[name].append(a.elapsed_time(b))
    for name, t in times.items():
        print(f"{BT}x{H}x{V} {name:12s} median {statistics.median(t):7.2f} ms  rounds "
              + " ".join(f"{x:.2f}" for x in t), flush=True)
    setup("tessel")
    print(f"{BT}: window width {L._flce_window_cols(BT, H, V, L._flce_vocab_cols(BT, V, L._flce_chunk_rows(BT, H, V) * V), (128, 256), (128, 256), 132)}")
    del h, W, y; torch.cuda.empty_cache()
