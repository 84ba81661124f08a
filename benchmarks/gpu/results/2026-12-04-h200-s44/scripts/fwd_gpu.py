"""Forward rows below torch.compile by do_bench: each one's GPU time (kernel durations,
torch.profiler, sum over 20 calls / 20) beside torch.compile's and Liger's, bf16."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch, torch.nn.functional as F
from torch.profiler import profile, ProfilerActivity
from tessel import ops
try:
    from liger_kernel.ops.layer_norm import LigerLayerNormFunction
    from liger_kernel.ops.rms_norm import LigerRMSNormFunction
except Exception:
    LigerLayerNormFunction = LigerRMSNormFunction = None

def gpu_us(fn, n=20):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(n): fn()
        torch.cuda.synchronize()
    return sum(e.self_device_time_total for e in prof.key_averages()
               if e.device_type == torch.autograd.DeviceType.CUDA) / n

for M, N in ((32768, 1000), (16384, 4096), (4096, 16384)):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    r = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.rand(N, device="cuda", dtype=torch.bfloat16) + 0.5
    b = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    ln_c = torch.compile(lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5))
    add_c = torch.compile(lambda x, r, w: (F.rms_norm(x + r, (N,), w, 1e-6), x + r))
    rms_c = torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))
    with torch.no_grad():
        rows = {
            "layer_norm": {"tessel": lambda: ops.layer_norm(x, w, b), "compile": lambda: ln_c(x, w, b)},
            "rms_norm": {"tessel": lambda: ops.rms_norm(x, w), "compile": lambda: rms_c(x, w)},
            "add_rms_norm": {"tessel": lambda: ops.rms_norm(x, w, residual=r), "compile": lambda: add_c(x, r, w)},
        }
        for op, impls in rows.items():
            t = {k: gpu_us(f) for k, f in impls.items()}
            print(f"{op:13s} {M}x{N:<6d} GPU us: tessel {t['tessel']:7.1f}  compile {t['compile']:7.1f}  "
                  f"tessel/compile speed {t['compile'] / t['tessel']:.3f}", flush=True)
