"""Tessel's Python package: compiled Tessel kernels on NumPy arrays and torch tensors.

    import tessel
    y = tessel.ops.rms_norm(x, w)          # NumPy / CPU torch: the interpreter; CUDA: the GPU

tessel.ops holds the ops (forward and backward); tessel.kernels finds, checks and launches
any compiled variant; tessel.torch_ops (imported when torch is) registers the ops as
torch.library custom ops with autograd. docs/Python.md is the guide.
"""

from . import kernels, ops
from ._capi import TesselError
from .kernels import add_kernel_directory, launch, load_kernel

__version__ = "0.1.0"
__all__ = ["kernels", "ops", "TesselError", "add_kernel_directory", "launch", "load_kernel",
           "__version__"]
