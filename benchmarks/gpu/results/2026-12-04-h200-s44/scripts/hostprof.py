import os, sys, time, cProfile, pstats
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[1])
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
from tessel import ops
M, N = 16384, 4096
x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
w = torch.rand(N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
b = torch.rand(N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
def step():
    for t in (x, w, b): t.grad = None
    torch.autograd.backward([ops.layer_norm(x, w, b)], [dy])
for _ in range(20): step()
torch.cuda.synchronize()
t0 = time.perf_counter()
for _ in range(100): step()
t1 = time.perf_counter(); torch.cuda.synchronize(); t2 = time.perf_counter()
print(f"host per step {1e6*(t1-t0)/100:.1f} us, with sync {1e6*(t2-t0)/100:.1f} us")
pr = cProfile.Profile(); pr.enable()
for _ in range(100): step()
pr.disable(); torch.cuda.synchronize()
pstats.Stats(pr).sort_stats("cumulative").print_stats(8)
pstats.Stats(pr).sort_stats("tottime").print_stats(6)
