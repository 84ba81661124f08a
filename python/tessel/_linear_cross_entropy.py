"""tessel.ops.fused_linear_cross_entropy's forward and backward: chunks of rows for the loss
and grad_x (Liger-Kernel's), then chunks of the vocabulary for grad_weight, on the gemm,
gemm_split_k, cross_entropy_fused and gemm_ce_backward kernels."""

from . import kernels as _k
from ._arrays import describe, is_torch
from ._common import _contiguous, _empty, _float, _rows, _same, _sm_count

def _slots(like):
    """SMs of a CUDA tensor's GPU (_sm_count); 8, the interpreter's threads, otherwise."""
    return _sm_count(like.device) if is_torch(like) and like.is_cuda else 8


def _tiles(v, m, n):
    return -(-m // v.config["BLOCK_M"]) * -(-n // v.config["BLOCK_N"])


def _gemm_variant(kernels, dtype, device, layout, m, n, k, sms):
    """_pick_gemm's answer, remembered per shape (kernels.remember: a LookupError too)."""
    return _k.remember(("fused_linear_cross_entropy", kernels, dtype, device, layout, m, n, k, sms),
                       lambda: _pick_gemm(kernels, dtype, device, layout, m, n, k, sms))


def _pick_gemm(kernels, dtype, device, layout, m, n, k, sms):
    """A plain variant (no bias, no activation) of the first of `kernels` that is compiled, for
    an (m, n, k) product with operands in `layout` ("nt": A and B contiguous along K, "nn": A
    along K and B along N, "tn": A along M and B along N). The tuning cache's entry for the
    shape (kernels.tuned_entry: M, N, K bucketed as the kernel declares) when one of `kernels`
    has one timed through that layout's twin, the first kernel's first; else, in order: one
    with a twin for that layout (prepare.sh's TMA or cp.async twins), then one with the rule's
    slice count (SPLIT_K = 0; a tuning directory holds each count), whose tiles fill the
    `sms` SMs (sms=0: any), the largest tile, the widest one (BLOCK_N: the long side of the
    chunks' skinny products; H200, grad_x at 256 x 4096 x 128256 split in two: 64x256 0.374 ms,
    128x128 0.404 ms), the deepest pipeline, then without the TMA-store epilogue (tma_store: no
    faster on the H200)."""
    def plain(c):
        return not c.get("HAS_BIAS") and c.get("ACT", "none") == "none"

    def twin(v):
        return f"{v.name}__{layout}"

    def has_twin(v):
        return any(t.name == twin(v) for t in v.twins)
    for kernel in kernels:  # an entry timed in this layout's twin
        hit = _k.tuned_entry(kernel, dtype, device, {"M": m, "N": n, "K": k}, valid=plain,
                             twin=layout)
        if hit is not None and has_twin(hit[0]):
            return hit[0]
    best, best_key = None, None
    for rank, kernel in enumerate(kernels):
        for v in _k.variants(kernel, dtype, device):
            if not plain(v.config):
                continue
            key = (not has_twin(v), rank, v.config.get("SPLIT_K", 0) != 0, _tiles(v, m, n) < sms,
                   -v.config["BLOCK_M"] * v.config["BLOCK_N"], -v.config["BLOCK_N"],
                   -v.config.get("num_stages", 0), bool(v.config.get("tma_store")))
            if best_key is None or key < best_key:
                best, best_key = v, key
    if best is None:  # says how to compile one
        return _k.choose(kernels[-1], dtype, device, valid=plain)
    return best


def _matmul(v, a, b, c, m, n, k, sa, sb, sc):
    """c (m, n) = a (m, k) @ b (k, n), each operand given as an array whose first element is the
    matrix's and its (row, column) strides in elements (the bias argument is c, unread)."""
    _k.launch(v, _tiles(v, m, n), a, b, c, c, m, n, k, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1])


