"""Compiled variants: finding them, choosing one, checking arguments, launching.

A variant is tesselc's `<variant>.json` (docs/Artifacts.md) with its tile IR (the interpreter)
or cubin/PTX (CUDA). Variants are found by name in kernel directories: $TESSEL_KERNEL_PATH
(colon-separated), then those given to add_kernel_directory(), then the package's own
kernels/ (the build compiles the ops' kernels for the interpreter there; prepare.sh adds the
cubins). CPU arrays run on the interpreter, CUDA tensors on the GPU, on torch's current stream.
"""

import ctypes
import functools
import json
import os
import sys

from . import _capi
from ._arrays import _TORCH_DTYPES, ITEMSIZE, describe, is_array, is_torch, torch_dtype_name

_dirs = []
_index = None
_chosen = {}  # choose()'s answers by (kernel, dtype, device, key); cleared with the index


def add_kernel_directory(path):
    """Adds a directory of tesselc output (searched after $TESSEL_KERNEL_PATH)."""
    global _index
    _dirs.append(os.path.abspath(path))
    _index = None


def refresh():
    """Forgets the kernel index, the ops' remembered choices and the tuning cache read so far:
    the next launch scans the kernel directories and reads the cache again (after compiling or
    tuning in the same process). Ops otherwise read the cache when they first choose a variant
    for a shape and keep that choice."""
    global _index
    _index = None
    _chosen.clear()
    _tuning.update(path=None, entries=[])


def kernel_directories():
    env = [d for d in os.environ.get("TESSEL_KERNEL_PATH", "").split(":") if d]
    own = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels")
    own_dirs = [os.path.join(own, d) for d in sorted(os.listdir(own))] if os.path.isdir(own) else []
    return env + _dirs + own_dirs


class Variant:
    """One variant's metadata (the JSON) and its loaded handles, per device."""

    def __init__(self, path, meta):
        self.path = path
        self.meta = meta
        self.name = meta["variant"]
        self.kernel = meta["kernel"]
        self.dtype = meta.get("dtype", "")
        self.target = meta.get("target", "")
        self.config = meta.get("config", {})
        self.specializes = meta.get("specializes")
        self.args = meta["args"]
        # (name, kind, type, is_float) per argument, for launch()
        self.spec = [(a["name"], a["kind"], a["type"], a["type"] in ("f32", "f16", "bf16", "f64"))
                     for a in self.args]
        self.twins = []  # the __div8 and named twins (GPU variants), most specialized first
        self._handles = {}
        self._twin_handles = None
        self._cuda_launches = []  # _CudaLaunch objects not in use (launch()'s fast path)

    def promises(self):
        """How much a twin promises: (arguments equal to a constant, arguments divisible by
        more than 1); launch() tries the twins with the most first."""
        eq = sum("equal_to" in a for a in self.args)
        div = sum(a.get("divisibility", 1) > 1 for a in self.args)
        return eq, div

    def runs_on(self, device):
        arts = self.meta.get("artifacts", {})
        if device == "cpu":
            return "tile" in arts
        return self.target.startswith("cuda") and ("cubin" in arts or "ptx" in arts)

    def handle(self, device):
        if device not in self._handles:
            if device == "cpu":
                self._handles[device] = _capi.interp_load(self.path)
            else:
                self._handles[device] = _capi.cuda_load(self.path)
        return self._handles[device]

    def __repr__(self):
        return f"Variant({self.name}, target={self.target})"


def _scan():
    global _index
    if _index is not None:
        return _index
    index = {}
    seen = set()
    for d in kernel_directories():
        if not os.path.isdir(d):
            continue
        for f in sorted(os.listdir(d)):
            if not f.endswith(".json"):
                continue
            path = os.path.join(d, f)
            try:
                with open(path) as fh:
                    meta = json.load(fh)
            except (OSError, ValueError):
                continue
            if not isinstance(meta, dict) or "variant" not in meta or "kernel" not in meta:
                continue  # a manifest or another JSON file
            key = (meta["variant"], meta.get("target", ""))
            if key in seen:
                continue  # an earlier directory wins
            seen.add(key)
            v = Variant(path, meta)
            index.setdefault((v.kernel, v.dtype), []).append(v)
    for variants in index.values():
        by_name = {(v.name, v.target): v for v in variants}
        for v in variants:
            if v.specializes and (v.specializes, v.target) in by_name:
                by_name[(v.specializes, v.target)].twins.append(v)
        for v in variants:
            v.twins.sort(key=lambda t: t.promises(), reverse=True)
    _chosen.clear()
    _index = index
    return index


