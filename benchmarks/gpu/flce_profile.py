#!/usr/bin/env python3
"""flce_profile.py (in a directory made by prepare.sh, on a GPU machine): where fused linear
cross-entropy's time and memory go, Tessel's against Liger-Kernel's, at (BT, H, V) = (8192, 4096,
128256) in bf16: the CUDA kernels of one forward+backward by total device time (torch.profiler),
the memory allocated after each step of the measurement torch_ops.py makes, and the host's
share: the time to queue a forward against the time until the GPU has run it (a forward that
waits for the GPU inside queues as long as it runs), then the forward's profile by Python
function (cProfile)."""
import cProfile, os, pstats, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
from torch.profiler import ProfilerActivity, profile
from tessel import ops

try:
    from liger_kernel.ops.fused_linear_cross_entropy import LigerFusedLinearCrossEntropyFunction
except Exception:
    LigerFusedLinearCrossEntropyFunction = None

BT, H, V = (int(a) for a in (sys.argv[1:4] if len(sys.argv) > 3 else (8192, 4096, 128256)))
dev, bf = "cuda", torch.bfloat16
h = torch.randn(BT, H, device=dev, dtype=bf, requires_grad=True)
W = (torch.randn(V, H, device=dev, dtype=bf) * 0.02).requires_grad_()
y = torch.randint(0, V, (BT,), device=dev)
impls = {"tessel": lambda: ops.fused_linear_cross_entropy(h, W, y)}
if LigerFusedLinearCrossEntropyFunction:
    impls["liger"] = lambda: LigerFusedLinearCrossEntropyFunction.apply(h, W, y)
gib = lambda: torch.cuda.memory_allocated() / 2**30
for name, fn in impls.items():
    for _ in range(2):  # warm: kernels loaded, tensor maps uploaded
        h.grad = W.grad = None
        loss = fn()
        (loss[0] if isinstance(loss, tuple) else loss).backward()
    torch.cuda.synchronize()
    trace = [f"start {gib():.2f}"]
    h.grad = W.grad = None
    trace.append(f"grads freed {gib():.2f}")
    torch.cuda.reset_peak_memory_stats()
    loss = fn()
    loss = loss[0] if isinstance(loss, tuple) else loss
    torch.cuda.synchronize()
    trace.append(f"forward {gib():.2f} (peak {torch.cuda.max_memory_allocated() / 2**30:.2f})")
    loss.backward()
    torch.cuda.synchronize()
    trace.append(f"backward {gib():.2f} (peak {torch.cuda.max_memory_allocated() / 2**30:.2f})")
    print(f"{name}: memory GiB: " + ", ".join(trace))
    h.grad = W.grad = None
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        loss = fn()
        (loss[0] if isinstance(loss, tuple) else loss).backward()
        torch.cuda.synchronize()
    print(f"{name}: kernels by device time")
    print(prof.key_averages().table(sort_by="cuda_time_total", row_limit=12,
                                    max_name_column_width=90))
    # The host: a forward queued from an idle GPU (Tessel's computes the gradients too).
    for _ in range(3):
        h.grad = W.grad = None
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        loss = fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        t2 = time.perf_counter()
        print(f"{name}: forward queued in {(t1 - t0) * 1e3:.2f} ms, run by {(t2 - t0) * 1e3:.2f} ms")
    prof = cProfile.Profile()
    torch.cuda.synchronize()
    prof.enable()
    loss = fn()
    prof.disable()
    torch.cuda.synchronize()
    print(f"{name}: the forward's host time by function (cProfile, cumulative)")
    pstats.Stats(prof, stream=sys.stdout).sort_stats("cumulative").print_stats(14)
