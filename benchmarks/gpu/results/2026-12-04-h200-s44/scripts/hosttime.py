import os, sys, time
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), sys.argv[1])
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
from tessel import ops
# Small rows: the GPU finishes each kernel long before the host launches the next, so the
# loop's wall time per step is the host's time per step.
for M, N in ((64, 4096), (64, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    w = torch.rand(N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    b = torch.rand(N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    def step():
        for t in (x, w, b): t.grad = None
        torch.autograd.backward([ops.layer_norm(x, w, b)], [dy])
    for _ in range(50): step()
    torch.cuda.synchronize()
    best = []
    for rep in range(5):
        t0 = time.perf_counter()
        for _ in range(200): step()
        torch.cuda.synchronize(); best.append(1e6 * (time.perf_counter() - t0) / 200)
    fwd = []
    with torch.no_grad():
        for rep in range(5):
            t0 = time.perf_counter()
            for _ in range(200): ops.layer_norm(x, w, b)
            torch.cuda.synchronize(); fwd.append(1e6 * (time.perf_counter() - t0) / 200)
    print(f"{sys.argv[1]} {M}x{N}: fwd+bwd host {sorted(best)[2]:.1f} us/step, fwd {sorted(fwd)[2]:.1f} us")
