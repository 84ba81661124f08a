"""Max active clusters (cuOccupancyMaxActiveClusters) of each cluster cubin, and max active
blocks per SM of the others, at their shared memory and thread counts."""
import ctypes, glob, json, sys
import torch
torch.cuda.init(); torch.zeros(1, device="cuda")
cu = ctypes.CDLL("libcuda.so.1")
class LaunchConfig(ctypes.Structure):
    _fields_ = [("gx", ctypes.c_uint), ("gy", ctypes.c_uint), ("gz", ctypes.c_uint),
                ("bx", ctypes.c_uint), ("by", ctypes.c_uint), ("bz", ctypes.c_uint),
                ("smem", ctypes.c_uint), ("stream", ctypes.c_void_p), ("attrs", ctypes.c_void_p),
                ("nattrs", ctypes.c_uint)]
for j in sorted(glob.glob("kernels/*__nn.json")):
    meta = json.load(open(j))
    if "f16__" not in j or "bf16" in j: continue
    cub = open(j[:-5] + ".cubin", "rb").read()
    mod = ctypes.c_void_p(); fn = ctypes.c_void_p()
    assert cu.cuModuleLoadData(ctypes.byref(mod), cub) == 0
    assert cu.cuModuleGetFunction(ctypes.byref(fn), mod, meta["function"].encode()) == 0
    smem = meta.get("shared_memory", 0); threads = meta["num_warps"] * 32
    r = cu.cuFuncSetAttribute(fn, 8, smem)
    n = ctypes.c_int(-1)
    if "cluster_size_2" in j:
        cfg = LaunchConfig(128, 1, 1, threads, 1, 1, smem, None, None, 0)
        r = cu.cuOccupancyMaxActiveClusters(ctypes.byref(n), fn, ctypes.byref(cfg))
        what = "max active clusters"
    else:
        r = cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(ctypes.byref(n), fn, threads, smem)
        what = "blocks per SM"
    print(f"{meta['function'][15:]:110s} smem {smem:6d} threads {threads}: {what} {n.value} (rc {r})")
