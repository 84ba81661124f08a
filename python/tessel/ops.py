"""Forward and backward ops on NumPy arrays (the interpreter) and torch tensors (CPU: the
interpreter; CUDA: the GPU, on torch's current stream), backed by dsl/kernels.

Shapes: the norms and cross_entropy treat every leading dimension as rows ((batch, seq, hidden)
is batch*seq rows of hidden); swiglu and geglu are element-wise over any shape. Outputs have the input's
dtype and device and a contiguous layout.

Non-contiguous inputs: cross_entropy passes the logits' row stride to its kernels (a row-strided
view such as logits[:, :V] is not copied), and so does matmul (both operands' strides; on a GPU
it copies an operand that TMA cannot read, tessel/_matmul.py); the norms and swiglu copy an input that is not
contiguous (or not 16-byte aligned) into a contiguous buffer first, because their kernels take one
stride for input and output. Errors: TypeError for a wrong dtype or argument type, ValueError for
mismatched shapes or devices, LookupError when no compiled variant fits.
"""

import sys

from . import kernels as _k
from ._arrays import _TorchArray, describe, is_torch
from ._common import (_NUMPY_NAMES, _contiguous, _empty, _float, _launched, _one_block_or_looped,
                      _programs, _row_block_variant, _rows, _rows_variant, _same, _torch_alike,
                      _torch_norm_inputs, _variant_programs_per_sm, _vector)
from ._linear_cross_entropy import _grad_scale, fused_linear_cross_entropy_forward_backward
from ._matmul import _matmul
from ._rope import _rope, rope_backward


# ---------------------------------------------------------------- RMSNorm


def _norm_forward_inputs(op, x, weight):
    """A norm's checked inputs: (x's description, x as (rows, cols), rows, cols, weight)."""
    fast = _torch_norm_inputs(x, weight)
    if fast is not None:
        xd, x2, _, rows, cols, w = fast
        return xd, x2, rows, cols, w
    xd = _float(x, "x", op)
    if not xd.shape:
        raise ValueError(f"{op}: x must have at least one dimension")
    x2, rows, cols = _rows(x)
    return xd, x2, rows, cols, _vector(weight, "weight", op, cols, xd)


