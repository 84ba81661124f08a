"""What tessel.ops' modules share: dtype names, output buffers, argument checks (TypeError for a
wrong dtype, ValueError for mismatched shapes or devices) and the rows view of an input."""

from . import kernels as _k
from ._arrays import _TorchArray, describe, is_torch, torch_dtype_name

_TORCH_NAMES = {"f32": "float32", "f16": "float16", "bf16": "bfloat16", "f64": "float64",
                "i64": "int64", "i32": "int32"}
_NUMPY_NAMES = {"f32": "float32", "f16": "float16", "f64": "float64", "i64": "int64",
                "i32": "int32"}
_FLOATS = ("f32", "f16", "bf16")


_torch_dtypes = {}  # Tessel's dtype name -> torch.dtype, filled on use


def _empty(like, shape, dtype):
    if is_torch(like):
        td = _torch_dtypes.get(dtype)
        if td is None:
            import torch
            td = _torch_dtypes[dtype] = getattr(torch, _TORCH_NAMES[dtype])
        return _torch_empty(shape, dtype=td, device=like.device)
    import numpy as np
    return np.empty(shape, dtype=_NUMPY_NAMES[dtype])


def _torch_empty(*args, **kwargs):
    """torch.empty, bound on the first call (the module does not import torch)."""
    global _torch_empty
    import torch
    _torch_empty = torch.empty
    return torch.empty(*args, **kwargs)


def _contiguous(a):
    """`a`, or a contiguous, aligned copy of it (see the module's note)."""
    # A torch tensor that torch calls contiguous (the same rule as Array.is_contiguous: sizes of
    # 1 have any stride; an empty tensor is contiguous to torch, so it takes the long way), on
    # the CPU or a CUDA device, of a dtype the kernels take: `a` itself, without describe().
    if (is_torch(a) and a.is_contiguous() and a.data_ptr() % 16 == 0 and a.numel()
            and (a.is_cuda or a.is_cpu) and torch_dtype_name(a.dtype) is not None):
        return a
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
    """A contiguous (rows, cols) view or copy of `a` (rank >= 1): `a` itself when it is one."""
    a = _contiguous(a)
    shape = a.shape
    if len(shape) == 2:
        return a, shape[0], shape[1]
    cols = shape[-1]
    rows = 1
    for s in shape[:-1]:
        rows *= s
    return a.reshape(rows, cols), rows, cols


def _vector(w, name, op, cols, ref):
    d = _float(w, name, op)
    _same(op, ref, d)
    if tuple(d.shape) != (cols,):
        raise ValueError(f"{op}: {name} has shape {tuple(d.shape)}, expected ({cols},) (the "
                         "last dimension of the input)")
    return _contiguous(w)


def _torch_alike(first, *others):
    """(dtype name, device, device index) when `first` and `others` are torch tensors of one
    float dtype (_FLOATS) on one device (the CPU or a CUDA device), of one shape, contiguous,
    16-byte aligned and not empty, which the checks of _float, _same and _contiguous pass
    without a copy; None otherwise (the caller then takes those checks' way, with their
    errors)."""
    if not is_torch(first):
        return None
    dt = first.dtype
    name = torch_dtype_name(dt)
    if name not in _FLOATS:
        return None
    if first.is_cuda:
        device, index = "cuda", first.get_device()
    elif first.is_cpu:
        device, index = "cpu", 0
    else:
        return None
    shape = first.shape
    if not first.numel() or not first.is_contiguous() or first.data_ptr() % 16:
        return None
    for o in others:
        if (not is_torch(o) or o.dtype is not dt or o.shape != shape or not o.is_contiguous()
                or o.data_ptr() % 16):
            return None
        if (o.get_device() != index or not o.is_cuda) if device == "cuda" else not o.is_cpu:
            return None
    return name, device, index


