"""Forward and backward ops on NumPy arrays (the interpreter) and torch tensors (CPU: the
interpreter; CUDA: the GPU, on torch's current stream), backed by dsl/kernels.

Shapes: the norms and cross_entropy treat every leading dimension as rows ((batch, seq, hidden)
is batch*seq rows of hidden); swiglu and geglu are element-wise over any shape. Outputs have the input's
dtype and device and a contiguous layout.

Non-contiguous inputs: cross_entropy passes the logits' row stride to its kernels (a row-strided
view such as logits[:, :V] is not copied); the norms and swiglu copy an input that is not
contiguous (or not 16-byte aligned) into a contiguous buffer first, because their kernels take one
stride for input and output. Errors: TypeError for a wrong dtype or argument type, ValueError for
mismatched shapes or devices, LookupError when no compiled variant fits.
"""

import sys

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
                         prefer=lambda c: c.get("BLOCK", 0))
    except LookupError:
        if looped is None:
            raise
        return _k.choose(looped, dtype, device)


def _num_programs(device_like, rows):
    """About one program per SM on the GPU; a few on the interpreter (its threads)."""
    if is_torch(device_like) and device_like.is_cuda:
        import torch
        sms = torch.cuda.get_device_properties(device_like.device).multi_processor_count
    else:
        sms = 8
    per = max(1, -(-rows // sms))
    return -(-rows // per) if rows else 0, per


# ---------------------------------------------------------------- RMSNorm


def _rms_norm(x, weight, eps=1e-6, residual=None):
    """RMSNorm over the last dimension: x / sqrt(mean(x^2) + eps) * weight, in f32.

    x: (..., H) f32/f16/bf16; weight: (H,) same dtype and device. With `residual` (x's shape):
    s = x + residual (rounded to the dtype) is normalized and (out, s) is returned, s being the
    next layer's residual; `residual` itself is not modified. Returns out (x's shape)."""
    op = "rms_norm"
    xd = _float(x, "x", op)
    if not xd.shape:
        raise ValueError(f"{op}: x must have at least one dimension")
    x2, rows, cols = _rows(x)
    w = _vector(weight, "weight", op, cols, xd)
    out = _empty(x, (rows, cols), xd.dtype)
    if residual is None:
        v = _one_block_or_looped("rmsnorm", "rmsnorm_looped", xd.dtype, xd.device, cols)
        _k.launch(v, rows, out, x2, w, cols, cols, float(eps))
        return out.reshape(xd.shape)
    rd = _float(residual, "residual", op)
    _same(op, xd, rd)
    if tuple(rd.shape) != tuple(xd.shape):
        raise ValueError(f"{op}: residual has shape {tuple(rd.shape)} but x has "
                         f"{tuple(xd.shape)}")
    res = _empty(x, (rows, cols), xd.dtype)
    res[...] = _rows(residual)[0]  # the kernel writes the sum here, not into the caller's
    v = _one_block_or_looped("add_rmsnorm", "add_rmsnorm_looped", xd.dtype, xd.device, cols)
    _k.launch(v, rows, out, x2, res, w, cols, cols, float(eps))
    return out.reshape(xd.shape), res.reshape(xd.shape)


def _norm_backward_inputs(op, dy, x, weight):
    """The checked inputs of a norm's backward: (x's description, x and dy as rows, weight, dx
    (rows, cols), rows, cols, programs, rows per program)."""
    xd, gd = _float(x, "x", op), _float(dy, "dy", op)
    _same(op, xd, gd)
    if tuple(gd.shape) != tuple(xd.shape):
        raise ValueError(f"{op}: dy has shape {tuple(gd.shape)} but x has {tuple(xd.shape)}")
    x2, rows, cols = _rows(x)
    g2 = _rows(dy)[0]
    w = _vector(weight, "weight", op, cols, xd)
    dx = _empty(x, (rows, cols), xd.dtype)
    programs, per = _num_programs(x, rows)
    return xd, x2, g2, w, dx, rows, cols, programs, per


def _reduce_partials(x, xd, partial, programs, cols):
    """The (cols,) sum of a (programs, cols) f32 partial-sum buffer, in x's dtype
    (rmsnorm_dw_reduce)."""
    out = _empty(x, (cols,), xd.dtype)
    r = _k.choose("rmsnorm_dw_reduce", xd.dtype, xd.device)
    _k.launch(r, -(-cols // r.config["BLOCK"]), out, partial, programs, cols)
    return out


def rms_norm_backward(dy, x, weight, eps=1e-6):
    """Gradients of rms_norm(x, weight, eps): (dx (x's shape), dweight (H,)).

    dx in one pass per row (r recomputed from x); dweight from per-program partial sums in f32
    (about one program per SM) added by a second kernel (rmsnorm_dw_reduce). H <= 16384."""
    xd, x2, g2, w, dx, rows, cols, programs, per = _norm_backward_inputs(
        "rms_norm_backward", dy, x, weight)
    partial = _empty(x, (max(programs, 1), cols), "f32")
    v = _k.choose("rmsnorm_backward", xd.dtype, xd.device, valid=lambda c: c["BLOCK"] >= cols,
                  prefer=lambda c: c["BLOCK"])
    _k.launch(v, programs, dx, partial, g2, x2, w, cols, rows, cols, per, float(eps))
    return dx.reshape(xd.shape), _reduce_partials(x, xd, partial, programs, cols)


# ---------------------------------------------------------------- LayerNorm


def _layer_norm(x, weight, bias=None, eps=1e-5):
    """LayerNorm over the last dimension (biased variance), in f32: (x - mean) / sqrt(var +
    eps) * weight + bias. x: (..., H); weight, bias: (H,) (bias None: zeros)."""
    op = "layer_norm"
    xd = _float(x, "x", op)
    if not xd.shape:
        raise ValueError(f"{op}: x must have at least one dimension")
    x2, rows, cols = _rows(x)
    w = _vector(weight, "weight", op, cols, xd)
    if bias is None:
        b = _empty(x, (cols,), xd.dtype)
        b[...] = 0
    else:
        b = _vector(bias, "bias", op, cols, xd)
    out = _empty(x, (rows, cols), xd.dtype)
    v = _one_block_or_looped("layernorm", "layernorm_looped", xd.dtype, xd.device, cols)
    _k.launch(v, rows, out, x2, w, b, cols, cols, float(eps))
    return out.reshape(xd.shape)


def layer_norm_backward(dy, x, weight, eps=1e-5):
    """Gradients of layer_norm(x, weight, bias, eps): (dx (x's shape), dweight (H,), dbias
    (H,)). As rms_norm_backward: dx in one pass per row (mean and 1/std recomputed from x),
    dweight and dbias from per-program f32 partial sums added by rmsnorm_dw_reduce. H <= 16384."""
    xd, x2, g2, w, dx, rows, cols, programs, per = _norm_backward_inputs(
        "layer_norm_backward", dy, x, weight)
    dw_partial = _empty(x, (max(programs, 1), cols), "f32")
    db_partial = _empty(x, (max(programs, 1), cols), "f32")
    v = _k.choose("layernorm_backward", xd.dtype, xd.device, valid=lambda c: c["BLOCK"] >= cols,
                  prefer=lambda c: c["BLOCK"])
    _k.launch(v, programs, dx, dw_partial, db_partial, g2, x2, w, cols, rows, cols, per,
              float(eps))
    return (dx.reshape(xd.shape), _reduce_partials(x, xd, dw_partial, programs, cols),
            _reduce_partials(x, xd, db_partial, programs, cols))


# ---------------------------------------------------------------- SwiGLU


def _glu_inputs(op, gate, up):
    gd, ud = _float(gate, "gate", op), _float(up, "up", op)
    _same(op, gd, ud)
    if tuple(gd.shape) != tuple(ud.shape):
        raise ValueError(f"{op}: gate has shape {tuple(gd.shape)} but up has {tuple(ud.shape)}")
    return gd, _contiguous(gate), _contiguous(up)


def _elementwise_variant(kernel, dtype, device, n):
    # The larger block when there are enough elements to fill the GPU with it.
    return _k.choose(kernel, dtype, device,
                     prefer=lambda c: -c["BLOCK"] if device == "cuda" and n >= 4096 * 264
                     else c["BLOCK"])


def _swiglu(gate, up):
    """silu(gate) * up element-wise, in f32. gate, up: the same shape, dtype and device."""
    gd, g, u = _glu_inputs("swiglu", gate, up)
    out = _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = _elementwise_variant("swiglu", gd.dtype, gd.device, n)
    _k.launch(v, -(-n // v.config["BLOCK"]), out, g, u, n)
    return out


def swiglu_backward(dout, gate, up):
    """Gradients of swiglu(gate, up): (dgate, dup), each of gate's shape."""
    op = "swiglu_backward"
    gd, g, u = _glu_inputs(op, gate, up)
    dd = _float(dout, "dout", op)
    _same(op, gd, dd)
    if tuple(dd.shape) != tuple(gd.shape):
        raise ValueError(f"{op}: dout has shape {tuple(dd.shape)} but gate has "
                         f"{tuple(gd.shape)}")
    d = _contiguous(dout)
    dgate, dup = _empty(gate, gd.shape, gd.dtype), _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = _elementwise_variant("swiglu_backward", gd.dtype, gd.device, n)
    _k.launch(v, -(-n // v.config["BLOCK"]), dgate, dup, d, g, u, n)
    return dgate, dup


def _geglu_variant(kernel, dtype, device, n, approximate):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"{kernel}: approximate must be 'none' or 'tanh', got {approximate!r}")
    return _k.choose(kernel, dtype, device,
                     valid=lambda c: c.get("approximate", "none") == approximate,
                     prefer=lambda c: -c["BLOCK"] if device == "cuda" and n >= 4096 * 264
                     else c["BLOCK"])


def _geglu(gate, up, approximate="none"):
    """gelu(gate) * up element-wise, in f32: the exact GELU (erf) or, with approximate="tanh",
    its tanh approximation (PyTorch's F.gelu approximate argument). Shapes as swiglu."""
    gd, g, u = _glu_inputs("geglu", gate, up)
    out = _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = _geglu_variant("geglu", gd.dtype, gd.device, n, approximate)
    _k.launch(v, -(-n // v.config["BLOCK"]), out, g, u, n)
    return out


def geglu_backward(dout, gate, up, approximate="none"):
    """Gradients of geglu(gate, up, approximate): (dgate, dup), each of gate's shape."""
    op = "geglu_backward"
    gd, g, u = _glu_inputs(op, gate, up)
    dd = _float(dout, "dout", op)
    _same(op, gd, dd)
    if tuple(dd.shape) != tuple(gd.shape):
        raise ValueError(f"{op}: dout has shape {tuple(dd.shape)} but gate has "
                         f"{tuple(gd.shape)}")
    d = _contiguous(dout)
    dgate, dup = _empty(gate, gd.shape, gd.dtype), _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = _geglu_variant(op, gd.dtype, gd.device, n, approximate)
    _k.launch(v, -(-n // v.config["BLOCK"]), dgate, dup, d, g, u, n)
    return dgate, dup


# ---------------------------------------------------------------- cross-entropy


def _ce_inputs(op, logits, target):
    ld = _float(logits, "logits", op)
    td = describe(target, "target")
    if td.dtype != "i64":
        raise TypeError(f"{op}: target must be int64, got {td.dtype}")
    if (td.device, td.device_index) != (ld.device, ld.device_index):
        raise ValueError(f"{op}: target is on {td.device}:{td.device_index} but logits are on "
                         f"{ld.device}:{ld.device_index}")
    if len(ld.shape) < 2:
        raise ValueError(f"{op}: logits must be (N, V) or (B, T, V), got {tuple(ld.shape)}")
    if tuple(td.shape) != tuple(ld.shape[:-1]):
        raise ValueError(f"{op}: target has shape {tuple(td.shape)}, expected "
                         f"{tuple(ld.shape[:-1])} (logits' leading dimensions)")
    cols = ld.shape[-1]
    rows = td.numel
    # Rows of a 2-D view with unit column stride and an aligned base are passed by stride.
    if (len(ld.shape) == 2 and ld.strides[1] == 1 and ld.address % 16 == 0
            and ld.strides[0] >= cols):
        l2, stride = logits, ld.strides[0]
    else:
        l2 = _rows(logits)[0]
        stride = cols
    return ld, l2, stride, _contiguous(target).reshape(rows), rows, cols


def _cross_entropy(logits, target, reduction="mean", ignore_index=-100):
    """Cross-entropy of logits (N, V) or (B, T, V) against int64 class indices (N) or (B, T),
    computed per row in f32 with an online softmax. reduction: "none" (per row, 0 for ignored
    rows, f32, the target's shape), "mean" (over the rows whose target != ignore_index; NaN
    when there are none, as PyTorch) or "sum"; the reduced loss has the logits' dtype."""
    op = "cross_entropy"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    ld, l2, stride, t, rows, cols = _ce_inputs(op, logits, target)
    loss = _empty(logits, (rows,), "f32")
    v = _k.choose("cross_entropy", ld.dtype, ld.device)
    _k.launch(v, rows, loss, l2, t, stride, cols, int(ignore_index))
    if reduction == "none":
        return loss.reshape(tuple(ld.shape[:-1]))
    total = loss.sum()
    if reduction == "mean":
        n_valid = (t != ignore_index).sum()
        if is_torch(loss):
            total = total / n_valid
        else:
            import numpy as np
            with np.errstate(invalid="ignore", divide="ignore"):
                total = np.float32(total) / np.float32(n_valid)
    if is_torch(loss):
        return total.to(logits.dtype)
    return total.astype(_NUMPY_NAMES[ld.dtype])


def cross_entropy_backward(dloss, logits, target, reduction="mean", ignore_index=-100):
    """Gradient of cross_entropy(logits, target, reduction, ignore_index) with respect to the
    logits, given dloss (a scalar for mean/sum, the per-row losses' shape for none): dlogits,
    contiguous, of the logits' shape and dtype. The mean's 1 / n_valid is applied to dloss on the
    device, so nothing waits for the host."""
    op = "cross_entropy_backward"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    ld, l2, stride, t, rows, cols = _ce_inputs(op, logits, target)
    if is_torch(logits):
        import torch
        g = torch.as_tensor(dloss, device=logits.device).to(torch.float32).reshape(-1)
        if reduction == "mean":
            g = g / (t != ignore_index).sum()
    else:
        import numpy as np
        g = np.asarray(dloss, dtype=np.float32).reshape(-1)
        if reduction == "mean":
            with np.errstate(invalid="ignore", divide="ignore"):
                g = g / np.float32((t != ignore_index).sum())
    expected = rows if reduction == "none" else 1
    if g.shape[0] != expected:
        raise ValueError(f"{op}: dloss has {g.shape[0]} elements, expected {expected}")
    g = _contiguous(g)
    dlogits = _empty(logits, (rows, cols), ld.dtype)
    mode = "none" if reduction == "none" else "sum"
    v = _k.choose("cross_entropy_backward", ld.dtype, ld.device,
                  valid=lambda c: c.get("reduction") == mode)
    _k.launch(v, rows, dlogits, l2, t, g, stride, cols, cols, int(ignore_index), 1)
    return dlogits.reshape(tuple(ld.shape))



# ---------------------------------------------------------------- RoPE


def _rope_apply(q, k, cos, sin, backward, op):
    """Copies of q and k rotated by the rope kernel (rotate-half) in f32, or by its transpose
    (`backward`). q: (B, HQ, S, D), k: (B, HK, S, D) (Hugging Face's layout); cos, sin:
    (1 or B, S, D), the same for both halves (as Hugging Face builds them) or not."""
    qd, kd = _float(q, "q", op), _float(k, "k", op)
    _same(op, qd, kd)
    if len(qd.shape) != 4 or len(kd.shape) != 4:
        raise ValueError(f"{op}: q and k must be (batch, heads, seq, head_dim), got "
                         f"{tuple(qd.shape)} and {tuple(kd.shape)}")
    B, HQ, S, D = qd.shape
    if kd.shape[0] != B or kd.shape[2:] != (S, D):
        raise ValueError(f"{op}: k has shape {tuple(kd.shape)}, expected ({B}, heads, {S}, {D})")
    tables = []
    for t, name in ((cos, "cos"), (sin, "sin")):
        td = _float(t, name, op)
        if (td.device, td.device_index) != (qd.device, qd.device_index):
            raise ValueError(f"{op}: {name} is on {td.device} but q is on {qd.device}")
        if len(td.shape) != 3 or td.shape[0] not in (1, B) or td.shape[1:] != (S, D):
            raise ValueError(f"{op}: {name} has shape {tuple(td.shape)}, expected (1 or {B}, "
                             f"{S}, {D})")
        if is_torch(t):
            t = t.float()
        else:
            import numpy as np
            t = np.asarray(t, dtype=np.float32)
        if name == "sin" and backward:
            # The transpose: d1 c1 + d2 s2 and d2 c2 - d1 s1, the forward's formula on
            # sin' = -[sin2, sin1] (-sin when the halves are equal, a rotation by -angle).
            h = D // 2
            t = -(t[..., list(range(h, D)) + list(range(h))])
        tables.append(_contiguous(t))
    c, s = tables
    # The kernel rotates in place: it runs on contiguous copies.
    qo, ko = (a.clone().contiguous() if is_torch(a) else _contiguous(a.copy()) for a in (q, k))
    v = _k.choose("rope", qd.dtype, qd.device,
                  valid=lambda cfg: cfg["HALF"] * 2 == D and cfg["BLOCK_H"] >= max(HQ, kd.shape[1]),
                  prefer=lambda cfg: cfg["BLOCK_H"])
    _k.launch(v, B * S, qo, ko, c, s, S, HQ, kd.shape[1], HQ * S * D, D, S * D,
              kd.shape[1] * S * D, D, S * D, 0 if describe(c, "cos").shape[0] == 1 else S * D, D,
              D // 2)
    return qo, ko


def _rope(q, k, cos, sin):
    """Rotary position embedding of q and k (rotate-half, as Hugging Face's
    apply_rotary_pos_emb): q * cos + rotate_half(q) * sin, and k likewise, computed in f32.
    q: (B, HQ, S, D), k: (B, HK, S, D); cos, sin: (1 or B, S, D). Returns new (q, k); the
    inputs are not modified. Kernel `rope` (HALF = D / 2, BLOCK_H >= the head counts)."""
    return _rope_apply(q, k, cos, sin, False, "rope")


def rope_backward(dq, dk, cos, sin):
    """Gradients of rope(q, k, cos, sin) with respect to q and k: the same kernel on the
    transposed tables (cos, -[sin's second half, its first half]); with equal halves, as
    Hugging Face's, the rotation by -angle."""
    return _rope_apply(dq, dk, cos, sin, True, "rope_backward")


# ---------------------------------------------------------------- fused linear cross-entropy


def _gemm_variant(kernel, dtype, device):
    """A plain variant of gemm or gemm_residual (no bias, no activation), the widest tile."""
    return _k.choose(kernel, dtype, device,
                     valid=lambda c: not c.get("HAS_BIAS") and c.get("ACT", "none") == "none",
                     prefer=lambda c: -c["BLOCK_M"] * c["BLOCK_N"])


def _matmul(v, a, b, c, m, n, k, sa, sb, sc, residual=None, sr=(0, 0)):
    """c (m, n) = a (m, k) @ b (k, n) [+ residual], each operand given as an array whose first
    element is the matrix's and its (row, column) strides in elements."""
    grid = -(-m // v.config["BLOCK_M"]) * -(-n // v.config["BLOCK_N"])
    args = [a, b, c, c] + ([residual] if residual is not None else [])
    args += [m, n, k, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1]]
    args += list(sr) if residual is not None else []
    _k.launch(v, grid, *args)


def _flce_chunk_rows(rows, hidden, vocab):
    """Liger-Kernel's chunk size: the next power of two of rows / ceil(V / H), so that a chunk's
    logits (chunk, V) are about the size of the input (rows, H)."""
    per = max(1, -(-rows // max(1, -(-vocab // hidden))))
    return 1 << (per - 1).bit_length()


def fused_linear_cross_entropy_forward_backward(x, weight, target, ignore_index=-100,
                                                reduction="mean", chunk_rows=None, grads=True):
    """cross_entropy(x @ weight.T, target) and its gradients for an upstream gradient of 1:
    (loss (0-d, f32), grad_x (x's shape and dtype), grad_weight (V, H), x's dtype), without
    the (N, V) logits: the rows go through in chunks of `chunk_rows` (default: Liger-Kernel's,
    _flce_chunk_rows). Per chunk, on one (chunk, V) buffer:
      logits = x_c @ weight.T                         (gemm)
      loss_c = cross-entropy per row, online softmax  (cross_entropy)
      dlogits = (softmax - onehot) * g, in place      (cross_entropy_backward)
      grad_x_c = dlogits @ weight                     (gemm)
      grad_weight += dlogits.T @ x_c                  (gemm_residual, in place)
    g is 1 (sum) or 1 / n_valid (mean, the rows whose target != ignore_index). grad_weight
    accumulates in x's dtype, as Liger-Kernel's addmm. x: (N, H) or (B, T, H); weight: (V, H),
    nn.Linear's layout; target: int64 (N,) or (B, T). No bias yet. grads=False: the loss alone
    (grad_x and grad_weight None), without the backward's kernels."""
    op = "fused_linear_cross_entropy"
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'mean' or 'sum', got {reduction!r}")
    xd, wd = _float(x, "x", op), _float(weight, "weight", op)
    _same(op, xd, wd)
    x2, rows, hidden = _rows(x)
    if len(wd.shape) != 2 or wd.shape[1] != hidden:
        raise ValueError(f"{op}: weight has shape {tuple(wd.shape)}, expected (V, {hidden}) "
                         "(nn.Linear's (out_features, in_features))")
    vocab = wd.shape[0]
    td = describe(target, "target")
    if td.dtype != "i64":
        raise TypeError(f"{op}: target must be int64, got {td.dtype}")
    if td.numel != rows or (td.device, td.device_index) != (xd.device, xd.device_index):
        raise ValueError(f"{op}: target has shape {tuple(td.shape)} on {td.device}, expected "
                         f"{tuple(xd.shape[:-1])} on {xd.device}")
    w = _contiguous(weight)
    t = _contiguous(target).reshape(rows)
    chunk = int(chunk_rows or _flce_chunk_rows(rows, hidden, vocab))
    if chunk < 1:
        raise ValueError(f"{op}: chunk_rows must be positive, got {chunk_rows}")
    # The gradient's scale, kept on the device (nothing waits for the host).
    if is_torch(x):
        import torch
        n_valid = (t != ignore_index).sum().to(torch.float32)
        g = (1.0 / n_valid if reduction == "mean" else torch.ones_like(n_valid)).reshape(1)
    else:
        import numpy as np
        n_valid = np.float32((t != ignore_index).sum())
        with np.errstate(invalid="ignore", divide="ignore"):
            g = np.array([1.0 / n_valid if reduction == "mean" else 1.0], dtype=np.float32)
    g = _contiguous(g)
    dt = xd.dtype
    gemm = _gemm_variant("gemm", dt, xd.device)
    gemm_acc = _gemm_variant("gemm_residual", dt, xd.device)
    ce = _k.choose("cross_entropy", dt, xd.device)
    ce_grad = _k.choose("cross_entropy_backward", dt, xd.device,
                        valid=lambda c: c.get("reduction") == "sum")
    losses = _empty(x, (rows,), "f32")
    grad_x = _empty(x, (rows, hidden), dt) if grads else None
    grad_w = _empty(x, (vocab, hidden), dt) if grads else None
    logits = _empty(x, (min(chunk, rows), vocab), dt)
    loss_c = _empty(x, (min(chunk, rows),), "f32")
    for r0 in range(0, rows, chunk):
        m = min(chunk, rows - r0)
        # Kernels take 16-byte-aligned arrays: a chunk's rows are copied when their slice of x,
        # the targets or grad_x does not start on 16 bytes.
        xc, tc, lc = _contiguous(x2[r0:r0 + m]), _contiguous(t[r0:r0 + m]), logits[:m]
        _matmul(gemm, xc, w, lc, m, vocab, hidden, (hidden, 1), (1, hidden), (vocab, 1))
        _k.launch(ce, m, loss_c, lc, tc, vocab, vocab, int(ignore_index))
        losses[r0:r0 + m] = loss_c[:m]
        if not grads:
            continue
        _k.launch(ce_grad, m, lc, lc, tc, g, vocab, vocab, vocab, int(ignore_index), 1)
        gx = grad_x[r0:r0 + m]
        gxc = gx if describe(gx, "grad_x").address % 16 == 0 else _empty(x, (m, hidden), dt)
        _matmul(gemm, lc, w, gxc, m, hidden, vocab, (vocab, 1), (hidden, 1), (hidden, 1))
        if gxc is not gx:
            gx[...] = gxc
        if r0 == 0:
            _matmul(gemm, lc, xc, grad_w, vocab, hidden, m, (1, vocab), (hidden, 1), (hidden, 1))
        else:
            _matmul(gemm_acc, lc, xc, grad_w, vocab, hidden, m, (1, vocab), (hidden, 1),
                    (hidden, 1), residual=grad_w, sr=(hidden, 1))
    total = losses.sum()
    loss = total * g[0] if reduction == "mean" else total
    if not grads:
        return loss, None, None
    return loss, grad_x.reshape(xd.shape), grad_w


# ---------------------------------------------------------------- autograd routing


def _autograd(*tensors):
    """Whether torch should record the op: a tensor that requires grad, with grad enabled."""
    torch = sys.modules.get("torch")
    return (torch is not None and torch.is_grad_enabled()
            and any(is_torch(t) and t.requires_grad for t in tensors if t is not None))


def rms_norm(x, weight, eps=1e-6, residual=None):
    if _autograd(x, weight, residual):
        from . import torch_ops
        return torch_ops.rms_norm(x, weight, eps, residual)
    return _rms_norm(x, weight, eps, residual)


def layer_norm(x, weight, bias=None, eps=1e-5):
    if _autograd(x, weight, bias):
        from . import torch_ops
        return torch_ops.layer_norm(x, weight, bias, eps)
    return _layer_norm(x, weight, bias, eps)


def swiglu(gate, up):
    if _autograd(gate, up):
        from . import torch_ops
        return torch_ops.swiglu(gate, up)
    return _swiglu(gate, up)


def geglu(gate, up, approximate="none"):
    if _autograd(gate, up):
        from . import torch_ops
        return torch_ops.geglu(gate, up, approximate)
    return _geglu(gate, up, approximate)


def rope(q, k, cos, sin):
    if _autograd(q, k):
        from . import torch_ops
        return torch_ops.rope(q, k, cos, sin)
    return _rope(q, k, cos, sin)


def fused_linear_cross_entropy(x, weight, target, ignore_index=-100, reduction="mean",
                               chunk_rows=None):
    """cross_entropy(x @ weight.T, target, reduction, ignore_index) without the (N, V) logits
    (fused_linear_cross_entropy_forward_backward): the loss, a 0-d f32 array. torch tensors
    that require grad go through the custom op tessel::fused_linear_cross_entropy, which
    computes grad_x and grad_weight with the loss, as Liger-Kernel does, and scales them by the
    upstream gradient in the backward."""
    if _autograd(x, weight):
        from . import torch_ops
        return torch_ops.fused_linear_cross_entropy(x, weight, target, ignore_index, reduction,
                                                    chunk_rows)
    return fused_linear_cross_entropy_forward_backward(x, weight, target, ignore_index,
                                                       reduction, chunk_rows, grads=False)[0]


def cross_entropy(logits, target, reduction="mean", ignore_index=-100):
    if _autograd(logits):
        from . import torch_ops
        return torch_ops.cross_entropy(logits, target, reduction, ignore_index)
    return _cross_entropy(logits, target, reduction, ignore_index)


for _public, _private in ((rms_norm, _rms_norm), (layer_norm, _layer_norm),
                          (swiglu, _swiglu), (geglu, _geglu), (cross_entropy, _cross_entropy),
                          (rope, _rope)):
    _public.__doc__ = _private.__doc__ + (
        "\n\n    torch tensors that require grad go through the torch.library custom op "
        "(tessel.torch_ops), which records the backward kernels.")
