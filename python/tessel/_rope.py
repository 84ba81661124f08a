"""tessel.ops.rope and its backward: Hugging Face's rotary position embedding on the rope kernel
(dsl/kernels/rope.cpp)."""

from . import kernels as _k
from ._arrays import describe, is_torch
from ._common import _contiguous, _empty, _float, _same

# The f32 tables last made from a torch table (the converted cos or sin, and the backward's
# transposed sin), so that the layers of one model step, which share one cos and one sin, convert
# them once: {(name, transpose): (weak reference to the table, its version counter, the f32
# table)}. A table that died or was written since (its _version moved) misses.
_tables = {}


def _cached_table(t, name, transpose):
    hit = _tables.get((name, transpose))
    if hit is not None and hit[0]() is t and hit[1] == t._version:
        return hit[2]
    return None


def _remember_table(t, name, transpose, table):
    import weakref
    _tables[(name, transpose)] = (weakref.ref(t), t._version, table)


def _kernel_table(t, transpose, D):
    """The table as the kernels take it: f32, contiguous; `transpose`: the backward's sin."""
    if is_torch(t):
        t = t.float()
    else:
        import numpy as np
        t = np.asarray(t, dtype=np.float32)
    if transpose:
        # The transpose: d1 c1 + d2 s2 and d2 c2 - d1 s1, the forward's formula on
        # sin' = -[sin2, sin1] (-sin when the halves are equal, a rotation by -angle).
        h = D // 2
        t = -(t[..., list(range(h, D)) + list(range(h))])
    return _contiguous(t)


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
    described = []
    for t, name in ((cos, "cos"), (sin, "sin")):
        td = _float(t, name, op)
        if (td.device, td.device_index) != (qd.device, qd.device_index):
            raise ValueError(f"{op}: {name} is on {td.device} but q is on {qd.device}")
        if len(td.shape) != 3 or td.shape[0] not in (1, B) or td.shape[1:] != (S, D):
            raise ValueError(f"{op}: {name} has shape {tuple(td.shape)}, expected (1 or {B}, "
                             f"{S}, {D})")
        described.append(td)
    flat = _rope_flat(q, k, cos, sin, qd, described, backward)
    if flat is not None:
        return flat
    tables = []
    for t, name in ((cos, "cos"), (sin, "sin")):
        transpose = name == "sin" and backward
        table = _cached_table(t, name, transpose) if is_torch(t) else None
        if table is None:
            table = _kernel_table(t, transpose, D)
            if is_torch(t):
                _remember_table(t, name, transpose, table)
        tables.append(table)
    c, s = tables
    HK = kd.shape[1]
    strides = (S, HQ, HK, HQ * S * D, D, S * D, HK * S * D, D, S * D,
               0 if describe(c, "cos").shape[0] == 1 else S * D, D, D // 2)
    fits = (lambda cfg: cfg["HALF"] * 2 == D and cfg["BLOCK_H"] >= max(HQ, HK))
    # The fewest masked heads, then the fewest warps (4 for 32 heads among the library's).
    prefer = (lambda cfg: (cfg["BLOCK_H"], cfg["num_warps"]))
    qc, kc = _contiguous(q), _contiguous(k)
    try:  # by blocks of tokens: each head's (block, D) rows are one contiguous run in (B, H, S, D)
        v = _k.choose_tuned("rope_seq_out", qd.dtype, qd.device, {"n_qh": HQ, "n_kh": HK},
                            valid=(lambda cfg: cfg["HALF"] * 2 == D), key=(D,))
    except LookupError:
        v = None
    if v is not None:
        qo, ko = _empty(q, tuple(qd.shape), qd.dtype), _empty(k, tuple(kd.shape), kd.dtype)
        _k.launch(v, (-(-S // v.config["BLOCK_S"]), B), qo, ko, qc, kc, c, s, *strides)
        return qo, ko
    try:  # rope_out reads q and k once and writes new tensors: half the traffic of copy + rope
        v = _k.choose("rope_out", qd.dtype, qd.device, valid=fits, prefer=prefer,
                      key=(D, max(HQ, HK)))
    except LookupError:
        v = None
    if v is not None:
        qo, ko = _empty(q, tuple(qd.shape), qd.dtype), _empty(k, tuple(kd.shape), kd.dtype)
        _k.launch(v, B * S, qo, ko, qc, kc, c, s, *strides)
        return qo, ko
    # In place, on copies.
    qo, ko = (a.clone() if is_torch(a) else a.copy() for a in (qc, kc))
    v = _k.choose("rope", qd.dtype, qd.device, valid=fits, prefer=prefer, key=(D, max(HQ, HK)))
    _k.launch(v, B * S, qo, ko, c, s, *strides)
    return qo, ko


def _rope_flat(q, k, cos, sin, qd, tables, backward):
    """q and k rotated by `rope_flat`, one launch each, on the tables as given, when they are
    in q's dtype (their rows read again by every head, at half the bytes of f32 tables) and a
    variant has HALF = D / 2; else None. The backward is the same kernel with sin_sign = -1 and
    the sin halves swapped (the transpose)."""
    if any(t.dtype != qd.dtype for t in tables) or tables[0].shape[0] != tables[1].shape[0]:
        return None
    B, _, S, D = qd.shape
    try:
        v = _k.choose_tuned("rope_flat", qd.dtype, qd.device, {"seq_len": S},
                            valid=(lambda cfg: cfg["HALF"] * 2 == D), key=(D,))
    except LookupError:
        return None
    c, s = _contiguous(cos), _contiguous(sin)
    h = D // 2
    first, second, sign = (h, 0, -1.0) if backward else (0, h, 1.0)
    cb = 0 if tables[0].shape[0] == 1 else S * D
    outs = []
    for x in (q, k):
        xc = _contiguous(x)
        H = xc.shape[1]
        o = _empty(x, tuple(xc.shape), qd.dtype)
        _k.launch(v, (-(-S // v.config["BLOCK_S"]), H, B), o, xc, c, s, S, H * S * D, S * D, D,
                  cb, D, h, first, second, sign)
        outs.append(o)
    return tuple(outs)


def _rope(q, k, cos, sin):
    """Rotary position embedding of q and k (rotate-half, as Hugging Face's
    apply_rotary_pos_emb): q * cos + rotate_half(q) * sin, and k likewise, computed in f32.
    q: (B, HQ, S, D), k: (B, HK, S, D); cos, sin: (1 or B, S, D). Returns new (q, k); the
    inputs are not modified. Kernel `rope_flat` (HALF = D / 2) when cos and sin are in q's
    dtype, else `rope_seq_out` (f32 tables made from them), `rope_out` or `rope` (HALF = D / 2,
    BLOCK_H >= the head counts)."""
    return _rope_apply(q, k, cos, sin, False, "rope")


def rope_backward(dq, dk, cos, sin):
    """Gradients of rope(q, k, cos, sin) with respect to q and k: the same kernel on the
    transposed tables (cos, -[sin's second half, its first half]); with equal halves, as
    Hugging Face's, the rotation by -angle."""
    return _rope_apply(dq, dk, cos, sin, True, "rope_backward")