def variants(kernel, dtype, device):
    """The base variants (not twins) of `kernel` at `dtype` that run on `device`; interpreter
    variants first on the CPU."""
    vs = [v for v in _scan().get((kernel, dtype), []) if not v.specializes and v.runs_on(device)]
    if device == "cpu":
        vs.sort(key=lambda v: v.target != "interpreter")
    return vs


def choose(kernel, dtype, device, valid=lambda cfg: True, prefer=None, key=None):
    """The variant of `kernel` for `dtype` on `device` whose config `valid` admits, the least
    `prefer(config)` first, then the library's own configs (CONFIGS, in order) before those
    compiled with -D. LookupError saying how to compile one when none fits. With `key`
    (hashable, standing for what `valid` and `prefer` depend on), the answer is remembered:
    ops call this on every launch."""
    if key is not None:
        hit = _chosen.get((kernel, dtype, device, key))
        if hit is not None and _index is not None:
            return hit
    vs = [v for v in variants(kernel, dtype, device) if valid(v.config)]
    if not vs:
        target = "the interpreter" if device == "cpu" else "cuda (--target=cuda:sm_90a --emit=tile,cubin)"
        raise LookupError(
            f"tessel: no compiled variant of {kernel} ({dtype}) fits on {target} in "
            f"{kernel_directories() or 'no kernel directory'}; compile dsl/kernels with tesselc "
            "-o DIR and add DIR to TESSEL_KERNEL_PATH or tessel.add_kernel_directory(DIR)")
    # Ties go to the library's own configs (config_index: as declared in CONFIGS), in order.
    declared = (lambda v: v.meta.get("config_index", float("inf")))
    vs.sort(key=(lambda v: (prefer(v.config), declared(v))) if prefer is not None else declared)
    if key is not None:
        _chosen[(kernel, dtype, device, key)] = vs[0]
    return vs[0]


# The tuning cache (docs/Autotuning.md, "The tuning cache"): tessel-tune's winners, read as the
# generated C++ launchers read them. Read once (per path) until refresh().
_tuning = {"path": None, "entries": []}
_TUNING_SCHEMA = "tessel-tuning-cache/1"


def tuning_cache_path():
    """$TESSEL_TUNING_CACHE, else tuning.json in $TESSEL_CACHE_DIR, else in
    $XDG_CACHE_HOME/tessel, else in ~/.cache/tessel (TuningCache::defaultPath's order)."""
    env = os.environ
    if env.get("TESSEL_TUNING_CACHE"):
        return env["TESSEL_TUNING_CACHE"]
    d = env.get("TESSEL_CACHE_DIR") or (
        os.path.join(env["XDG_CACHE_HOME"], "tessel") if env.get("XDG_CACHE_HOME")
        else os.path.join(env.get("HOME", ""), ".cache", "tessel"))
    return os.path.join(d, "tuning.json")


def _tuning_entries():
    """The cache's entries, read once per path until refresh() (the choices made from them are
    remembered as long); none when there is no file. A file that is not a tuning cache is named
    in one warning and ignored (ops then choose by their rules), never rewritten."""
    path = tuning_cache_path()
    if path == _tuning["path"]:
        return _tuning["entries"]
    entries = []
    if os.path.exists(path):
        try:
            with open(path) as fh:
                doc = json.load(fh)
            if not isinstance(doc, dict) or doc.get("schema") != _TUNING_SCHEMA:
                raise ValueError(f"not a {_TUNING_SCHEMA} file")
            entries = [e for e in doc.get("entries", []) if isinstance(e, dict)]
        except (OSError, ValueError) as e:
            import warnings
            warnings.warn(f"tessel: tuning cache {path} ignored ({e}); ops choose variants by "
                          "their rules (delete it, or point TESSEL_TUNING_CACHE elsewhere)",
                          stacklevel=3)
    _tuning.update(path=path, entries=entries)
    return entries