def _torch_norm_inputs(x, weight, dy=None):
    """The norms' inputs when the checks of _float, _same, _rows and _vector all pass without a
    copy, read in a few calls on torch tensors: (x's description, x as rows, dy as rows (None
    without dy), rows, cols, weight); None otherwise (not torch tensors, a check that fails, or
    a copy to make), when the caller takes those checks' way, with their errors."""
    if not (is_torch(x) and is_torch(weight)):
        return None
    dt = x.dtype
    name = torch_dtype_name(dt)
    if name not in _FLOATS or weight.dtype is not dt:
        return None
    if x.is_cuda:
        index = x.get_device()
        if not weight.is_cuda or weight.get_device() != index:
            return None
        device = "cuda"
    elif x.is_cpu and weight.is_cpu:
        device, index = "cpu", 0
    else:
        return None
    shape = x.shape
    if not shape or weight.dim() != 1 or weight.shape[0] != shape[-1]:
        return None
    cols = shape[-1]
    numel = x.numel()
    if (not numel or not x.is_contiguous() or x.data_ptr() % 16 or not weight.is_contiguous()
            or weight.data_ptr() % 16):
        return None
    rows = numel // cols
    g2 = None
    if dy is not None:
        if (not is_torch(dy) or dy.dtype is not dt or dy.is_cuda != x.is_cuda
                or (device == "cuda" and dy.get_device() != index)
                or (device == "cpu" and not dy.is_cpu) or dy.shape != shape
                or not dy.is_contiguous() or dy.data_ptr() % 16):
            return None
        g2 = dy if len(shape) == 2 else dy.reshape(rows, cols)
    x2 = x if len(shape) == 2 else x.reshape(rows, cols)
    return _TorchArray(x, "x", name, device, index), x2, g2, rows, cols, weight


def _block(config):
    return config.get("BLOCK", 0)


def _fewest_warps(config):
    """The GPU's order of the one-block row variants: the smallest BLOCK; then those of at most
    32 elements per thread (32-lane warps), the fewest warps first; then the rest (a tuned
    space holds BLOCK 16384 on 1 warp: 512 elements per thread, spilled), the most warps first."""
    block, warps = config.get("BLOCK", 0), max(config.get("num_warps", 1), 1)
    over = block > 32 * 32 * warps
    return (block, over, -warps if over else warps)


def _weights_early_first(config):
    """_fewest_warps' order for rmsnorm, whose weights load beside x (in flight with it) when a
    config has at most 8 warps and 16 elements per thread (dsl/kernels/rmsnorm.cpp's rule,
    mirrored here: change both together): such configs of the smallest BLOCK first. The
    tuner ranks them so on both benchmark GPUs (results/2026-12-06-h100-s58: 1000 columns on
    1/2/4 warps 49.6/49.0/48.8 us, 4096 on 4/8 warps 94.7/93.0; session 54's winner at 4096
    columns on the other GPU: 8 warps)."""
    block, warps = config.get("BLOCK", 0), max(config.get("num_warps", 1), 1)
    early = warps <= 8 and block <= 16 * 32 * warps
    return (block, not early) + _fewest_warps(config)[1:]


def _gpu_order(kernel):
    return _weights_early_first if kernel == "rmsnorm" else _fewest_warps


