"""tessel.ops.fused_linear_cross_entropy's forward and backward: Liger-Kernel's chunked
algorithm on the gemm, gemm_residual, cross_entropy and cross_entropy_backward kernels."""

from . import kernels as _k
from ._arrays import describe, is_torch
from ._common import _contiguous, _empty, _float, _rows, _same, _sm_count

def _slots(like):
    """SMs of a CUDA tensor's GPU (_sm_count); 8, the interpreter's threads, otherwise."""
    return _sm_count(like.device) if is_torch(like) and like.is_cuda else 8


def _tiles(v, m, n):
    return -(-m // v.config["BLOCK_M"]) * -(-n // v.config["BLOCK_N"])


def _gemm_variant(kernels, dtype, device, layout, m, n, sms):
    """A plain variant (no bias, no activation) of the first of `kernels` that is compiled, for
    an (m, n) product with operands in `layout` ("nt": A and B contiguous along K, "nn": A
    along K and B along N, "tn": A along M and B along N). In order: one with a twin for that
    layout (prepare.sh's TMA or cp.async twins), whose tiles fill the `sms` SMs (sms=0: any),
    the widest tile, the deepest pipeline."""
    def plain(c):
        return not c.get("HAS_BIAS") and c.get("ACT", "none") == "none"
    best, best_key = None, None
    for rank, kernel in enumerate(kernels):
        for v in _k.variants(kernel, dtype, device):
            if not plain(v.config):
                continue
            has_twin = any(t.name == f"{v.name}__{layout}" for t in v.twins)
            key = (not has_twin, rank, _tiles(v, m, n) < sms,
                   -v.config["BLOCK_M"] * v.config["BLOCK_N"], -v.config.get("num_stages", 0))
            if best_key is None or key < best_key:
                best, best_key = v, key
    if best is None:  # says how to compile one
        return _k.choose(kernels[-1], dtype, device, valid=plain)
    return best


def _matmul(v, a, b, c, m, n, k, sa, sb, sc, residual=None, sr=(0, 0)):
    """c (m, n) = a (m, k) @ b (k, n) [+ residual], each operand given as an array whose first
    element is the matrix's and its (row, column) strides in elements."""
    args = [a, b, c, c] + ([residual] if residual is not None else [])
    args += [m, n, k, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1]]
    args += list(sr) if residual is not None else []
    _k.launch(v, _tiles(v, m, n), *args)


class _SplitK:
    """c (m, n) = a @ b through gemm_split_k, for products whose tiles leave SMs idle (grad_x:
    (chunk, H) with K = V): about two programs per SM, K cut into `splits` slices reduced in
    order (deterministic) through an f32 workspace; the locks are zero between launches."""

    def __init__(self, variant, like, m, n, k, sms):
        self.v = variant
        tiles = _tiles(variant, m, n)
        k_blocks = -(-k // variant.config["BLOCK_K"])
        self.splits = max(1, min(k_blocks, -(-2 * sms // tiles)))
        self.workspace = _empty(like, (self.splits * m * n,), "f32")
        self.locks = _empty(like, (tiles,), "i32")
        self.locks[...] = 0

    def __call__(self, a, b, c, m, n, k, sa, sb, sc):  # m <= the m it was made for
        _k.launch(self.v, (_tiles(self.v, m, n), self.splits), a, b, c, c, self.workspace,
                  self.locks, m, n, k, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1])


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
      grad_weight += dlogits.T @ x_c                  (gemm_residual, in place, from zeros)
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
    # logits = x_c @ W^T (nt), grad_x_c = dlogits @ W (nn), grad_W (+)= dlogits^T @ x_c (tn)
    sms, m0 = _slots(x), min(chunk, rows)
    gemm_nt = _gemm_variant(("gemm_block_ptr", "gemm"), dt, xd.device, "nt", m0, vocab, sms)
    # grad_x (chunk, H) has few tiles and a long K (V): the widest tile, split along K when its
    # tiles leave SMs idle (H200, chunk 256, H 4096: 64x64 tiles fill the GPU at 340 TFLOP/s,
    # where cuBLAS splits 320x128 tiles at 710).
    gemm_nn = _gemm_variant(("gemm_block_ptr", "gemm"), dt, xd.device, "nn", m0, hidden, 0)
    gemm_acc = _gemm_variant(("gemm_residual",), dt, xd.device, "tn", vocab, hidden, sms)
    grad_x_gemm = lambda *a: _matmul(gemm_nn, *a)
    if grads and _tiles(gemm_nn, m0, hidden) < sms:
        try:
            split = _gemm_variant(("gemm_split_k",), dt, xd.device, "nn", m0, hidden, 0)
            grad_x_gemm = _SplitK(split, x, m0, hidden, vocab, sms)
        except LookupError:  # not compiled (or not for this dtype): the plain GEMM
            pass
    ce = _k.choose("cross_entropy", dt, xd.device)
    ce_grad = _k.choose("cross_entropy_backward", dt, xd.device,
                        valid=lambda c: c.get("reduction") == "sum")
    losses = _empty(x, (rows,), "f32")
    grad_x = _empty(x, (rows, hidden), dt) if grads else None
    grad_w = _empty(x, (vocab, hidden), dt) if grads else None
    if grads:
        grad_w[...] = 0  # every chunk accumulates, through one kernel
    logits = _empty(x, (min(chunk, rows), vocab), dt)
    loss_c = _empty(x, (min(chunk, rows),), "f32")
    for r0 in range(0, rows, chunk):
        m = min(chunk, rows - r0)
        # Kernels take 16-byte-aligned arrays: a chunk's rows are copied when their slice of x,
        # the targets or grad_x does not start on 16 bytes.
        xc, tc, lc = _contiguous(x2[r0:r0 + m]), _contiguous(t[r0:r0 + m]), logits[:m]
        _matmul(gemm_nt, xc, w, lc, m, vocab, hidden, (hidden, 1), (1, hidden), (vocab, 1))
        _k.launch(ce, m, loss_c, lc, tc, vocab, vocab, int(ignore_index), 0.0, 0.0)
        losses[r0:r0 + m] = loss_c[:m]
        if not grads:
            continue
        _k.launch(ce_grad, m, lc, lc, tc, g, vocab, vocab, vocab, int(ignore_index), 1, 0.0, 0.0)
        gx = grad_x[r0:r0 + m]
        gxc = gx if describe(gx, "grad_x").address % 16 == 0 else _empty(x, (m, hidden), dt)
        grad_x_gemm(lc, w, gxc, m, hidden, vocab, (vocab, 1), (hidden, 1), (hidden, 1))
        if gxc is not gx:
            gx[...] = gxc
        _matmul(gemm_acc, lc, xc, grad_w, vocab, hidden, m, (1, vocab), (hidden, 1),
                (hidden, 1), residual=grad_w, sr=(hidden, 1))
    total = losses.sum()
    loss = total * g[0] if reduction == "mean" else total
    if not grads:
        return loss, None, None
    return loss, grad_x.reshape(xd.shape), grad_w