def _bucket(value, kind):
    """dsl::bucketOf: the value, or the smallest power of two >= it (1 for value <= 1)."""
    if kind != "pow2":
        return value
    return 1 << (value - 1).bit_length() if value > 1 else 1


_devices = {}


def _device_key(device):
    """(device, driver) as the tuning cache names them for `device` ("cpu" or "cuda")."""
    if device not in _devices:
        if device == "cpu":
            _devices[device] = (_capi.interp_device(), "none")
        else:
            _devices[device] = (_capi.cuda_device(), _capi.cuda_driver())
    return _devices[device]


def _tuning_keys(vs):
    """((argument, bucket), ...) of the first variant among `vs` that records its kernel's
    tuning keys (a variant from an older compiler records none)."""
    for v in vs:
        keys = v.meta.get("tuning_keys")
        if keys:
            return tuple((k["name"], k["bucket"]) for k in keys)
    return ()


def tuned(kernel, dtype, device, values, valid=lambda cfg: True):
    """tuned_entry()'s variant, or None."""
    hit = tuned_entry(kernel, dtype, device, values, valid)
    return hit[0] if hit else None


def twin_of(variant, launched):
    """The tuning key's twin of a timing that launched the file `launched` for `variant`
    (TuningCache's twinOf): the suffix after "variant__" unless it is "div8" (the launchers'
    own twin) or `launched` is not its twin; else ""."""
    prefix = variant + "__"
    if not launched.startswith(prefix) or len(launched) == len(prefix):
        return ""
    suffix = launched[len(prefix):]
    return "" if suffix == "div8" else suffix


def entry_twin(e):
    """An entry's key twin; a cache written before keys had one names it only in `launched`."""
    if "twin" in e:
        return e["twin"]
    return twin_of(e.get("variant", ""), e.get("launched", ""))


def tuned_entries(kernel, dtype, device, values, valid=lambda cfg: True):
    """Every (variant, entry) the tuning cache holds for `kernel` at `dtype` on this `device`
    for the key arguments' `values` ({name: value}), bucketed as the kernel's variants declare
    (tuning_keys: pow2 or exact), in the file's order: one per twin the timings launched (a
    GEMM's layouts; entry_twin), each whose variant is compiled and whose config `valid`
    admits (an entry naming a twin gives the twin's base variant, whose launch takes the twin
    when the arguments keep its promises; tessel-tune records base names). None for no cache,
    another device, driver or compiler, or a variant that is not in a kernel directory. The
    entry is the cache's dict (its "ms": the winner's median time, comparable between kernels
    tuned on the same problem family)."""
    entries = _tuning_entries()
    if not entries:
        return
    vs = variants(kernel, dtype, device)
    spec = _tuning_keys(vs)
    if not spec or any(name not in values for name, _ in spec):
        return
    keys = {name: _bucket(int(values[name]), bucket) for name, bucket in spec}
    dev, driver = _device_key(device)
    by_name = {}
    for v in vs:  # the first of a name, in variants()' order (the interpreter's first on the CPU)
        by_name.setdefault(v.name, v)
    for v in vs:  # an entry naming a twin: its base, whose launch takes the twin when it can
        for t in v.twins:
            by_name.setdefault(t.name, v)
    for e in entries:
        if (e.get("kernel") != kernel or e.get("dtype") != dtype or e.get("keys") != keys
                or e.get("device") != dev or e.get("driver") != driver):
            continue
        v = by_name.get(e.get("variant"))
        if (v is not None and e.get("compiler") == v.meta.get("compiler", {}).get("version")
                and valid(v.config)):
            yield v, e


def tuned_entry(kernel, dtype, device, values, valid=lambda cfg: True, twin=""):
    """The first of tuned_entries() whose key twin is `twin` ("": timed through the variant or
    its __div8 twin, as the C++ launchers look up; "nt": a GEMM timed in that layout's twin),
    else None."""
    for v, e in tuned_entries(kernel, dtype, device, values, valid):
        if entry_twin(e) == twin:
            return v, e
    return None