def _one_block_or_looped(kernel, looped, dtype, device, cols):
    """The tuning cache's variant for n_cols = cols on this device (kernels.tuned), else a
    one-block variant whose BLOCK holds the row, else the looped kernel (remembered per
    (kernel, dtype, device, cols) with choose()'s answers). Among the one-block variants: on
    the GPU _fewest_warps' order (rmsnorm: _weights_early_first), on the interpreter the
    smallest BLOCK, then the variants' own order (the library's first). With no looped kernel,
    a row no block holds raises LookupError, and that answer is remembered too: callers that
    fall back (ops.rms_norm's residual) ask on every call.

    Fewer warps per row put more programs, so more rows' loads, on each SM. On the benchmark
    GPU, bf16 layernorm: 1000 columns on 1 warp 37.6 us, on 2 38.0, on 4 43.2, on 8 75.5 (32768
    rows); 4096 on 4 warps 71.0 against 71.8 on 8 and 92.7 on 16; 16384 on 16 warps 75.3
    against 83.4 on 32; add_rmsnorm_out 4096 on 4 warps 133.3 against 134.8-135.2
    (results/2026-12-03-h200-s39)."""
    memo = ("one_block_or_looped", kernel, looped, dtype, device, cols)
    v = _k._chosen.get(memo)
    if v is not None and _k._index is not None:
        if isinstance(v, LookupError):
            raise LookupError(*v.args)
        return v
    v = _k.tuned(kernel, dtype, device, {"n_cols": cols},
                 valid=lambda c: c.get("BLOCK", 0) >= cols)
    if v is not None:
        _k._chosen[memo] = v
        return v
    try:
        v = _k.choose(kernel, dtype, device, valid=lambda c: c.get("BLOCK", 0) >= cols,
                      prefer=_gpu_order(kernel) if device == "cuda" else _block, key=cols)
    except LookupError as e:
        if looped is None:
            _k._chosen[memo] = LookupError(*e.args)  # without the traceback's frames
            raise
        v = _k.choose_tuned(looped, dtype, device, {"n_cols": cols})
    _k._chosen[memo] = v
    return v


# Rows of at most this many columns run several to a program (layernorm_rows, rmsnorm_rows),
# where one row per program leaves most of a warp's lanes idle. On the benchmark GPU, bf16
# RMSNorm: 262144x128 159 us one row per program, 34.5 sixteen rows per program; 131072x256
# 81 -> 35; 65536x512 42 -> 35; at 1000 columns no config of several rows beat one row per
# program (results/2026-12-04-h200-s45).
ROWS_KERNEL_MAX_COLS = 512


def _rows_variant(kernel, dtype, device, cols):
    """For rows of at most ROWS_KERNEL_MAX_COLS columns, the variant of the several-rows kernel
    `kernel` (ROWS rows per program): the tuning cache's for n_cols = cols on this device
    (kernels.tuned), else the smallest BLOCK that holds the row; None for longer rows or when
    no such variant is compiled (the caller runs one row per program)."""
    if cols > ROWS_KERNEL_MAX_COLS:
        return None
    memo = ("rows_variant", kernel, dtype, device, cols)
    v = _k._chosen.get(memo)
    if v is not None and _k._index is not None:
        return v or None
    v = _k.tuned(kernel, dtype, device, {"n_cols": cols},
                 valid=lambda c: c.get("BLOCK", 0) >= cols)
    if v is None:
        try:
            v = _k.choose(kernel, dtype, device, valid=lambda c: c.get("BLOCK", 0) >= cols,
                          prefer=_block)
        except LookupError:
            v = False
    _k._chosen[memo] = v
    return v or None


# What one sm_90 SM (H100, H200) holds at once, as the CUDA occupancy calculator counts it.
SM90_LIMITS = {"registers": 65536, "threads": 2048, "programs": 32,
               "shared_bytes": 227 * 1024, "register_unit": 256}