# Split-K workspaces (f32 partials and zeroed locks), one per (device, stream), as PyTorch keeps
# cuBLAS's workspace: allocated by the first call, grown when a call needs more, and sliced for
# smaller ones (launches on one stream run in order, so two never share one at once; the
# kernel sets each lock back to zero). One per size instead would keep a buffer for every M a
# decode loop sees. The slices are kept per size too, so that a call after the first costs two
# dictionary lookups and the raw stream query on the host (a decode GEMM's kernel takes 10-20
# us: the host's share of a call is on the critical path of do_bench and of a decode step).
_workspaces = {}
_workspace_views = {}
_MAX_VIEWS = 256  # sizes remembered per process before the views are dropped and sliced anew


def _workspace(like, floats, tiles):
    key = _stream_key(like)
    views = _workspace_views.get((key, floats, tiles))
    if views is not None:
        return views
    hit = _workspaces.get(key)
    if hit is None or hit[0].shape[0] < floats or hit[1].shape[0] < tiles:
        have_floats, have_tiles = (hit[0].shape[0], hit[1].shape[0]) if hit else (0, 0)
        locks = _empty(like, (max(tiles, have_tiles),), "i32")
        locks[...] = 0
        hit = _workspaces[key] = (_empty(like, (max(floats, have_floats),), "f32"), locks)
        # Slices of the smaller buffers would keep them alive.
        for old in [v for v in _workspace_views if v[0] == key]:
            del _workspace_views[old]
    if len(_workspace_views) >= _MAX_VIEWS:
        _workspace_views.clear()
    views = _workspace_views[(key, floats, tiles)] = (hit[0][:floats], hit[1][:tiles])
    return views


def _stream_key(like):
    """(device, stream) of an array: a torch CUDA tensor's device and its current stream (as
    an address, through kernels' raw query), else ("cpu", None)."""
    if is_torch(like) and like.is_cuda:
        index = like.get_device()
        return (f"cuda:{index}", _k._cuda_stream(index))
    return ("cpu", None)


