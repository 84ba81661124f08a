"""tessel.ops.fused_linear_cross_entropy's forward and backward: Liger-Kernel's chunked
algorithm on the gemm, gemm_residual, cross_entropy and cross_entropy_backward kernels."""

from . import kernels as _k
from ._arrays import describe, is_torch
from ._common import _contiguous, _empty, _float, _rows, _same

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
        _k.launch(ce, m, loss_c, lc, tc, vocab, vocab, int(ignore_index), 0.0, 0.0)
        losses[r0:r0 + m] = loss_c[:m]
        if not grads:
            continue
        _k.launch(ce_grad, m, lc, lc, tc, g, vocab, vocab, vocab, int(ignore_index), 1, 0.0, 0.0)
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