def programs_per_sm(registers, num_warps, threads_per_warp=32, shared_bytes=0,
                    limits=SM90_LIMITS):
    """Programs (thread blocks) of one variant that an SM runs at once: the fewest that its
    threads, its registers, its shared memory and the SM's block limit allow, at least 1.

    registers: 32-bit registers per thread (ptxas's count; None or 0: not limiting). A warp's
    registers are allocated in units of limits["register_unit"] (256: 8 per thread), so 114
    registers cost 120 per thread. shared_bytes: per program, static and dynamic. Left out, as
    too fine for choosing a grid: the register file's split over the SM's four quadrants and the
    1 KiB of shared memory the driver reserves per program."""
    threads = num_warps * threads_per_warp
    fit = min(limits["programs"], limits["threads"] // threads)
    if registers:
        unit = limits["register_unit"]
        per_warp = -(-registers * threads_per_warp // unit) * unit
        fit = min(fit, limits["registers"] // (per_warp * num_warps))
    if shared_bytes:
        fit = min(fit, limits["shared_bytes"] // shared_bytes)
    return max(fit, 1)


def _variant_programs_per_sm(variant):
    """programs_per_sm from a CUDA variant's metadata (its resources record, docs/Artifacts.md);
    None for a variant without one (the interpreter's)."""
    res = variant.meta.get("resources")
    if not res:
        return None
    return programs_per_sm(res.get("registers"), variant.meta.get("num_warps", 4),
                           variant.meta.get("threads_per_warp", 32), res.get("shared_bytes", 0))


def _launched(variant, scalars):
    """The variant a launch runs: the first of its twins (in launch order) whose promises the
    integer arguments named in `scalars` keep (as the launcher checks; pointers are taken to be
    16-byte aligned, as _contiguous and _empty make them), else `variant` itself. A twin may hold
    a different number of registers (rmsnorm_backward BLOCK=4096 on 8 warps: 145, its twin
    128)."""
    def keeps(twin):
        for a in twin.args:
            if a["kind"] != "scalar" or a["type"] not in ("i32", "i64"):
                continue
            value = scalars.get(a["name"])
            if a.get("divisibility", 1) > 1 and (value is None or value % a["divisibility"]):
                return False
            if "equal_to" in a and value != a["equal_to"]:
                return False
        return True
    return next((t for t in variant.twins if keeps(t)), variant)


def _row_block_variant(kernel, dtype, device, cols, scalars):
    """The variant of a row-walking kernel (the norms' backward) for rows of `cols`: among
    those whose BLOCK holds the row, the smallest BLOCK (fewest masked lanes), then on the GPU,
    for the binary a launch runs (_launched): the most programs per SM (each walks its own rows,
    so more programs keep more rows' loads in flight), then the fewest spilled bytes, then the
    fewest warps (more elements per thread, fewer threads in each row's reductions).
    LookupError when none holds the row.

    Measured (RMSNorm backward, 16384x4096 bf16, docs/Performance.md, 2026-12-03): 8 warps at
    two programs per SM 147 us, 16 warps at two 150 us, 32 warps at two (32 registers, 52 bytes
    spilled) 242 us; LayerNorm's 160, 177 and 350 us (32 warps at one)."""
    def valid(config):
        return config.get("BLOCK", 0) >= cols

    vs = [v for v in _k.variants(kernel, dtype, device) if valid(v.config)]
    if not vs:
        return _k.choose(kernel, dtype, device, valid=valid)  # raises, saying how to compile one

    def key(v):
        launched = _launched(v, scalars) if device == "cuda" else v
        per_sm = _variant_programs_per_sm(launched) if device == "cuda" else None
        if per_sm is None:
            return (v.config["BLOCK"], 0, 0, 0)
        spill = (launched.meta.get("resources") or {}).get("spill_bytes") or 0
        return (v.config["BLOCK"], -per_sm, spill, v.meta.get("num_warps", 4))

    return min(vs, key=key)  # min keeps the first of equals: the interpreter's on the CPU


_sm_counts = {}


def _sm_count(device):
    """Streaming multiprocessors of a torch CUDA device, asked once per device."""
    index = device.index if device.index is not None else 0
    if index not in _sm_counts:
        import torch
        _sm_counts[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return _sm_counts[index]


def _num_programs(device_like, rows, variant=None):
    """(programs, rows per program) for a kernel whose programs walk rows: on the GPU as many
    programs as fit on it at once (_variant_programs_per_sm of `variant`, the binary a launch
    runs, times the SM count; one per SM without a variant), on the interpreter 8 (its
    threads); never more than the rows."""
    return _programs(device_like, rows,
                     _variant_programs_per_sm(variant) if variant is not None else None)


def _programs(device_like, rows, per_sm):
    """_num_programs with the variant's programs per SM given (None: one per SM)."""
    if is_torch(device_like) and device_like.is_cuda:
        sms = _sm_counts.get(device_like.get_device()) or _sm_count(device_like.device)
        slots = sms * (per_sm or 1)
    else:
        slots = 8
    per = max(1, -(-rows // slots))
    return -(-rows // per) if rows else 0, per