class _SplitK:
    """c (m, n) = a @ b through gemm_split_k, for products whose tiles leave SMs idle (grad_x:
    (chunk, H) with K = V): K cut into `splits` slices reduced in order (deterministic) through
    an f32 workspace; the locks are zero between launches. `splits` makes one wave of programs
    at one per SM (the tiles' programs times the slices, at most `sms`): the large tiles' rings
    fill an SM's shared memory, and each slice more adds a pass over the workspace (H200,
    256x4096x128256: 64x256 tiles in 2 slices 0.374 ms, in 4 0.439 ms; H100, 128x128 tiles: 2
    slices 0.42 ms, 4 slices 0.46 ms, 8 slices 0.50 ms). A variant with SPLIT_K > 0 (a tuned
    entry's) runs its own count."""

    def __init__(self, variant, like, m, n, k, sms):
        self.v = variant
        tiles = _tiles(variant, m, n)
        k_blocks = -(-k // variant.config["BLOCK_K"])
        # A variant's own count (a tuned one's), else one wave.
        own = variant.config.get("SPLIT_K", 0)
        self.splits = max(1, min(k_blocks, own if own > 0 else sms // tiles))
        self.workspace, self.locks = _workspace(like, self.splits * m * n, tiles)

    def __call__(self, a, b, c, m, n, k, sa, sb, sc):  # m <= the m it was made for
        _k.launch(self.v, (_tiles(self.v, m, n), self.splits), a, b, c, c, self.workspace,
                  self.locks, m, n, k, sa[0], sa[1], sb[0], sb[1], sc[0], sc[1])


def _aligned(view, like):
    """`view` (a contiguous slice of an output) for a kernel to write, or, when it does not
    start on 16 bytes (the kernels' promise), a new array of its shape and dtype that
    _written copies back."""
    d = describe(view, "output")
    return view if d.address % 16 == 0 else _empty(like, tuple(view.shape), d.dtype)


def _written(view, out):
    if out is not view:
        view[...] = out


def _grad_scale(t, ignore_index, reduction):
    """The (1,) f32 upstream gradient of each row of a cross-entropy reduced by `reduction`
    over the rows of target `t` (1-D): 1 / n_valid for "mean" (n_valid: targets !=
    ignore_index; inf when there are none, so the loss is NaN as PyTorch's), 1 for "sum". On
    t's device: nothing waits for the host."""
    if is_torch(t):
        import torch
        n_valid = (t != ignore_index).sum().to(torch.float32)
        g = (1.0 / n_valid if reduction == "mean" else torch.ones_like(n_valid)).reshape(1)
    else:
        import numpy as np
        n_valid = np.float32((t != ignore_index).sum())
        with np.errstate(invalid="ignore", divide="ignore"):
            g = np.array([1.0 / n_valid if reduction == "mean" else 1.0], dtype=np.float32)
    return _contiguous(g)


def _flce_chunk_rows(rows, hidden, vocab):
    """Liger-Kernel's chunk size: the next power of two of rows / ceil(V / H), so that a chunk's
    logits (chunk, V) are about the size of the input (rows, H)."""
    per = max(1, -(-rows // max(1, -(-vocab // hidden))))
    return 1 << (per - 1).bit_length()


def _flce_vocab_cols(rows, vocab, budget):
    """The widest window of the backward's vocabulary chunks: as many multiples of 128 columns
    as fit (rows, cols) in `budget` elements (the forward's chunk of logits), at least 128, at
    most V. Multiples of 128 keep each chunk's slices of the weight and grad_weight 16-byte
    aligned."""
    cols = max(128, budget // max(1, rows) // 128 * 128)
    return vocab if cols >= vocab else cols


# A launch's fixed cost in the window model below, as tile work: a 128x256 tile's K = 512
# (about 6 us on an H200 SM, the launch, ramp and tail of one kernel).
_LAUNCH_WORK = 128 * 256 * 512


def _flce_window_cols(rows, hidden, vocab, widest, window_tile, tn_tile, sms):
    """The window width (a multiple of 128 up to `widest`, or V) whose backward pass 2 takes
    the fewest waves of tiles: each window runs the (rows, cols) logits GEMM on window_tile
    (BLOCK_M, BLOCK_N) tiles, K = hidden, and the (cols, hidden) grad_weight GEMM on tn_tile
    tiles, K = rows; a kernel of t tiles takes ceil(t / sms) waves, each as long as one tile's
    work (BLOCK_M x BLOCK_N x K), plus _LAUNCH_WORK per launch. The widest window leaves the
    last wave of both GEMMs part empty (H200, BT 8192, H 4096, V 128256: 3968 columns are 15.5
    tiles of 256 and 64 x 16 = 1024 tiles, 7.76 waves of 132, then 496 tiles, 3.76 waves; 3072
    columns fill 6 and 3 waves: pass 2 24.6 -> 23.4 ms). Ties go to the wider window."""
    def waves(m, n, tile):
        return -(-(-(-m // tile[0]) * -(-n // tile[1])) // max(1, sms))

    def cost(cols):
        total = 0
        for v0 in range(0, vocab, cols):
            n = min(cols, vocab - v0)
            total += (waves(rows, n, window_tile) * window_tile[0] * window_tile[1] * hidden
                      + waves(n, hidden, tn_tile) * tn_tile[0] * tn_tile[1] * rows
                      + 2 * _LAUNCH_WORK)
        return total

    widths = [widest] if widest < 128 else list(range(128, widest + 1, 128))
    if widest >= vocab:
        widths = [c for c in widths if c < vocab] + [vocab]
    return min(widths, key=lambda c: (cost(c), -c))


def fused_linear_cross_entropy_forward_backward(x, weight, target, ignore_index=-100,
                                                reduction="mean", chunk_rows=None, grads=True):
    """cross_entropy(x @ weight.T, target) and its gradients for an upstream gradient of 1:
    (loss (0-d, f32), grad_x (x's shape and dtype), grad_weight (V, H), x's dtype), without
    the (N, V) logits. x: (N, H) or (B, T, H); weight: (V, H), nn.Linear's layout; target: int64
    (N,) or (B, T). No bias, label smoothing or z-loss yet. g is 1 (sum) or 1 / n_valid (mean,
    the rows whose target != ignore_index).

    Two passes over one buffer of chunk x V elements (chunk = `chunk_rows`, default
    Liger-Kernel's, _flce_chunk_rows), so the peak memory is Liger-Kernel's:
      1. row chunks x_c (chunk rows, every column of the logits):
           logits = x_c @ weight.T                    (gemm_block_ptr)
           loss_c, lse_c, dlogits = (softmax - onehot) * g, in place
                                                      (cross_entropy_fused)
           grad_x_c = dlogits @ weight                (gemm_split_k: K = V in f32, one rounding)
      2. vocabulary chunks W_c (cols columns of every row: at most _flce_vocab_cols, the
         width that fills the GPU's waves best, _flce_window_cols):
           dlogits_c = (exp(x @ W_c.T - lse) - onehot) * g
                                                      (gemm_ce_backward: the logits recomputed
                                                      and turned into their gradient in the
                                                      GEMM's epilogue; where it is not
                                                      compiled, gemm_block_ptr and then
                                                      cross_entropy_backward_lse in place)
           grad_weight[c] = dlogits_c.T @ x           (gemm: K = N in f32, one rounding)
    Liger-Kernel's single pass adds each row chunk's dlogits^T @ x_c into grad_weight: a read
    and a write of all of grad_weight per chunk (2 GiB at V = 128256, H = 4096, bf16; 32
    chunks), where pass 2 writes each row of it once, for one more logits GEMM. Every gradient
    element is rounded to x's dtype once. grads=False: the loss alone (grad_x and grad_weight
    None), pass 1 without the gradient (cross_entropy)."""
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
    g = _grad_scale(t, ignore_index, reduction)
    dt, dev = xd.dtype, xd.device
    sms, m0 = _slots(x), min(chunk, rows)
    widest = _flce_vocab_cols(rows, vocab, m0 * vocab)
    # logits = x_c @ W^T and logits_c = x @ W_c^T (nt), grad_x_c = dlogits @ W (nn),
    # grad_W_c = dlogits_c^T @ x (tn).
    gemm_nt = _gemm_variant(("gemm_block_ptr", "gemm"), dt, dev, "nt", m0, vocab, hidden, sms)
    if grads:
        ce_fused = _k.choose("cross_entropy_fused", dt, dev, prefer=lambda c: -c["BLOCK"],
                             key="widest")
        try:  # the window's logits and their gradient in one kernel
            gemm_window = _gemm_variant(("gemm_ce_backward",), dt, dev, "nt", rows, widest, hidden,
                                        sms)
        except LookupError:  # not compiled: the logits, then cross_entropy_backward_lse
            gemm_window = None
            ce_window = _k.choose("cross_entropy_backward_lse", dt, dev, key=())
            gemm_nt2 = _gemm_variant(("gemm_block_ptr", "gemm"), dt, dev, "nt", rows, widest,
                                     hidden, sms)
        gemm_tn = _gemm_variant(("gemm_block_ptr", "gemm"), dt, dev, "tn", widest, hidden, rows,
                                sms)
        tile = lambda v: (v.config["BLOCK_M"], v.config["BLOCK_N"])
        cols = _k.remember(
            ("fused_linear_cross_entropy cols", rows, hidden, vocab, widest, sms,
             tile(gemm_window or gemm_nt2), tile(gemm_tn)),
            lambda: _flce_window_cols(rows, hidden, vocab, widest, tile(gemm_window or gemm_nt2),
                                      tile(gemm_tn), sms))
        # grad_x_c (chunk, H) has few tiles and a long K (V): the largest tile, split along K
        # when its tiles leave SMs idle (H200, chunk 256, H 4096, V 128256: 64x256 tiles in two
        # slices 0.374 ms, 700 TFLOP/s; cuBLAS (Liger-Kernel) splits 320x128 tiles: 0.372 ms).
        gemm_nn = _gemm_variant(("gemm_block_ptr", "gemm"), dt, dev, "nn", m0, hidden, vocab, 0)
        grad_x_gemm = lambda *a: _matmul(gemm_nn, *a)
        if _tiles(gemm_nn, m0, hidden) < sms:
            try:
                split = _gemm_variant(("gemm_split_k",), dt, dev, "nn", m0, hidden, vocab, 0)
                grad_x_gemm = _SplitK(split, x, m0, hidden, vocab, sms)
            except LookupError:  # not compiled (or not for this dtype): the plain GEMM
                pass
    else:
        ce = _k.choose("cross_entropy", dt, dev, key=())
    losses = _empty(x, (rows,), "f32")
    lse = _empty(x, (rows,), "f32") if grads else None
    grad_x = _empty(x, (rows, hidden), dt) if grads else None
    # One buffer for pass 1's (chunk, V) logits and pass 2's (rows, cols).
    buf = _empty(x, (max(m0 * vocab, rows * cols if grads else 0),), dt)
    logits = buf[:m0 * vocab].reshape(m0, vocab)
    for r0 in range(0, rows, chunk):
        m = min(chunk, rows - r0)
        # Kernels take 16-byte-aligned arrays: a chunk's rows are copied when their slice of x
        # or the targets does not start on 16 bytes, and written through _aligned's copies when
        # their slice of an output does not.
        xc, tc, lc = _contiguous(x2[r0:r0 + m]), _contiguous(t[r0:r0 + m]), logits[:m]
        _matmul(gemm_nt, xc, w, lc, m, vocab, hidden, (hidden, 1), (1, hidden), (vocab, 1))
        loss_v = losses[r0:r0 + m]
        loss_c = _aligned(loss_v, x)
        if not grads:
            _k.launch(ce, m, loss_c, lc, tc, vocab, vocab, int(ignore_index), 0.0, 0.0)
            _written(loss_v, loss_c)
            continue
        lse_v, gx_v = lse[r0:r0 + m], grad_x[r0:r0 + m]
        lse_c, gx_c = _aligned(lse_v, x), _aligned(gx_v, x)
        _k.launch(ce_fused, m, loss_c, lse_c, lc, lc, tc, g, vocab, vocab, vocab,
                  int(ignore_index), 0.0, 0.0)
        grad_x_gemm(lc, w, gx_c, m, hidden, vocab, (vocab, 1), (hidden, 1), (hidden, 1))
        for view, out in ((loss_v, loss_c), (lse_v, lse_c), (gx_v, gx_c)):
            _written(view, out)
    total = losses.sum()
    loss = total * g[0] if reduction == "mean" else total
    if not grads:
        return loss, None, None
    grad_w = _empty(x, (vocab, hidden), dt)
    xs = _contiguous(x2)
    window = buf[:rows * cols].reshape(rows, cols)
    for v0 in range(0, vocab, cols):
        n = min(cols, vocab - v0)
        wc = w[v0:v0 + n]
        if gemm_window is not None:
            _k.launch(gemm_window, _tiles(gemm_window, rows, n), xs, wc, window, t, lse, g,
                      rows, n, hidden, v0, int(ignore_index), hidden, 1, 1, hidden, cols, 1)
        else:
            _matmul(gemm_nt2, xs, wc, window, rows, n, hidden, (hidden, 1), (1, hidden),
                    (cols, 1))
            _k.launch(ce_window, rows, window, window, t, lse, g, cols, cols, n, v0,
                      int(ignore_index))
        _matmul(gemm_tn, window, xs, grad_w[v0:v0 + n], n, hidden, rows, (1, cols), (hidden, 1),
                (hidden, 1))
    return loss, grad_x.reshape(xd.shape), grad_w
