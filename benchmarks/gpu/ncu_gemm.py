#!/usr/bin/env python3
"""ncu_gemm.py LIB MxNxK [--bT] [--dtype bf16|f16] (on the GPU machine, in a directory made by
prepare.sh, under ncu): launches one GEMM row's product a few times, LIB = tessel
(tessel.ops.matmul, with the TESSEL_KERNEL_PATH and TESSEL_TUNING_CACHE of the environment) or
cublas (torch.matmul), so that `ncu -k regex:... -s N -c 1` profiles each library's kernel of a
row in the same session. --bT: B is the transpose of an (N, K) row-major weight, as the LLM
suite's y = x W^T (matmul_bench.py's ":bT"). Run without ncu, it prints the kernels' names
(torch.profiler; under ncu the profiler sees none), for choosing ncu's -k filter. Before the
--launches come a warm-up and the profiled launch, so ncu skips two (-s 2 per kernel a launch).

  ncu --section SpeedOfLight -k regex:gemm -s 2 -c 1 python3 ncu_gemm.py tessel 256x6144x4096 --bT
  ncu --section SpeedOfLight -k regex:'nvjet|gemm|cutlass' -s 2 -c 1 python3 ncu_gemm.py cublas 256x6144x4096 --bT
"""
import argparse
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "python"), here]

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("lib", choices=("tessel", "cublas"))
ap.add_argument("shape", help="MxNxK")
ap.add_argument("--bT", action="store_true", help="B = W^T for a row-major W of shape (N, K)")
ap.add_argument("--dtype", default="bf16", choices=("bf16", "f16"))
ap.add_argument("--launches", type=int, default=6, help="launches after one warm-up")
args = ap.parse_args()
try:
    m, n, k = (int(d) for d in args.shape.split("x"))
except ValueError:
    ap.error(f"shape must be MxNxK, got {args.shape!r}")

import torch  # noqa: E402

dtype = {"bf16": torch.bfloat16, "f16": torch.float16}[args.dtype]
a = torch.randn(m, k, device="cuda", dtype=dtype)
b = torch.randn(n, k, device="cuda", dtype=dtype).t() if args.bT else \
    torch.randn(k, n, device="cuda", dtype=dtype)
if args.lib == "tessel":
    import tessel  # noqa: E402
    run = lambda: tessel.ops.matmul(a, b)
else:
    run = lambda: torch.matmul(a, b)
run()  # warm-up: the op's plan and module loads
torch.cuda.synchronize()
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
    run()
    torch.cuda.synchronize()
names = sorted({e.name for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA})
print(f"{args.lib} {args.dtype} {args.shape}{' bT' if args.bT else ''}: kernels {names}", flush=True)
for _ in range(args.launches):
    run()
torch.cuda.synchronize()
