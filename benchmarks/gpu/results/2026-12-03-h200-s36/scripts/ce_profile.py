"""Where cross-entropy's forward + backward goes (8192 x 128256 bf16, mean): torch.profiler's
device time per kernel for one step of tessel.ops.cross_entropy and of Liger-Kernel's, after
three warm-up steps, as torch_ops.py's step does it."""
import os, sys, torch
from torch.profiler import profile, ProfilerActivity
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))
import tessel
from tessel import ops
tessel.add_kernel_directory(os.path.join(here, "..", "kernels"))
BT, V = 8192, 128256
logits = torch.randn(BT, V, device="cuda", dtype=torch.bfloat16, requires_grad=True)
labels = torch.randint(0, V, (BT,), device="cuda")
one = torch.ones((), device="cuda")
impls = {"tessel": lambda: ops.cross_entropy(logits, labels)}
try:
    from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction
    impls["liger"] = lambda: LigerCrossEntropyFunction.apply(logits, labels, None, -100, 0.0, 0.0, "mean")[0]
except Exception as e:
    print("no liger:", e)
for name, fn in impls.items():
    def step():
        logits.grad = None
        torch.autograd.backward([fn()], [one])
    for _ in range(3):
        step()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as p:
        step()
        torch.cuda.synchronize()
    print(f"== {name}")
    print(p.key_averages().table(sort_by="cuda_time_total", row_limit=12, max_name_column_width=70))
