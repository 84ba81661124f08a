"""ctypes bindings of the C API (include/tessel/CApi/Kernels.h).

Two shared libraries, each loaded on first use: libtessel_interp.so (the interpreter, links
MLIR) for CPU arrays, libtessel_launcher.so (the CUDA driver only) for CUDA tensors, so a GPU
machine without LLVM/MLIR never loads the first. They are looked up in $TESSEL_LIB_DIR, then
the package's lib/ directory (the build and prepare.sh put them there).
"""

import ctypes
import os
import threading

ARG_POINTER, ARG_INT, ARG_FLOAT = 0, 1, 2


class TesselArg(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_int32),
        ("reserved", ctypes.c_int32),
        ("address", ctypes.c_uint64),
        ("i", ctypes.c_int64),
        ("f", ctypes.c_double),
        ("region_begin", ctypes.c_uint64),
        ("region_bytes", ctypes.c_uint64),
    ]


class TesselError(RuntimeError):
    """A kernel failed to load or to run (the message is the C API's)."""


_ERR_LEN = ERR_LEN = 4096
_libs = {}


def _lib_dirs():
    dirs = []
    if os.environ.get("TESSEL_LIB_DIR"):
        dirs.append(os.environ["TESSEL_LIB_DIR"])
    dirs.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "lib"))
    return dirs


def _load(name):
    if name in _libs:
        return _libs[name]
    tried = []
    for d in _lib_dirs():
        path = os.path.join(d, name)
        tried.append(path)
        if os.path.exists(path):
            lib = ctypes.CDLL(path)
            break
    else:
        raise TesselError(
            f"tessel: {name} not found (looked in {', '.join(tried)}); build Tessel "
            "(./scripts/build.sh) or set TESSEL_LIB_DIR to the directory that holds it")
    p = ctypes.POINTER
    if name == "libtessel_interp.so":
        lib.tessel_interp_load.argtypes = [ctypes.c_char_p, p(ctypes.c_void_p), ctypes.c_char_p,
                                           ctypes.c_size_t]
        lib.tessel_interp_launch.argtypes = [ctypes.c_void_p, p(ctypes.c_int64), p(TesselArg),
                                             ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t]
        lib.tessel_interp_device.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.tessel_interp_device.restype = None
    else:
        lib.tessel_cuda_load.argtypes = [ctypes.c_char_p, p(ctypes.c_void_p), ctypes.c_char_p,
                                         ctypes.c_size_t]
        lib.tessel_cuda_launch.argtypes = [ctypes.c_void_p, p(ctypes.c_void_p), ctypes.c_int32,
                                           p(ctypes.c_int64), p(TesselArg), ctypes.c_int32,
                                           ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t]
        lib.tessel_cuda_device.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.tessel_cuda_device.restype = None
        lib.tessel_cuda_driver.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
        lib.tessel_cuda_driver.restype = None
    _libs[name] = lib
    return lib


def _check(rc, err):
    if rc != 0:
        raise TesselError(err.value.decode(errors="replace"))


def interp_load(json_path):
    lib = _load("libtessel_interp.so")
    handle, err = ctypes.c_void_p(), ctypes.create_string_buffer(_ERR_LEN)
    _check(lib.tessel_interp_load(json_path.encode(), ctypes.byref(handle), err, _ERR_LEN), err)
    return handle


def interp_launch(handle, grid, args):
    """args: a ctypes array of TesselArg."""
    lib = _load("libtessel_interp.so")
    g = (ctypes.c_int64 * 3)(*grid)
    err = ctypes.create_string_buffer(_ERR_LEN)
    _check(lib.tessel_interp_launch(handle, g, args, len(args), err, _ERR_LEN), err)


def cuda_load(json_path):
    lib = _load("libtessel_launcher.so")
    handle, err = ctypes.c_void_p(), ctypes.create_string_buffer(_ERR_LEN)
    _check(lib.tessel_cuda_load(json_path.encode(), ctypes.byref(handle), err, _ERR_LEN), err)
    return handle


def handle_array(handles):
    """Loaded handles as the C API's `void *const *` (twins)."""
    return (ctypes.c_void_p * len(handles))(*[h.value for h in handles])


_tls = threading.local()  # per thread: CUDA launches' error buffer (read only on a failure)


def cuda_launch(handle, twins, grid, args, stream):
    """args: a ctypes array of TesselArg; twins: handle_array()'s."""
    lib = _libs.get("libtessel_launcher.so") or _load("libtessel_launcher.so")
    g = (ctypes.c_int64 * 3)(*grid)
    err = getattr(_tls, "err", None)
    if err is None:
        err = _tls.err = ctypes.create_string_buffer(_ERR_LEN)
    if lib.tessel_cuda_launch(handle, twins, len(twins), g, args, len(args), stream, err,
                              _ERR_LEN):
        raise TesselError(err.value.decode(errors="replace"))


def cuda_launch_function():
    """tessel_cuda_launch without argtypes, for a caller that passes ctypes objects only (a
    prepared launch, kernels._CudaLaunch): each call then skips argtypes' conversions, about
    half of the call's host time."""
    lib = _libs.get("libtessel_launcher.so") or _load("libtessel_launcher.so")
    fn = lib["tessel_cuda_launch"]  # a new object: lib.tessel_cuda_launch keeps its argtypes
    fn.restype = ctypes.c_int
    return fn


def _text(lib, fn):
    out = ctypes.create_string_buffer(256)
    getattr(_load(lib), fn)(out, 256)
    return out.value.decode()


def cuda_device():
    return _text("libtessel_launcher.so", "tessel_cuda_device")


def cuda_driver():
    """"CUDA 13.0": the driver's version as the tuning cache records it."""
    return _text("libtessel_launcher.so", "tessel_cuda_driver")


def interp_device():
    """"CPU interpreter (N threads)": the interpreter's device as the tuning cache names it."""
    return _text("libtessel_interp.so", "tessel_interp_device")
