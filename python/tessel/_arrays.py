"""What the package needs of an array, for NumPy arrays and (when importable) torch tensors.

`describe(a, name)` gives an Array: device ("cpu" or "cuda"), Tessel dtype name, shape,
strides in elements, the address of the first element, the byte span the view covers (the
region the interpreter lets the kernel touch). torch is imported only when a torch tensor is
passed, so NumPy alone is enough for the core.
"""

import sys
from dataclasses import dataclass

_NUMPY_DTYPES = {"float32": "f32", "float16": "f16", "float64": "f64", "int64": "i64",
                 "int32": "i32", "int8": "i8", "int16": "i16", "bool": "i1"}
_TORCH_DTYPES = {"torch.float32": "f32", "torch.float16": "f16", "torch.bfloat16": "bf16",
                 "torch.float64": "f64", "torch.int64": "i64", "torch.int32": "i32",
                 "torch.int8": "i8", "torch.int16": "i16", "torch.bool": "i1"}
ITEMSIZE = {"f32": 4, "f16": 2, "bf16": 2, "f64": 8, "i64": 8, "i32": 4, "i16": 2, "i8": 1,
            "i1": 1}


@dataclass
class Array:
    obj: object
    name: str
    device: str           # "cpu" or "cuda"
    device_index: int     # CUDA: the device's ordinal; 0 for the CPU
    dtype: str            # "f32", "bf16", ...
    shape: tuple
    strides: tuple        # elements
    address: int          # the first element
    is_torch: bool

    @property
    def region(self):
        """(begin, bytes): every element of the view (what the interpreter lets a kernel
        touch); computed on demand, as CUDA launches do not need it."""
        return _span(self.address, self.shape, self.strides, ITEMSIZE[self.dtype])

    @property
    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def is_contiguous(self):
        expected = 1
        for size, stride in zip(reversed(self.shape), reversed(self.strides)):
            if size != 1 and stride != expected:
                return False
            expected *= size
        return True


_Tensor = None  # torch.Tensor once torch is imported


def is_torch(a):
    global _Tensor
    if _Tensor is None:
        torch = sys.modules.get("torch")
        if torch is None:
            return False
        _Tensor = torch.Tensor
    return isinstance(a, _Tensor)


_torch_dtype_names = {}  # torch.dtype -> Tessel's name (None: unsupported), filled on use


def torch_dtype_name(dtype):
    """Tessel's name of a torch.dtype ("bf16", ...), None when kernels cannot take it."""
    name = _torch_dtype_names.get(dtype, "")
    if name == "":
        name = _torch_dtype_names[dtype] = _TORCH_DTYPES.get(str(dtype))
    return name


def is_array(a):
    if is_torch(a):
        return True
    np = sys.modules.get("numpy")
    return np is not None and isinstance(a, np.ndarray)


def _span(address, shape, strides, itemsize):
    if any(s == 0 for s in shape):
        return (address, 0)
    lo = hi = 0
    for size, stride in zip(shape, strides):
        if stride >= 0:
            hi += (size - 1) * stride
        else:
            lo += (size - 1) * stride
    return (address + lo * itemsize, (hi - lo + 1) * itemsize)


class _TorchArray:
    """The Array of a torch tensor, read from the tensor when asked: an op describes each
    tensor several times and reads one or two fields each time, and on a slow host every field
    read ahead costs a microsecond."""
    __slots__ = ("obj", "name", "dtype", "device", "device_index")
    is_torch = True

    def __init__(self, t, name, dtype, device, index):
        self.obj, self.name, self.dtype, self.device, self.device_index = (t, name, dtype,
                                                                           device, index)

    shape = property(lambda self: self.obj.shape)
    strides = property(lambda self: self.obj.stride())
    address = property(lambda self: self.obj.data_ptr())
    numel = property(lambda self: self.obj.numel())
    region = Array.region
    is_contiguous = Array.is_contiguous


def describe(a, name):
    """The Array of `a` (a NumPy array or a torch tensor); TypeError naming `name` otherwise."""
    if is_torch(a):
        dtype = torch_dtype_name(a.dtype)
        if dtype is None:
            raise TypeError(f"{name}: dtype {a.dtype} is not supported by Tessel kernels")
        if a.is_cuda:
            return _TorchArray(a, name, dtype, "cuda", a.get_device())
        if a.is_cpu:
            return _TorchArray(a, name, dtype, "cpu", 0)
        raise ValueError(f"{name}: tensors on {a.device} are not supported; use a CUDA "
                         "tensor (GPU) or a CPU tensor (interpreter)")
    np = sys.modules.get("numpy")
    if np is not None and isinstance(a, np.ndarray):
        dtype = _NUMPY_DTYPES.get(str(a.dtype))
        if dtype is None:
            raise TypeError(f"{name}: NumPy dtype {a.dtype} is not supported by Tessel kernels "
                            "(float32, float16, float64, int64, int32; bfloat16 needs torch)")
        item = a.dtype.itemsize
        if any(s % item for s in a.strides):
            raise ValueError(f"{name}: strides {a.strides} are not multiples of the element size")
        shape, strides = tuple(a.shape), tuple(s // item for s in a.strides)
        address = a.__array_interface__["data"][0]
        return Array(a, name, "cpu", 0, dtype, shape, strides, address, False)
    raise TypeError(f"{name}: expected a NumPy array or a torch tensor, got {type(a).__name__}")