def choose_tuned(kernel, dtype, device, values, valid=lambda cfg: True, prefer=None, key=()):
    """tuned() for the key arguments' `values`, else choose(); remembered per the values'
    buckets and `key` (hashable, standing for what `valid` and `prefer` depend on), so that an
    op calling it on every launch pays a few dictionary lookups."""
    spec = _chosen.get(("tuning_keys", kernel, dtype, device))
    if spec is None or _index is None:
        spec = _tuning_keys(variants(kernel, dtype, device))
        _chosen[("tuning_keys", kernel, dtype, device)] = spec
    buckets = tuple(_bucket(int(values[n]), b) if n in values else None for n, b in spec)
    memo = ("choose_tuned", kernel, dtype, device, key, buckets)
    hit = _chosen.get(memo)
    if hit is not None and _index is not None:
        return hit
    v = tuned(kernel, dtype, device, values, valid) if spec else None
    if v is None:
        v = choose(kernel, dtype, device, valid=valid, prefer=prefer)
    _chosen[memo] = v
    return v


def remember(key, compute):
    """compute()'s answer for `key` (hashable), computed once until the kernel index changes:
    for ops that pick variants by their own rules on every call (fused linear
    cross-entropy's GEMMs scan hundreds of variants; the host time it takes is on the
    critical path of a call that waits for the device). A LookupError (no compiled variant
    fits) is remembered too and raised again, so that a caller that falls back on it asks
    once, not on every call."""
    hit = _chosen.get(key)
    if hit is None or _index is None:
        try:
            hit = compute()
        except LookupError as e:
            hit = LookupError(*e.args)  # without the traceback's frames
        _chosen[key] = hit
    if isinstance(hit, LookupError):
        raise LookupError(*hit.args)
    return hit


_raw_stream = None  # torch's current-stream query, found on the first CUDA launch


def _stream_query():
    """A function of a device index giving torch's current CUDA stream there, as an address.
    The raw query (as Triton's launcher makes it) skips building a torch.cuda.Stream object per
    launch."""
    global _raw_stream
    if _raw_stream is None:
        import torch
        raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
        _raw_stream = raw if raw is not None else (
            lambda index: torch.cuda.current_stream(index).cuda_stream)
    return _raw_stream


def _cuda_stream(index):
    """torch's current CUDA stream on device `index`, as an address."""
    return (_raw_stream or _stream_query())(index)


class _CudaPointer:
    """What launch() needs of a CUDA tensor (an Array without shape and strides, which a
    launch does not read: describe() costs several microseconds a call on a slow host)."""
    __slots__ = ("name", "dtype", "address", "device", "device_index")
    is_torch = True

    def __init__(self, name, dtype, address, index):
        self.name, self.dtype, self.address = name, dtype, address
        self.device, self.device_index = "cuda", index


def _cuda_pointer(t, name):
    """A _CudaPointer for a CUDA tensor of a supported dtype, else None (describe() then says
    what is wrong, or handles a CPU tensor)."""
    dtype = torch_dtype_name(t.dtype)
    if not t.is_cuda or dtype is None:
        return None
    return _CudaPointer(name, dtype, t.data_ptr(), t.get_device())


def _twin_handles(variant):
    """The CUDA handles of the variant's twins that load (as the launchers: a twin that does
    not load is not used), in launch order, as a ctypes array."""
    if variant._twin_handles is None:
        handles = []
        for t in variant.twins:
            try:
                handles.append(t.handle("cuda"))
            except _capi.TesselError:
                pass
        variant._twin_handles = _capi.handle_array(handles)
    return variant._twin_handles