def rms_norm_forward(x, weight, eps=1e-6, residual=None):
    """RMSNorm over the last dimension, x / sqrt(mean(x^2) + eps) * weight in f32, with the
    statistic its backward takes: (out, rstd), or (out, s, rstd) with `residual`. rstd =
    1 / sqrt(mean(x^2) + eps) is f32 of shape x.shape[:-1] (of s's rows with a residual).

    x: (..., H) f32/f16/bf16; weight: (H,) same dtype and device. With `residual` (x's shape):
    s = x + residual (rounded to the dtype) is normalized, s being the next layer's residual;
    `residual` itself is not modified."""
    op = "rms_norm"
    xd, x2, rows, cols, w = _norm_forward_inputs(op, x, weight)
    out = _empty(x, xd.shape, xd.dtype)  # contiguous: the kernel's (rows, cols) as x's shape
    rstd = _empty(x, tuple(xd.shape[:-1]), "f32")
    if residual is None:
        v = _rows_variant("rmsnorm_rows", xd.dtype, xd.device, cols)
        if v is not None:
            _k.launch(v, -(-rows // v.config["ROWS"]), out, rstd, x2, w, cols, rows, cols,
                      float(eps))
            return out, rstd
        v = _one_block_or_looped("rmsnorm", "rmsnorm_looped", xd.dtype, xd.device, cols)
        _k.launch(v, rows, out, rstd, x2, w, cols, cols, float(eps))
        return out, rstd
    rd = _float(residual, "residual", op)
    _same(op, xd, rd)
    if tuple(rd.shape) != tuple(xd.shape):
        raise ValueError(f"{op}: residual has shape {tuple(rd.shape)} but x has "
                         f"{tuple(xd.shape)}")
    res = _empty(x, xd.shape, xd.dtype)
    try:  # the sum into a new buffer, the caller's residual only read
        v = _one_block_or_looped("add_rmsnorm_out", None, xd.dtype, xd.device, cols)
    except LookupError:  # no block holds the row: a copy, then the in-place kernel on it
        v = None
    if v is not None:
        _k.launch(v, rows, out, res, rstd, x2, _rows(residual)[0], w, cols, cols, float(eps))
        return out, res, rstd
    res[...] = residual
    v = _one_block_or_looped("add_rmsnorm", "add_rmsnorm_looped", xd.dtype, xd.device, cols)
    _k.launch(v, rows, out, rstd, x2, res, w, cols, cols, float(eps))
    return out, res, rstd


def _rms_norm(x, weight, eps=1e-6, residual=None):
    """RMSNorm over the last dimension: x / sqrt(mean(x^2) + eps) * weight, in f32.

    x: (..., H) f32/f16/bf16; weight: (H,) same dtype and device. With `residual` (x's shape):
    s = x + residual (rounded to the dtype) is normalized and (out, s) is returned, s being the
    next layer's residual; `residual` itself is not modified. Returns out (x's shape)."""
    r = rms_norm_forward(x, weight, eps, residual)
    return r[0] if residual is None else (r[0], r[1])


def _norm_backward_inputs(op, kernel, dy, x, weight):
    """The checked inputs of a norm's backward and its launch: (x's description, x and dy as
    rows, weight, dx (x's shape, contiguous), rows, cols, the variant of `kernel`
    (_row_block_variant), programs, rows per program). The programs fill the GPU
    (_num_programs), so that each SM has rows of several programs in flight."""
    fast = _torch_norm_inputs(x, weight, dy)
    if fast is not None:
        xd, x2, g2, rows, cols, w = fast
    else:
        xd, gd = _float(x, "x", op), _float(dy, "dy", op)
        _same(op, xd, gd)
        if tuple(gd.shape) != tuple(xd.shape):
            raise ValueError(f"{op}: dy has shape {tuple(gd.shape)} but x has "
                             f"{tuple(xd.shape)}")
        x2, rows, cols = _rows(x)
        g2 = _rows(dy)[0]
        w = _vector(weight, "weight", op, cols, xd)
    dx = _empty(x, xd.shape, xd.dtype)
    # The choice depends on cols and on which twin's promises rows keeps: remembered by those,
    # with the launched binary's programs per SM. Short rows take the *_rows_backward kernel
    # (ROWS rows per step; same arguments), as the forward takes *_rows.
    memo = ("norm_backward", kernel, xd.dtype, xd.device, cols, rows % 16, rows == 1)
    v, per_sm = _k._chosen.get(memo) or (None, None)
    if isinstance(v, LookupError) and _k._index is not None:
        raise LookupError(*v.args)  # remembered: rms_norm_backward's ds falls back on it
    if v is None or isinstance(v, LookupError) or _k._index is None:
        scalars = {"stride": cols, "n_rows": rows, "n_cols": cols}
        v = _rows_variant(kernel.replace("_backward", "_rows_backward"), xd.dtype, xd.device,
                          cols)
        if v is None:  # the tuning cache's, else by programs per SM
            v = _k.tuned(kernel, xd.dtype, xd.device, {"n_cols": cols},
                         valid=lambda c: c.get("BLOCK", 0) >= cols)
        if v is None:
            try:
                v = _row_block_variant(kernel, xd.dtype, xd.device, cols, scalars)
            except LookupError as e:
                _k._chosen[memo] = (LookupError(*e.args), None)
                raise
        per_sm = _variant_programs_per_sm(_launched(v, scalars))
        _k._chosen[memo] = (v, per_sm)
    programs, per = _programs(x, rows, per_sm)
    step = v.config.get("ROWS", 1)
    if step > 1 and rows:  # whole steps of ROWS rows per program
        per = -(-per // step) * step
        programs = -(-rows // per)
    return xd, x2, g2, w, dx, rows, cols, v, programs, per


def _partial_group(programs, cols, block=32):
    """Rows of a (programs, cols) partial-sum buffer that _reduce_partials' first pass adds
    together (a power of two; 1: one pass). A tall, narrow buffer (the short rows' backward:
    4096 programs of 128 columns) would leave the column sum a handful of programs of `block`
    columns (4 on the H200, about 25 us), so it is first viewed as (programs / k, k * cols):
    k interleaved groups of rows summed by about 256 programs of at least 64 rows each."""
    k = 1
    while k * 2 * 64 <= programs and k * cols < 256 * block:
        k *= 2
    return k if k >= 4 else 1


def _partials(x, programs, cols):
    """The f32 buffer of a norm backward's per-program partial sums: `programs` rows of `cols`,
    padded with zero rows to a multiple of _partial_group's (the kernel writes the others)."""
    k = _partial_group(programs, cols)
    rows = -(-max(programs, 1) // k) * k
    buf = _empty(x, (rows, cols), "f32")
    if rows > programs:
        buf[programs:] = 0
    return buf


def _reduce_partials(x, xd, partial, programs, cols):
    """The (cols,) sum of a partial-sum buffer from _partials, in x's dtype (rmsnorm_dw_reduce;
    a tall one in two passes, the first in f32: _partial_group)."""
    out = _empty(x, (cols,), xd.dtype)
    r = _k.choose("rmsnorm_dw_reduce", xd.dtype, xd.device, key=())
    k = _partial_group(programs, cols)
    if k > 1:
        r32 = _k.choose("rmsnorm_dw_reduce", "f32", xd.device, key=())
        mid = _empty(x, (k * cols,), "f32")
        rows = partial.shape[0]
        _k.launch(r32, -(-(k * cols) // r32.config["BLOCK"]), mid, partial, rows // k, k * cols)
        partial, programs = mid, k
    _k.launch(r, -(-cols // r.config["BLOCK"]), out, partial, programs, cols)
    return out


def rms_norm_backward(dy, x, weight, rstd, ds=None):
    """Gradients of rms_norm(x, weight): (dx (x's shape), dweight (H,)), from the forward's rstd
    (rms_norm_forward; with a residual, x is the sum s it normalized).

    dx in one pass per row (rmsnorm_backward; rows of up to 512 columns several per step,
    rmsnorm_rows_backward); dweight from per-program partial sums in f32 (as many programs as
    fit on the GPU at once) added by rmsnorm_dw_reduce (in two passes for a tall buffer:
    _partial_group). With `ds` (x's shape and dtype: the gradient that reached the residual sum
    s from the next layer), dx = the norm's dx + ds, added before rounding by the same kernel
    (add_rmsnorm_backward, add_rmsnorm_rows_backward; where none of its blocks holds the row,
    the library's past 8192 columns, rmsnorm_backward and then dx += ds). H <= 16384."""
    op = "rms_norm_backward"
    fused = ds is not None
    if fused:
        # A torch ds like x (the autograd case) passes in two reads; anything else is described.
        if not (is_torch(ds) and is_torch(x) and ds.dtype is x.dtype and ds.device == x.device
                and ds.shape == x.shape):
            sd = _float(ds, "ds", op)
            _same(op, _float(x, "x", op), sd)
            if tuple(sd.shape) != tuple(x.shape):
                raise ValueError(f"{op}: ds has shape {tuple(sd.shape)} but x has "
                                 f"{tuple(x.shape)}")
        try:
            inputs = _norm_backward_inputs(op, "add_rmsnorm_backward", dy, x, weight)
        except LookupError:  # no add_rmsnorm_backward block holds the row: ds added after
            fused = False
    if not fused:
        inputs = _norm_backward_inputs(op, "rmsnorm_backward", dy, x, weight)
    xd, x2, g2, w, dx, rows, cols, v, programs, per = inputs
    rstd = _row_stats(rstd, "rstd", op, xd)
    partial = _partials(x, programs, cols)
    if fused:
        _k.launch(v, programs, dx, partial, g2, _rows(ds)[0], x2, w, rstd, cols, rows, cols, per)
    else:
        _k.launch(v, programs, dx, partial, g2, x2, w, rstd, cols, rows, cols, per)
        if ds is not None:
            dx += ds
    return dx, _reduce_partials(x, xd, partial, programs, cols)


# ---------------------------------------------------------------- LayerNorm


def layer_norm_forward(x, weight, bias=None, eps=1e-5):
    """LayerNorm over the last dimension (biased variance), in f32, with the statistics its
    backward takes (as PyTorch's native_layer_norm): (out, mean, rstd), out = (x - mean) * rstd
    * weight + bias in x's shape and dtype, mean and rstd = 1 / sqrt(var + eps) f32 of shape
    x.shape[:-1]. x: (..., H); weight, bias: (H,) (bias None: zeros)."""
    op = "layer_norm"
    xd, x2, rows, cols, w = _norm_forward_inputs(op, x, weight)
    if bias is None:
        b = _empty(x, (cols,), xd.dtype)
        b[...] = 0
    else:
        b = _vector(bias, "bias", op, cols, xd)
    out = _empty(x, xd.shape, xd.dtype)
    mean = _empty(x, tuple(xd.shape[:-1]), "f32")
    rstd = _empty(x, tuple(xd.shape[:-1]), "f32")
    v = _rows_variant("layernorm_rows", xd.dtype, xd.device, cols)
    if v is not None:
        _k.launch(v, -(-rows // v.config["ROWS"]), out, mean, rstd, x2, w, b, cols, rows, cols,
                  float(eps))
        return out, mean, rstd
    v = _one_block_or_looped("layernorm", "layernorm_looped", xd.dtype, xd.device, cols)
    _k.launch(v, rows, out, mean, rstd, x2, w, b, cols, cols, float(eps))
    return out, mean, rstd


def _layer_norm(x, weight, bias=None, eps=1e-5):
    """LayerNorm over the last dimension (biased variance), in f32: (x - mean) / sqrt(var +
    eps) * weight + bias. x: (..., H); weight, bias: (H,) (bias None: zeros)."""
    return layer_norm_forward(x, weight, bias, eps)[0]


def _row_stats(a, name, op, xd):
    """A per-row f32 statistic of x (mean or rstd: x.shape[:-1] elements, from
    rms_norm_forward or layer_norm_forward), checked against x's description and made
    contiguous."""
    d = describe(a, name)
    if d.dtype != "f32":
        raise TypeError(f"{op}: {name} must be float32 (the forward's), got {d.dtype}")
    if (d.device, d.device_index) != (xd.device, xd.device_index):
        raise ValueError(f"{op}: {name} is on {d.device}:{d.device_index} but x is on "
                         f"{xd.device}:{xd.device_index}")
    if tuple(d.shape) != tuple(xd.shape[:-1]):
        raise ValueError(f"{op}: {name} has shape {tuple(d.shape)}, expected "
                         f"{tuple(xd.shape[:-1])} (x's shape without its last dimension)")
    return _contiguous(a)


def layer_norm_backward(dy, x, weight, mean, rstd):
    """Gradients of layer_norm(x, weight, bias): (dx (x's shape), dweight (H,), dbias (H,)),
    from the forward's mean and rstd (layer_norm_forward). As rms_norm_backward: dx in one pass
    per row, dweight and dbias from per-program f32 partial sums added by rmsnorm_dw_reduce.
    H <= 8192 with the library's kernels (16384 with benchmarks/gpu/prepare.sh's sm_90a ones)."""
    op = "layer_norm_backward"
    xd, x2, g2, w, dx, rows, cols, v, programs, per = _norm_backward_inputs(
        op, "layernorm_backward", dy, x, weight)
    mean = _row_stats(mean, "mean", op, xd)
    rstd = _row_stats(rstd, "rstd", op, xd)
    dw_partial = _partials(x, programs, cols)
    db_partial = _partials(x, programs, cols)
    _k.launch(v, programs, dx, dw_partial, db_partial, g2, x2, w, mean, rstd, cols, rows, cols,
              per)
    return (dx, _reduce_partials(x, xd, dw_partial, programs, cols),
            _reduce_partials(x, xd, db_partial, programs, cols))


# ---------------------------------------------------------------- SwiGLU


def _glu_inputs(op, gate, up, dout=None):
    """(gate's description, gate, up, dout), checked and contiguous (dout None when not
    given): gate and up, then dout against gate."""
    fast = _torch_alike(gate, up) if dout is None else _torch_alike(gate, up, dout)
    if fast is not None:
        return _TorchArray(gate, "gate", *fast), gate, up, dout
    gd, ud = _float(gate, "gate", op), _float(up, "up", op)
    _same(op, gd, ud)
    if tuple(gd.shape) != tuple(ud.shape):
        raise ValueError(f"{op}: gate has shape {tuple(gd.shape)} but up has {tuple(ud.shape)}")
    g, u = _contiguous(gate), _contiguous(up)
    if dout is None:
        return gd, g, u, None
    dd = _float(dout, "dout", op)
    _same(op, gd, dd)
    if tuple(dd.shape) != tuple(gd.shape):
        raise ValueError(f"{op}: dout has shape {tuple(dd.shape)} but gate has "
                         f"{tuple(gd.shape)}")
    return gd, g, u, _contiguous(dout)


def _elementwise_variant(kernel, dtype, device, n):
    # The larger block when there are enough elements to fill the GPU with it.
    big = device == "cuda" and n >= 4096 * 264
    return _k.choose_tuned(kernel, dtype, device, {"n": n},
                           prefer=lambda c: -c["BLOCK"] if big else c["BLOCK"], key=big)


def _swiglu(gate, up):
    """silu(gate) * up element-wise, in f32. gate, up: the same shape, dtype and device."""
    gd, g, u, _ = _glu_inputs("swiglu", gate, up)
    out = _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = _elementwise_variant("swiglu", gd.dtype, gd.device, n)
    _k.launch(v, -(-n // v.config["BLOCK"]), out, g, u, n)
    return out


def _glu_backward(op, dout, gate, up, variant):
    """(dgate, dup) of a GLU backward kernel (dgate, dup, dout, gate, up, n), `variant(dtype,
    device, n)` choosing its variant; dout must match gate."""
    gd, g, u, d = _glu_inputs(op, gate, up, dout)
    dgate, dup = _empty(gate, gd.shape, gd.dtype), _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = variant(gd.dtype, gd.device, n)
    _k.launch(v, -(-n // v.config["BLOCK"]), dgate, dup, d, g, u, n)
    return dgate, dup


def swiglu_backward(dout, gate, up):
    """Gradients of swiglu(gate, up): (dgate, dup), each of gate's shape."""
    return _glu_backward("swiglu_backward", dout, gate, up,
                         lambda dt, dev, n: _elementwise_variant("swiglu_backward", dt, dev, n))


def _geglu_variant(kernel, dtype, device, n, approximate):
    if approximate not in ("none", "tanh"):
        raise ValueError(f"{kernel}: approximate must be 'none' or 'tanh', got {approximate!r}")
    big = device == "cuda" and n >= 4096 * 264
    return _k.choose_tuned(kernel, dtype, device, {"n": n},
                           valid=lambda c: c.get("approximate", "none") == approximate,
                           prefer=lambda c: -c["BLOCK"] if big else c["BLOCK"],
                           key=(approximate, big))


def _geglu(gate, up, approximate="none"):
    """gelu(gate) * up element-wise, in f32: the exact GELU (erf) or, with approximate="tanh",
    its tanh approximation (PyTorch's F.gelu approximate argument). Shapes as swiglu."""
    gd, g, u, _ = _glu_inputs("geglu", gate, up)
    out = _empty(gate, gd.shape, gd.dtype)
    n = gd.numel
    v = _geglu_variant("geglu", gd.dtype, gd.device, n, approximate)
    _k.launch(v, -(-n // v.config["BLOCK"]), out, g, u, n)
    return out


def geglu_backward(dout, gate, up, approximate="none"):
    """Gradients of geglu(gate, up, approximate): (dgate, dup), each of gate's shape."""
    return _glu_backward("geglu_backward", dout, gate, up,
                         lambda dt, dev, n: _geglu_variant("geglu_backward", dt, dev, n,
                                                           approximate))


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


def _ce_terms(op, label_smoothing, z_loss):
    """label_smoothing in [0, 1] and a finite z_loss, as Python floats (the kernels' f32)."""
    import math
    for name, value in (("label_smoothing", label_smoothing), ("z_loss", z_loss)):
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError(f"{op}: {name} must be a float, got {type(value).__name__}")
    if not 0.0 <= label_smoothing <= 1.0:
        raise ValueError(f"{op}: label_smoothing must be in [0, 1], got {label_smoothing}")
    if not math.isfinite(z_loss):
        raise ValueError(f"{op}: z_loss must be finite, got {z_loss}")
    return float(label_smoothing), float(z_loss)


def _cross_entropy(logits, target, reduction="mean", ignore_index=-100, label_smoothing=0.0,
                   z_loss=0.0):
    """Cross-entropy of logits (N, V) or (B, T, V) against int64 class indices (N) or (B, T),
    computed per row in f32 with an online softmax. reduction: "none" (per row, 0 for ignored
    rows, f32, the target's shape), "mean" (over the rows whose target != ignore_index; NaN
    when there are none, as PyTorch) or "sum"; the reduced loss has the logits' dtype.

    label_smoothing eps in [0, 1] and z_loss z (finite; PaLM uses 1e-4), Liger-Kernel's
    label_smoothing and lse_square_scale: each non-ignored row's loss, with lse = logsumexp(logits[row]) and V
    classes, is (1 - eps) * (lse - logits[row, target]) + eps * (lse - sum(logits[row]) / V)
    + z * lse**2, PyTorch's F.cross_entropy(label_smoothing=eps) (eps times the cross-entropy
    against the uniform distribution) plus PaLM's z-loss, reduced like the plain loss (the mean
    averages the z-loss over the non-ignored rows too). eps = z = 0 is the plain loss."""
    op = "cross_entropy"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    eps, z = _ce_terms(op, label_smoothing, z_loss)
    ld, l2, stride, t, rows, cols = _ce_inputs(op, logits, target)
    loss = _empty(logits, (rows,), "f32")
    v = _k.choose_tuned("cross_entropy", ld.dtype, ld.device, {"n_cols": cols})
    _k.launch(v, rows, loss, l2, t, stride, cols, int(ignore_index), eps, z)
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


def cross_entropy_backward(dloss, logits, target, reduction="mean", ignore_index=-100,
                           label_smoothing=0.0, z_loss=0.0):
    """Gradient of cross_entropy(logits, target, reduction, ignore_index, label_smoothing,
    z_loss) with respect to the logits, given dloss (a scalar for mean/sum, the per-row losses'
    shape for none): dlogits, contiguous, of the logits' shape and dtype; per non-ignored row
    (softmax * (1 + 2 * z * lse) - (1 - eps) * onehot(target) - eps / V) * g, with g the row's
    upstream gradient (dloss / n_valid for the mean), 0 for ignored rows. The mean's 1 / n_valid
    is applied to dloss on the device, so nothing waits for the host."""
    op = "cross_entropy_backward"
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"{op}: reduction must be 'none', 'mean' or 'sum', got {reduction!r}")
    eps, z = _ce_terms(op, label_smoothing, z_loss)
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
                  valid=lambda c: c.get("reduction") == mode, key=mode)
    _k.launch(v, rows, dlogits, l2, t, g, stride, cols, cols, int(ignore_index), 1, eps, z)
    return dlogits.reshape(tuple(ld.shape))


def cross_entropy_forward_backward(logits, target, reduction="mean", ignore_index=-100,
                                   label_smoothing=0.0, z_loss=0.0):
    """cross_entropy(logits, target, reduction, ignore_index, label_smoothing, z_loss) and its
    gradient with respect to the logits for an upstream gradient of 1, in one kernel
    (cross_entropy_fused, as Liger-Kernel's cross-entropy kernel computes both): (loss,
    dlogits). reduction "mean" or "sum" (the loss as cross_entropy's: a 0-d array of the
    logits' dtype); dlogits is new and contiguous, of the logits' shape and dtype, equal to
    cross_entropy_backward(1, ...). The kernel reads each row twice, the second time mostly
    from L2, and writes its gradient once: where cross_entropy then cross_entropy_backward read
    the logits from memory twice. What tessel.torch_ops' eager autograd runs for mean and sum."""
    op = "cross_entropy"
    if reduction not in ("mean", "sum"):
        raise ValueError(f"{op}: the gradient in the forward takes reduction 'mean' or 'sum', "
                         f"got {reduction!r} (use cross_entropy and cross_entropy_backward)")
    eps, z = _ce_terms(op, label_smoothing, z_loss)
    ld, l2, stride, t, rows, cols = _ce_inputs(op, logits, target)
    g = _grad_scale(t, ignore_index, reduction)
    loss = _empty(logits, (rows,), "f32")
    lse = _empty(logits, (rows,), "f32")
    dlogits = _empty(logits, (rows, cols), ld.dtype)
    # The block nearest 8192: 8192 on 16 warps, 0.446 ms against 0.457 for 4096 on 8 at
    # 2048x128256 out of place on the benchmark GPU, 0.473 for 16384 on 32 and 0.622 for 32768 (which
    # spills; results/2026-12-03-h200-s37, calls 1 and 3), and 79 against 93 us for 4096 at 256
    # rows (2026-12-03-h200-s33). lse is the kernel's output for fused linear cross-entropy's
    # second pass; unused here.
    v = _k.choose("cross_entropy_fused", ld.dtype, ld.device,
                  prefer=lambda c: abs(c["BLOCK"] - 8192), key="near 8192")
    _k.launch(v, rows, loss, lse, dlogits, l2, t, g, stride, cols, cols, int(ignore_index), eps,
              z)
    if is_torch(loss):
        total = (loss.sum() * g[0]).to(logits.dtype)
    else:
        import numpy as np
        with np.errstate(invalid="ignore"):  # 0 * inf when every row is ignored: NaN
            total = (loss.sum() * g[0]).astype(_NUMPY_NAMES[ld.dtype])
    return total, dlogits.reshape(tuple(ld.shape))


# ---------------------------------------------------------------- autograd routing


def _autograd(*tensors):
    """Whether torch should record the op: a tensor that requires grad, with grad enabled."""
    torch = sys.modules.get("torch")
    if torch is None or not torch.is_grad_enabled():
        return False
    for t in tensors:
        if t is not None and is_torch(t) and t.requires_grad:
            return True
    return False


_torch_ops_module = None


def _torch_ops():
    """tessel.torch_ops, imported on the first call that records autograd (an import
    statement per call costs a microsecond)."""
    global _torch_ops_module
    if _torch_ops_module is None:
        from . import torch_ops
        _torch_ops_module = torch_ops
    return _torch_ops_module


def rms_norm(x, weight, eps=1e-6, residual=None):
    if _autograd(x, weight, residual):
        return _torch_ops().rms_norm(x, weight, eps, residual)
    return _rms_norm(x, weight, eps, residual)


def layer_norm(x, weight, bias=None, eps=1e-5):
    if _autograd(x, weight, bias):
        return _torch_ops().layer_norm(x, weight, bias, eps)
    return _layer_norm(x, weight, bias, eps)


def swiglu(gate, up):
    if _autograd(gate, up):
        return _torch_ops().swiglu(gate, up)
    return _swiglu(gate, up)


def geglu(gate, up, approximate="none"):
    if _autograd(gate, up):
        return _torch_ops().geglu(gate, up, approximate)
    return _geglu(gate, up, approximate)


def rope(q, k, cos, sin):
    if _autograd(q, k):
        return _torch_ops().rope(q, k, cos, sin)
    return _rope(q, k, cos, sin)


def fused_linear_cross_entropy(x, weight, target, ignore_index=-100, reduction="mean",
                               chunk_rows=None):
    """cross_entropy(x @ weight.T, target, reduction, ignore_index) without the (N, V) logits
    (fused_linear_cross_entropy_forward_backward): the loss, a 0-d f32 array. torch tensors
    that require grad go through the custom op tessel::fused_linear_cross_entropy, which
    computes grad_x and grad_weight with the loss, as Liger-Kernel does, and scales them by the
    upstream gradient in the backward."""
    if _autograd(x, weight):
        return _torch_ops().fused_linear_cross_entropy(x, weight, target, ignore_index,
                                                       reduction, chunk_rows)
    return fused_linear_cross_entropy_forward_backward(x, weight, target, ignore_index,
                                                       reduction, chunk_rows, grads=False)[0]


def matmul(a, b):
    """c (M, N) = a (M, K) @ b (K, N), accumulated in f32, rounded once to the inputs' dtype.

    a, b: 2-D, one float dtype (f32, f16, bf16) and device, any strides (b as a weight's
    transpose, W.T of an (N, K) W, is read in place). c is new and contiguous. On a GPU:
    gemm_block_ptr's TMA twins, gemm_split_k for decode shapes, and a padded copy of an operand
    that TMA cannot read in place (tessel/_matmul.py says when). Forward only: tensors that
    require grad raise NotImplementedError (use torch.matmul there, or torch.no_grad())."""
    if _autograd(a, b):
        raise NotImplementedError("tessel.ops.matmul has no backward: call it under "
                                  "torch.no_grad() or use torch.matmul for training")
    return _matmul(a, b)


def cross_entropy(logits, target, reduction="mean", ignore_index=-100, label_smoothing=0.0,
                  z_loss=0.0):
    if _autograd(logits):
        return _torch_ops().cross_entropy(logits, target, reduction, ignore_index,
                                          label_smoothing, z_loss)
    return _cross_entropy(logits, target, reduction, ignore_index, label_smoothing, z_loss)


for _public, _private in ((rms_norm, _rms_norm), (layer_norm, _layer_norm),
                          (swiglu, _swiglu), (geglu, _geglu), (cross_entropy, _cross_entropy),
                          (rope, _rope)):
    _public.__doc__ = _private.__doc__ + (
        "\n\n    torch tensors that require grad go through the torch.library custom op "
        "(tessel.torch_ops), which records the backward kernels.")
