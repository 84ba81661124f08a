"""tessel.ops.matmul: c (M, N) = a (M, K) @ b (K, N) on the gemm_block_ptr kernel, or on
gemm_split_k for decode shapes (M = 1..64) and products whose tiles would leave most SMs idle.

On sm_90a the fast GEMM variants are the TMA twins of gemm_block_ptr, and a TMA copy needs a
unit stride along one axis of each operand and row strides of 16-byte multiples (the tensor
map's globalStrides). On a GPU an operand that is strided otherwise, or whose rows are not a
multiple of 16 bytes (a (1000, 1001) f16 matrix: rows of 2002 bytes), is copied first into a
buffer whose rows are padded to 16 bytes, and a TMA twin that takes any M, N and K (__nna,
__nta) reads the copy; its boxes read zeros past M, N and K, so the padding is never read. The
copies cost two small kernels (2 (M K + K N) elements moved); the masked-load base kernel they
replace is several times slower (H200, f16 1000x999x1001: 16.6 us with the copies against
cuBLAS's 27.7, results/2026-12-03-h200-s36). On the interpreter nothing is copied (every variant
takes any strides) except an operand that does not start on 16 bytes, which no kernel takes.

On a GPU the tuning cache (docs/Autotuning.md) picks the kernel where it can: gemm_split_k's
entry for the shape (launched with its SPLIT_K) unless gemm_block_ptr's entry is faster;
gemm_block_ptr's entry alone where split-K's rule (_split_k_variant) does not apply or its
entry is slower; gemm_persistent's entry (one program per SM over the tiles, launched on
min(tiles, SMs) programs) where it is the fastest of the shape's; else the rules of
_split_k_variant and _pick. A decode product (M <= 64) may
run transposed, c^T (N, M) = b^T a^T, when gemm_split_k's entry for the (N, M, K) product (its
16-wide tiles: the weight's rows fill wgmma's 64-row M, the tokens its N, as cuBLAS runs decode)
is faster than every entry of the product as written, or the product as written has none (its
rules were never timed against it); the launch then stores c column-major
(stride_cm = 1: the twin that promises it, tune_prepare.sh's __ntt, reads both operands through
TMA; c, a few tokens wide, is stored element by element).

The choice of variant (and copies, and split-K slices) depends only on the dtype, the device,
the shape, the strides and the operands' alignment, and is remembered per such key: a call
after the first costs the checks, the copies and one launch on the host.
"""

from collections import namedtuple

from . import kernels as _k
from ._arrays import is_torch
from ._common import _empty, _float, _launched, _same, _sm_count, _variant_programs_per_sm
from ._linear_cross_entropy import _tiles, _workspace

# Elements per padded row stride: 16 bytes of f16 / bf16 (f32 rows then pad to 32 bytes).
_ROW_ALIGN = 8

# What a call runs: copy_a / copy_b (b_rows: b's copy contiguous along N, else along K), the
# operands' strides after the copies, the variant, the split-K slices (0: not split), and swap:
# the variant computes c^T = b^T a^T (a (N, K) := b^T, b (K, M) := a^T, c (N, M) := c^T).
# programs: gemm_persistent's grid (one program per SM; 0 for the other kernels, one program per
# tile).
_Plan = namedtuple("_Plan", "copy_a copy_b b_rows a_strides b_strides variant splits swap programs",
                   defaults=(False, 0))


def _plain(config):
    """No epilogue, and one CTA per cluster: a cluster_size = 2 variant needs an even grid and
    was slower than its unclustered config at every shape measured (docs/GPUBackends.md)."""
    return (not config.get("HAS_BIAS") and config.get("ACT", "none") == "none"
            and config.get("cluster_size", 1) == 1)


