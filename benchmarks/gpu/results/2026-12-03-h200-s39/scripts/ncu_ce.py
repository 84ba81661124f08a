#!/usr/bin/env python3
"""ncu_ce.py (session 39, under ncu --profile-from-start off): one call each of Tessel's
cross_entropy_forward_backward (cross_entropy_fused, what eager autograd runs for mean) and
Liger-Kernel's cross-entropy forward (its kernel computes the gradient too) at 8192x128256 bf16."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
from tessel import ops
from liger_kernel.ops.cross_entropy import LigerCrossEntropyFunction
logits = torch.randn(8192, 128256, device="cuda", dtype=torch.bfloat16)
target = torch.randint(0, 128256, (8192,), device="cuda")
def tessel():
    return ops.cross_entropy_forward_backward(logits, target, "mean")
def liger():
    x = logits.clone().requires_grad_()  # Liger writes the gradient into its input
    return LigerCrossEntropyFunction.apply(x, target, None, -100, 0.0, 0.0, "mean")
for _ in range(2):
    tessel(); liger()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStart()
tessel(); liger()
torch.cuda.synchronize()
torch.cuda.cudart().cudaProfilerStop()
print("done")