class _CudaLaunch:
    """A variant's CUDA launch prepared once, for launch()'s fast path: the C function without
    argtypes (_capi.cuda_launch_function) bound to the handles, a TesselArg array with each
    argument's kind set, views of it by which a call writes only the values, the grid and
    stream buffers, and `run`, a function written for the variant's signature (as Triton's
    launchers are) that checks what the common case needs of each argument (a pointer: a
    torch.Tensor or nn.Parameter on cuda:0 of the kernel's dtype, aligned; an integer scalar:
    an int; a float scalar: a float or an int) and launches. A call that is not the common
    case (any other argument, or one that does not fit) takes launch()'s full path, which
    raises the same errors as before the fast path existed. One object serves one launch at a
    time: launch() takes it from the variant's pool and puts it back, so concurrent threads
    (the C call releases the GIL) and a launch made from inside another each write their own
    buffers."""
    __slots__ = ("run", "call", "args", "err")

    def __init__(self, variant):
        torch = sys.modules["torch"]
        dtypes = {name: getattr(torch, t.split(".")[1]) for t, name in _TORCH_DTYPES.items()}
        n = len(variant.spec)
        self.args = args = (_capi.TesselArg * n)()
        words = ctypes.sizeof(_capi.TesselArg) // 8
        self.err = ctypes.create_string_buffer(_capi.ERR_LEN)
        grid, stream = (ctypes.c_int64 * 3)(1, 1, 1), ctypes.c_void_p()
        twins = _twin_handles(variant)
        # The C call on the buffers as they are (what host_overhead.py times alone).
        self.call = functools.partial(
            _capi.cuda_launch_function(), variant.handle("cuda"), twins,
            ctypes.c_int32(len(twins)), grid, args, ctypes.c_int32(n), stream, self.err,
            ctypes.c_size_t(_capi.ERR_LEN))
        env = {"T": torch.Tensor, "P": torch.nn.Parameter, "grid_": grid, "stream": stream,
               "u64": (ctypes.c_uint64 * (n * words)).from_buffer(args),
               "i64": (ctypes.c_int64 * (n * words)).from_buffer(args),
               "f64": (ctypes.c_double * (n * words)).from_buffer(args),
               "call": self.call, "fail": self._fail}
        checks, stores = [], []
        for k, (a, (name, kind, type_, is_float)) in enumerate(zip(args, variant.spec)):
            v = f"a{k}"
            if kind == "ptr":
                a.kind = _capi.ARG_POINTER
                env[f"D{k}"] = dtypes.get(type_)  # None (no torch dtype): never the fast path
                size = ITEMSIZE.get(type_, 1)
                checks += [f"c = {v}.__class__",
                           f"if (c is not T and c is not P) or {v}.dtype is not D{k} "
                           f"or not {v}.is_cuda:", "    return False",
                           f"p{k} = {v}.data_ptr()",
                           f"if p{k} % {size} or {v}.get_device() != 0:", "    return False"]
                stores.append(f"u64[{k * words + _capi.TesselArg.address.offset // 8}] = p{k}")
            elif is_float:
                a.kind = _capi.ARG_FLOAT
                checks += [f"c = {v}.__class__", "if c is not float:", "    if c is not int:",
                           "        return False", f"    {v} = float({v})"]
                stores.append(f"f64[{k * words + _capi.TesselArg.f.offset // 8}] = {v}")
            else:
                a.kind = _capi.ARG_INT
                checks += [f"if {v}.__class__ is not int:", "    return False"]
                stores.append(f"i64[{k * words + _capi.TesselArg.i.offset // 8}] = {v}")
        names = "".join(f"a{k}, " for k in range(n))
        body = [f"if len(args) != {n}:", "    return False", f"{names}= args", *checks,
                "if grid.__class__ is int:", "    g0, g1, g2 = grid, 1, 1",
                "elif grid.__class__ is tuple and 0 < len(grid) <= 3:",
                "    g0, g1, g2 = grid + (1,) * (3 - len(grid))",
                "    if g0.__class__ is not int or g1.__class__ is not int "
                "or g2.__class__ is not int:", "        return False",
                "else:", "    return False",
                *stores, "grid_[0] = g0", "grid_[1] = g1", "grid_[2] = g2",
                "stream.value = (_raw_stream or _stream_query())(0)",
                "if call():", "    fail()", "return True"]
        src = "def run(grid, args):\n" + "".join(f"    {line}\n" for line in body)
        # Every name the function reads is a local of the function that makes it (a closure
        # cell: faster than a global), except the stream query (kernels' global, patchable).
        maker = ("def make(" + ", ".join(env) + "):\n" + "".join(
            f"    {line}\n" for line in src.splitlines()) + "    return run\n")
        scope = {}
        exec(compile(maker, f"<tessel launch of {variant.name}>", "exec"), globals(), scope)
        self.run = scope["make"](**env) if any(k == "ptr" for _, k, _, _ in variant.spec) \
            else (lambda grid, args: False)  # no array: the interpreter's launch

    def _fail(self):
        raise _capi.TesselError(self.err.value.decode(errors="replace"))