def _round(x):
    return -(-x // _ROW_ALIGN) * _ROW_ALIGN


def _tma_strides(a_strides, b_strides):
    """Whether TMA can read a (stride_am, stride_ak) and b (stride_bk, stride_bn) by their
    strides: a along K, b along either axis, row strides positive multiples of _ROW_ALIGN
    elements (a tensor map takes no stride of 0, as an expanded tensor has, or below)."""
    (sam, sak), (sbk, sbn) = a_strides, b_strides
    return (sak == 1 and sam > 0 and sam % _ROW_ALIGN == 0,
            (sbn == 1 and sbk > 0 and sbk % _ROW_ALIGN == 0)
            or (sbk == 1 and sbn > 0 and sbn % _ROW_ALIGN == 0))


def _tma_reads(a, b):
    """Whether TMA can read both operands (Arrays) in place: _tma_strides and 16-byte bases."""
    return (all(_tma_strides(a.strides, b.strides)) and a.address % 16 == 0
            and b.address % 16 == 0)


def _scalars(m, n, k, a_strides, b_strides, c_strides=None):
    """The kernel's scalar arguments; c row-major unless c_strides (stride_cm, stride_cn)."""
    (sam, sak), (sbk, sbn) = a_strides, b_strides
    scm, scn = c_strides or (n, 1)
    return {"M": m, "N": n, "K": k, "stride_am": sam, "stride_ak": sak, "stride_bk": sbk,
            "stride_bn": sbn, "stride_cm": scm, "stride_cn": scn}


def _swapped(m, n, k, a_strides, b_strides):
    """The scalars of c^T (n, m) = b^T (n, k) a^T (k, m), c (m, n) row-major: b^T's strides are
    b's reversed, a^T's a's, and c^T is column-major."""
    return _scalars(n, m, k, tuple(reversed(b_strides)), tuple(reversed(a_strides)), (1, n))


def _tile_cost(config):
    """One tile's time per K step, in units of tensor-core work: its area (BLOCK_M x BLOCK_N),
    or, for tiles below 128x128, what loading its operands costs, 64 (BLOCK_M + BLOCK_N): a
    64x64 tile moves as many bytes per flop as twice its area would need at 128x128."""
    bm, bn = config["BLOCK_M"], config["BLOCK_N"]
    return max(bm * bn, 64 * (bm + bn))


def _estimate(v, launched, m, n, sms):
    """A cost of running `v` for an (m, n) product: wave by wave (as many programs as fit on
    the `sms` SMs at once, from the launched binary's registers and shared memory), the
    _tile_cost of the tiles the busiest SM holds. It ranks the products measured on the
    benchmark GPU (results/2026-12-03-h200-s36): 64x64 tiles first at 500x499x501 (one tile on each of 64
    SMs), 128x64 at 1000x999x1001 and 1024x1024x2048 (one per SM against two 64x64 ones), and
    128x256 at 4096^3 and 8192^3, where 64x64 tiles would cost twice as much."""
    per_sm = _variant_programs_per_sm(launched) or 1
    cost_per_tile = _tile_cost(v.config)
    left, cost = _tiles(v, m, n), 0
    while left > 0:
        wave = min(left, sms * per_sm)
        cost += -(-wave // sms) * cost_per_tile
        left -= wave
    return cost


def _pick(dtype, m, n, scalars, sms):
    """The plain gemm_block_ptr variant for an (m, n) product on a GPU of `sms` SMs: among those
    whose launched binary (_launched: the twin the strides allow) copies with TMA, else among
    all, the least _estimate, then the largest tile, then the one nearest 128 rows (128x256
    before 256x128: 773 against 696 TFLOP/s at bf16 4096^3; 128x64 before 64x128 on the small
    products), then the shallower ring, then no producer warpgroup (on the small products 4
    stages beat 6 and 8 by 3-9%), except for one wave of tiles with a K loop of 2048 or more
    (32 steps of BLOCK_K 64), where a producer warpgroup, then the deeper ring win: each SM
    streams its tile's operands with nothing else to hide the latency behind (the LLM suite's
    M = 256 rows, 28.5 against 32.3 us with 6 against 4 stages at 256x6144x4096,
    results/2026-12-04-h200-s43; H100, f16 1024x1024x2048, 128x64 tiles: 18.9, 15.6, 14.1 and
    13.9 us on 3, 4, 6 and 8 stages, 16.1, 14.6, 12.8 and 12.6 with the producer warpgroup,
    results/2026-12-05-h100-s53, where the tuned M = 256 rows took it at 3 of 4 keys; measured
    on the H100 only, for the 128x64 and 128x128 tiles); then without the TMA-store epilogue
    (tma_store: no faster on the H200), then the library's order. None when nothing is
    compiled for the GPU."""
    best, best_key = None, None
    for v in _k.variants("gemm_block_ptr", dtype, "cuda"):
        if not _plain(v.config):
            continue
        launched = _launched(v, scalars)
        c = v.config
        stages, producer = c.get("num_stages", 0), bool(c.get("warp_specialize"))
        ring = ((not producer, -stages) if _tiles(v, m, n) <= sms and scalars.get("K", 0) >= 2048
                else (stages, producer))
        key = (not launched.meta.get("tensor_maps"), _estimate(v, launched, m, n, sms),
               -c["BLOCK_M"] * c["BLOCK_N"], abs(c["BLOCK_M"] - 128), ring,
               bool(c.get("tma_store")),
               v.meta.get("config_index", float("inf")))
        if best_key is None or key < best_key:
            best, best_key = v, key
    return best


def split_k_slices(tiles, k, block_k, sms):
    """Slices of K for gemm_split_k: the count of lib/Harness/Problems/Gemm.cpp's splitKFor,
    fitted to an H200 sweep (docs/Performance.md): waves of (tiles x s) programs, each costing
    K / s plus a fixed 512 (a pipeline fill and a partial's round trip, in units of K), at
    most 16 slices of at least 4 K-blocks each."""
    def cost(s):
        return -(-tiles * s // sms) * (k / s + 512)
    best = 1
    for s in range(2, 17):
        if s * 4 > -(-k // block_k):
            break
        if cost(s) < cost(best) - 1e-9:
            best = s
    return best


def _split_k_variant(dtype, m, n, k, scalars, sms):
    """(variant, slices) of gemm_split_k, among the variants whose launched binary copies with
    TMA, for decode products (M <= 64) and for products whose 64-row tiles fill less than half
    of the GPU; None otherwise. The tile is the LLM suite's most frequent winner
    (results/2026-12-01-h200-splitk, H200, bf16): 64x256x64 with 4 stages from N = 16384 (the
    28672-wide rows), else 64x128x64 with 6 stages (9 of the 13 other decode rows), else the
    widest; the slices _slices' (a decode product runs the kernel even in one slice, which
    stores c directly)."""
    if m > 64 and 2 * -(-m // 64) * -(-n // 128) > sms:
        return None
    want = (256, 64, 4) if n >= 16384 else (128, 64, 6)
    best, best_key = None, None
    for v in _k.variants("gemm_split_k", dtype, "cuda"):
        c = v.config
        if not _plain(c) or not _launched(v, scalars).meta.get("tensor_maps"):
            continue
        key = ((c["BLOCK_N"], c.get("BLOCK_K"), c.get("num_stages")) != want, -c["BLOCK_N"],
               -c.get("num_stages", 0), c.get("SPLIT_K", 0) != 0)
        if best_key is None or key < best_key:
            best, best_key = v, key
    if best is None:
        return None
    slices = _slices(best, m, n, k, sms)
    return (best, slices) if slices > 1 or m <= 64 else None


def _slices(v, m, n, k, sms):
    """A gemm_split_k variant's slices: its config's SPLIT_K when non-zero (a tuned count),
    else split_k_slices', as the harness's gemm_split_k problem."""
    return v.config.get("SPLIT_K") or split_k_slices(_tiles(v, m, n), k, v.config["BLOCK_K"], sms)


def _tuned_launch(kernel, dtype, m, n, k, scalars):
    """(variant, median ms) of the tuning cache's entry for `kernel` (gemm_block_ptr,
    gemm_persistent or gemm_split_k, keys M, N, K) whose timing launched the twin this call's
    strides launch (the entry's key twin: a layout) and copies with TMA; else None. The kernels
    are tuned on the gemm problems' shapes with the same timing (cold L2), so their times
    compare."""
    for v, e in _k.tuned_entries(kernel, dtype, "cuda", {"M": m, "N": n, "K": k}, valid=_plain):
        launched = _launched(v, scalars)
        if launched.meta.get("tensor_maps") and \
                _k.twin_of(v.name, launched.name) == _k.entry_twin(e):
            return v, float(e.get("ms", float("inf")))
    return None


def _plan(dtype, device, m, n, k, a_strides, b_strides, a_aligned, b_aligned, sms, variant,
          copy):
    """The _Plan of one call (see the module's note)."""
    cuda = device == "cuda"
    if copy is None:
        copy = cuda
    a_tma, b_tma = _tma_strides(a_strides, b_strides)
    copy_a = not a_aligned or (copy and not a_tma)
    copy_b = not b_aligned or (copy and not b_tma)
    b_rows = b_strides[0] != 1  # a copy keeps b K-contiguous when it is
    if copy_a:
        a_strides = (_round(k), 1)
    if copy_b:
        b_strides = (_round(n), 1) if b_rows else (1, _round(k))
    v, splits = variant, 0
    if v is None and cuda:
        scalars = _scalars(m, n, k, a_strides, b_strides)
        tuned_split = _tuned_launch("gemm_split_k", dtype, m, n, k, scalars)
        tuned_tiles = _tuned_launch("gemm_block_ptr", dtype, m, n, k, scalars)
        swapped = None if m > 64 else _tuned_launch("gemm_split_k", dtype, n, m, k,
                                                    _swapped(m, n, k, a_strides, b_strides))
        tuned_persistent = _tuned_launch("gemm_persistent", dtype, m, n, k, scalars)
        times = [t[1] for t in (tuned_split, tuned_tiles, tuned_persistent) if t is not None]
        if swapped is not None and all(swapped[1] < t for t in times):
            return _Plan(copy_a, copy_b, b_rows, a_strides, b_strides, swapped[0],
                         _slices(swapped[0], n, m, k, sms), True)
        # The persistent kernel's entry when it is faster than every other entry of the shape
        # (a tie keeps the others': in session 68 it came within 0.3-1.7% of gemm_block_ptr's
        # at the suite's large keys, never ahead, docs/Performance.md), and, alone, only
        # where split-K's rule does not apply (as gemm_block_ptr's below).
        others = [t[1] for t in (tuned_split, tuned_tiles) if t is not None]
        if tuned_persistent is not None and all(tuned_persistent[1] < t for t in others) and (
                tuned_split is not None or tuned_tiles is not None
                or _split_k_variant(dtype, m, n, k, scalars, sms) is None):
            return _Plan(copy_a, copy_b, b_rows, a_strides, b_strides, tuned_persistent[0], 0,
                         False, sms)
        # Two entries: the faster. A split-K entry alone beats the rules (its space has one
        # slice too); a gemm_block_ptr entry alone only where split-K's rule does not apply
        # (it was never timed against the split).
        if tuned_split is not None and (tuned_tiles is None or tuned_split[1] < tuned_tiles[1]):
            v = tuned_split[0]
            splits = _slices(v, m, n, k, sms)
        elif tuned_split is not None:
            v = tuned_tiles[0]
        else:
            split = _split_k_variant(dtype, m, n, k, scalars, sms)
            if split is not None:
                v, splits = split
            elif tuned_tiles is not None:
                v = tuned_tiles[0]
            else:
                v = _pick(dtype, m, n, scalars, sms)
    if v is None:  # the interpreter, or no GPU variant: the tuned, else the first plain config
        v = (_k.tuned("gemm_block_ptr", dtype, device, {"M": m, "N": n, "K": k}, valid=_plain)
             or _k.choose("gemm_block_ptr", dtype, device, valid=_plain, key="plain"))
    # A gemm_persistent variant (given): one program per SM, or 3 on the interpreter (programs
    # of several tiles, as the harness's gemm_persistent problem runs it).
    programs = (sms or 3) if v.kernel == "gemm_persistent" else 0
    return _Plan(copy_a, copy_b, b_rows, a_strides, b_strides, v, splits, False, programs)


def _padded_copy(x, shape, along_rows, dtype):
    """A copy of 2-D `x` (shape (R, C)) in a buffer whose rows (along_rows: contiguous along
    C, else along R) are padded to _ROW_ALIGN elements: the (R, C) view of it."""
    r, c = shape
    if along_rows:
        view = _empty(x, (r, _round(c)), dtype)[:, :c]
    else:
        view = _empty(x, (c, _round(r)), dtype)[:, :r].T
    view[...] = x
    return view


def _run(plan, a, b, m, n, k, dtype):
    """c = a @ b by `plan` (copies, then one launch)."""
    c = _empty(a, (m, n), dtype)
    if plan.copy_a:
        a = _padded_copy(a, (m, k), True, dtype)
    if plan.copy_b:
        b = _padded_copy(b, (k, n), plan.b_rows, dtype)
    (sam, sak), (sbk, sbn), v = plan.a_strides, plan.b_strides, plan.variant
    scm, scn = n, 1
    if plan.swap:  # c^T = b^T a^T (_swapped)
        a, b, m, n = b, a, n, m
        (sam, sak), (sbk, sbn), scm, scn = (sbn, sbk), (sak, sam), 1, m
    tiles = _tiles(v, m, n)
    if plan.programs:
        _k.launch(v, min(tiles, plan.programs), a, b, c, c, m, n, k, sam, sak, sbk, sbn, scm,
                  scn)
    elif plan.splits:
        workspace, locks = _workspace(a, plan.splits * m * n, tiles)
        _k.launch(v, (tiles, plan.splits), a, b, c, c, workspace, locks, m, n, k, sam, sak, sbk,
                  sbn, scm, scn)
    else:
        _k.launch(v, tiles, a, b, c, c, m, n, k, sam, sak, sbk, sbn, scm, scn)
    return c


def _torch_key(a, b):
    """For two CUDA tensors of one dtype, the key of their plan: what _plan depends on, read
    from the tensors without describing them (a call's host time is on the critical path of
    small products); None for anything else (the checked path)."""
    if not (is_torch(a) and is_torch(b)) or a.dtype != b.dtype or not a.is_cuda:
        return None
    return ("matmul", a.dtype, a.device, b.device, a.shape, b.shape, a.stride(), b.stride(),
            a.data_ptr() % 16 == 0, b.data_ptr() % 16 == 0)


def _plan_args(a, ad, bd, m, n, k):
    """What _plan depends on, from the checked operands: its key in the kernels' memo."""
    sms = _sm_count(a.device) if ad.device == "cuda" and is_torch(a) else 0
    return (ad.dtype, ad.device, m, n, k, tuple(ad.strides), tuple(bd.strides),
            ad.address % 16 == 0, bd.address % 16 == 0, sms)


def _remembered_plan(args):
    return _k.remember(("matmul",) + args, lambda: _plan(*args, None, None))


def plan_of(a, b):
    """The _Plan that matmul(a, b) runs (copies, variant, split-K slices), for benchmarks and
    anyone asking which kernel a shape gets."""
    ad, bd = _float(a, "a", "matmul"), _float(b, "b", "matmul")
    (m, k), n = tuple(ad.shape), tuple(bd.shape)[1]
    return _remembered_plan(_plan_args(a, ad, bd, m, n, k))


def _matmul(a, b, variant=None, copy=None):
    """matmul(a, b); `variant` (a Variant of gemm_block_ptr or gemm_persistent, run without
    split-K) and `copy`
    (bool: whether to copy operands that TMA cannot read, on any device) override the choices,
    for benchmarks and tests."""
    fast = _torch_key(a, b) if variant is None and copy is None else None
    if fast is not None:
        hit = _k._chosen.get(fast)
        if hit is not None and _k._index is not None:
            plan, dtype = hit
            (m, k), n = a.shape, b.shape[1]
            return _run(plan, a, b, m, n, k, dtype)
    op = "matmul"
    ad, bd = _float(a, "a", op), _float(b, "b", op)
    _same(op, ad, bd)
    a_shape, b_shape = tuple(ad.shape), tuple(bd.shape)
    if len(a_shape) != 2 or len(b_shape) != 2:
        raise ValueError(f"{op}: a and b must be 2-D, got shapes {a_shape} and {b_shape}")
    (m, k), (k2, n) = a_shape, b_shape
    if k != k2:
        raise ValueError(f"{op}: a is {m}x{k} but b is {k2}x{n}: a's columns must equal b's "
                         "rows")
    if m == 0 or n == 0:
        return _empty(a, (m, n), ad.dtype)
    if k == 0:
        c = _empty(a, (m, n), ad.dtype)
        c[...] = 0
        return c
    args = _plan_args(a, ad, bd, m, n, k)
    if variant is None and copy is None:
        plan = _remembered_plan(args)
        if fast is not None:
            _k._chosen[fast] = (plan, ad.dtype)
    else:
        plan = _plan(*args, variant, copy)
    return _run(plan, a, b, m, n, k, ad.dtype)
