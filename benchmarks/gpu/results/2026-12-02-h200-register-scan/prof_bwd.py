import cProfile, os, pstats, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
from tessel import ops
x = torch.randn(64, 1000, device="cuda", dtype=torch.bfloat16, requires_grad=True)
w = torch.rand(1000, device="cuda", dtype=torch.bfloat16, requires_grad=True)
dy = torch.randn(64, 1000, device="cuda", dtype=torch.bfloat16)
for _ in range(50):
    ops.rms_norm(x, w).backward(dy)
torch.cuda.synchronize()
cProfile.run("for _ in range(500): ops.rms_norm(x, w).backward(dy)", "/tmp/p")
pstats.Stats("/tmp/p").sort_stats("tottime").print_stats(25)