def launch(variant, grid, *args):
    """Runs `variant` over `grid` (an int or a tuple of up to 3) on `args` in the kernel's order:
    arrays for pointers, int or float for scalars. Arrays must all be on one device (CPU: the
    interpreter, and waits; CUDA device 0: torch's current stream, does not wait; the first of
    the variant's twins whose promises the arguments keep runs instead). TypeError or
    ValueError naming the argument when one does not fit the kernel's signature."""
    pool = variant._cuda_launches
    fast = None
    if pool:
        try:
            fast = pool.pop()
        except IndexError:  # another thread took the last one
            pass
        else:
            try:
                if fast.run(grid, args):
                    return
            finally:
                pool.append(fast)
    _launch(variant, grid, args, prepare=fast is None)


def _launch(variant, grid, args, prepare):
    """launch() with every check (its fast path's uncommon cases); `prepare`: add a
    _CudaLaunch to the variant's pool after a CUDA launch (when none was free)."""
    spec = variant.spec
    if len(args) != len(spec):
        names = ", ".join(p[0] for p in spec)
        raise TypeError(f"{variant.kernel} takes {len(spec)} arguments ({names}), "
                        f"got {len(args)}")
    arrays = []
    c_args = (_capi.TesselArg * len(spec))()
    for a, value, (name, kind, type_, is_float) in zip(c_args, args, spec):
        if kind == "ptr":
            arr = _cuda_pointer(value, name) if is_torch(value) else None
            if arr is None:
                if not is_array(value):
                    raise TypeError(f"{variant.kernel}: argument {name} is a pointer to "
                                    f"{type_}: pass an array, not {type(value).__name__}")
                arr = describe(value, name)
            if arr.dtype != type_:
                raise TypeError(f"{variant.kernel}: argument {name} must hold {type_}, "
                                f"got {arr.dtype}")
            if arr.address % ITEMSIZE[arr.dtype]:
                raise ValueError(f"{variant.kernel}: argument {name} is not aligned to its "
                                 "element size")
            arrays.append(arr)
            a.kind = _capi.ARG_POINTER
            a.address = arr.address
        elif is_float:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise TypeError(f"{variant.kernel}: argument {name} is a {type_} scalar, "
                                f"got {type(value).__name__}")
            a.kind, a.f = _capi.ARG_FLOAT, float(value)
        else:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{variant.kernel}: argument {name} is an {type_} scalar, "
                                f"got {type(value).__name__}")
            a.kind, a.i = _capi.ARG_INT, int(value)
    device, index = (arrays[0].device, arrays[0].device_index) if arrays else ("cpu", 0)
    for arr in arrays:
        if (arr.device, arr.device_index) != (device, index):
            listing = ", ".join(f"{x.name} on {x.device}:{x.device_index}" for x in arrays)
            raise ValueError(f"{variant.kernel}: arguments are on different devices ({listing})")
    if device == "cuda" and index != 0:
        raise ValueError(f"{variant.kernel}: tensors are on cuda:{index}; Tessel launches on "
                         "device 0's primary context (set CUDA_VISIBLE_DEVICES to pick a GPU)")
    if not variant.runs_on(device):
        raise ValueError(f"{variant.kernel}: variant {variant.name} ({variant.target}) cannot "
                         f"run on {device} arrays")
    g = (grid,) if isinstance(grid, int) else tuple(grid)
    g = tuple(int(x) for x in g) + (1,) * (3 - len(g))
    if device == "cpu":
        pointers = iter(arrays)
        for a in c_args:
            if a.kind == _capi.ARG_POINTER:
                a.region_begin, a.region_bytes = next(pointers).region
        _capi.interp_launch(variant.handle("cpu"), g, c_args)
    else:
        handle = variant.handle("cuda")
        stream = _cuda_stream(index) if arrays[0].is_torch else 0
        _capi.cuda_launch(handle, _twin_handles(variant), g, c_args, stream)
        if prepare and arrays[0].is_torch:
            variant._cuda_launches.append(_CudaLaunch(variant))


def load_kernel(path):
    """A Variant from a variant JSON file, to run with launch()."""
    with open(path) as fh:
        return Variant(os.path.abspath(path), json.load(fh))
