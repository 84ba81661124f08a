"""What tessel.ops' modules share: dtype names, output buffers, argument checks (TypeError for a
wrong dtype, ValueError for mismatched shapes or devices) and the rows view of an input."""

from . import kernels as _k
from ._arrays import describe, is_torch

_TORCH_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64",
                "i64": "int64", "i32": "int32"}
_NUMPY_NAMES = {"f32": "float32", "f16": "float16", "f64": "float64", "i64": "int64",
                "i32": "int32"}
_FLOATS = ("f32", "f16", "bf16")


def _empty(like, shape, dtype):
    if is_torch(like):
        import torch
        return torch.empty(shape, dtype=getattr(torch, _TORCH_NAMES[dtype]), device=like.device)
    import numpy as np
    return np.empty(shape, dtype=_NUMPY_NAMES[dtype])


def _contiguous(a):
    """`a`, or a contiguous, aligned copy of it (see the module's note)."""
    d = describe(a, "")
    if d.is_contiguous() and d.address % 16 == 0:
        return a
    if is_torch(a):
        import torch
        out = torch.empty(a.shape, dtype=a.dtype, device=a.device)
        out.copy_(a)
        return out
    import numpy as np
    out = np.empty(a.shape, dtype=a.dtype)
    out[...] = a
    return out


def _float(a, name, op):
    d = describe(a, name)
    if d.dtype not in _FLOATS:
        raise TypeError(f"{op}: {name} must be float32, float16 or bfloat16, got {d.dtype}")
    return d


def _same(op, ref, *others):
    """Every Array of `others` has ref's dtype and device (TypeError / ValueError naming it)."""
    for o in others:
        if o.dtype != ref.dtype:
            raise TypeError(f"{op}: {o.name} is {o.dtype} but {ref.name} is {ref.dtype}; pass "
                            "both in one dtype")
        if (o.device, o.device_index) != (ref.device, ref.device_index):
            raise ValueError(f"{op}: {o.name} is on {o.device}:{o.device_index} but {ref.name} "
                             f"is on {ref.device}:{ref.device_index}")


def _rows(a):
    """A contiguous (rows, cols) view or copy of `a` (rank >= 1)."""
    a = _contiguous(a)
    cols = a.shape[-1]
    rows = 1
    for s in a.shape[:-1]:
        rows *= s
    return a.reshape(rows, cols), rows, cols


def _vector(w, name, op, cols, ref):
    d = _float(w, name, op)
    _same(op, ref, d)
    if tuple(d.shape) != (cols,):
        raise ValueError(f"{op}: {name} has shape {tuple(d.shape)}, expected ({cols},) (the "
                         "last dimension of the input)")
    return _contiguous(w)


def _one_block_or_looped(kernel, looped, dtype, device, cols):
    """A one-block variant whose BLOCK holds the row (the smallest), else the looped kernel."""
    try:
        return _k.choose(kernel, dtype, device, valid=lambda c: c.get("BLOCK", 0) >= cols,
                         prefer=lambda c: c.get("BLOCK", 0), key=cols)
    except LookupError:
        if looped is None:
            raise
        return _k.choose(looped, dtype, device, key=())


def _num_programs(device_like, rows):
    """About one program per SM on the GPU; a few on the interpreter (its threads)."""
    if is_torch(device_like) and device_like.is_cuda:
        import torch
        sms = torch.cuda.get_device_properties(device_like.device).multi_processor_count
    else:
        sms = 8
    per = max(1, -(-rows // sms))
    return -(-rows // per) if rows else 0, per
