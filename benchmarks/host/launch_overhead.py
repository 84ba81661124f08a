#!/usr/bin/env python3
"""launch_overhead.py: the host time of tessel's per-launch Python path, without a GPU.

Times `tessel.kernels.launch()` on CUDA tensors, `tessel.ops.rms_norm` / `swiglu` (no grad) and
rms_norm forward + backward through the eager autograd path (tessel.torch_ops), with everything
real except the GPU:

- the C library is a stub `libtessel_launcher.so` compiled here (cc) whose tessel_cuda_load and
  tessel_cuda_launch return at once, so the ctypes call and its argument conversion are timed
  (without cc: `_capi.cuda_load` / `cuda_launch` are replaced by Python no-ops);
- CPU torch tensors pass for CUDA tensors on device 0 (`torch.Tensor.is_cuda` and `get_device`
  patched, torch's raw current-stream query returns 0, the SM count is 132), so the ops allocate
  and reshape real (CPU) tensors and autograd runs its real graph;
- the variants are the package's interpreter variants (build/python/tessel/kernels/interpreter)
  rewritten as sm_90a variants with a `__div8` twin each, in a temporary directory.

Each case: per-call time of a batch of --calls calls (the thread's CPU time; --wall: the wall
clock), median (and minimum) over --rounds batches, in microseconds. The numbers are this
host's: they compare two versions of the package (--package DIR, e.g. a checkout's python/ or
build/python) on one machine, not GPU-machine times (benchmarks/gpu/host_overhead.py measures
those). On a shared host they move by tens of percent from run to run: compare with --compare.

    PYTHONPATH= /tmp/h12venv/bin/python benchmarks/host/launch_overhead.py [--package DIR]

--compare DIR_A DIR_B runs the cases in --runs processes per package, alternating, and prints
each case's median of the runs' medians per package (a shared host's noise comes and goes).
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

STUB = r"""
#include <stddef.h>
#include <stdint.h>
#include <string.h>
int tessel_cuda_load(const char *path, void **kernel, char *err, size_t len) {
  (void)path; (void)err; (void)len; *kernel = (void *)(uintptr_t)0x1000; return 0;
}
int tessel_cuda_launch(void *kernel, void *const *twins, int32_t numTwins, const int64_t grid[3],
                       const void *args, int32_t numArgs, void *stream, char *err, size_t len) {
  (void)kernel; (void)twins; (void)numTwins; (void)grid; (void)args; (void)numArgs;
  (void)stream; (void)err; (void)len; return 0;
}
void tessel_cuda_device(char *out, size_t len) { strncpy(out, "stub", len); }
"""


def fake_cuda_kernels(src, dest):
    """The interpreter variants of `src` as sm_90a variants (a cubin named, never read), each
    with a __div8 twin whose integer scalars promise divisibility by 8."""
    for f in sorted(os.listdir(src)):
        if not f.endswith(".json"):
            continue
        with open(os.path.join(src, f)) as fh:
            meta = json.load(fh)
        if not isinstance(meta, dict) or "variant" not in meta:
            continue
        name = meta["variant"]
        meta["target"] = "cuda:sm_90a"
        meta["artifacts"] = {"cubin": name + ".cubin"}
        with open(os.path.join(dest, name + ".json"), "w") as fh:
            json.dump(meta, fh)
        twin = json.loads(json.dumps(meta))
        twin["variant"] = name + "__div8"
        twin["specializes"] = name
        for a in twin["args"]:
            if a["kind"] == "scalar" and a["type"] in ("i32", "i64"):
                a["divisibility"] = 8
        with open(os.path.join(dest, name + "__div8.json"), "w") as fh:
            json.dump(twin, fh)


def stub_library(dest):
    """Compiles the stub libtessel_launcher.so into dest; False without a C compiler."""
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return False
    c = os.path.join(dest, "stub.c")
    with open(c, "w") as fh:
        fh.write(STUB)
    r = subprocess.run([cc, "-O2", "-shared", "-fPIC", "-o",
                        os.path.join(dest, "libtessel_launcher.so"), c], capture_output=True)
    return r.returncode == 0


def per_call(fn, calls, rounds, clock=time.thread_time):
    """(median, min) over `rounds` batches of the per-call time of `calls` calls, in us, by
    the thread's CPU time (on a shared host, less disturbed by other processes than the wall
    clock)."""
    for _ in range(max(calls // 4, 20)):
        fn()
    times = []
    for _ in range(rounds):
        t0 = clock()
        for _ in range(calls):
            fn()
        times.append((clock() - t0) / calls * 1e6)
    return statistics.median(times), min(times)


def compare(args):
    results = {d: {} for d in args.compare}
    labels = {}
    forwarded = ["--kernels", args.kernels, "--calls", str(args.calls), "--rounds",
                 str(args.rounds)] + (["--only", args.only] if args.only else []) + (
                     ["--wall"] if args.wall else [])
    for run in range(args.runs):
        for d in args.compare:
            out = subprocess.run([sys.executable, os.path.abspath(__file__), "--package", d]
                                 + forwarded, capture_output=True, text=True, check=True).stdout
            for line in out.splitlines()[1:]:
                name, med = line.split()[0], float(line.split()[1])
                results[d].setdefault(name, []).append(med)
                labels[name] = line.split("min", 1)[1].strip()
    a, b = args.compare
    print(f"median of {args.runs} runs' medians (us per call): A = {a}, B = {b}")
    for name in labels:
        ma, mb = statistics.median(results[a][name]), statistics.median(results[b][name])
        print(f"{name:17s} A {ma:8.2f}  B {mb:8.2f}  B/A {mb / ma:5.2f}   {labels[name]}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_pkg = os.path.join(root, "build", "python")
    if not os.path.isdir(os.path.join(default_pkg, "tessel")):
        default_pkg = os.path.join(root, "python")
    p.add_argument("--package", default=default_pkg, help="the directory holding tessel/")
    p.add_argument("--kernels", default=os.path.join(root, "build", "python", "tessel",
                                                     "kernels", "interpreter"),
                   help="interpreter variant JSONs to rewrite as CUDA variants")
    p.add_argument("--calls", type=int, default=200)
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--wall", action="store_true", help="time by the wall clock, not CPU time")
    p.add_argument("--profile", action="store_true", help="cProfile each case after timing")
    p.add_argument("--compare", nargs=2, metavar="DIR", help="two package directories")
    p.add_argument("--runs", type=int, default=5, help="processes per package (--compare)")
    args = p.parse_args()
    if args.compare:
        return compare(args)

    tmp = tempfile.mkdtemp(prefix="tessel-host-")
    kdir, ldir = os.path.join(tmp, "kernels"), os.path.join(tmp, "lib")
    os.makedirs(kdir)
    os.makedirs(ldir)
    fake_cuda_kernels(args.kernels, kdir)
    stubbed = stub_library(ldir)
    os.environ["TESSEL_KERNEL_PATH"] = kdir
    os.environ["TESSEL_LIB_DIR"] = ldir
    sys.path.insert(0, os.path.abspath(args.package))

    import torch
    torch.set_num_threads(1)  # the CPU time of this thread is all there is
    torch.Tensor.is_cuda = property(lambda self: True)
    torch.Tensor.get_device = lambda self: 0
    torch._C._cuda_getCurrentRawStream = lambda index: 0

    import tessel
    from tessel import _capi, _common, kernels, ops
    _common._sm_counts[0] = 132
    if not stubbed:
        _capi.cuda_load = lambda path: __import__("ctypes").c_void_p(0x1000)
        _capi.cuda_launch = lambda *a: None
    print(f"package {os.path.dirname(tessel.__file__)}; C library: "
          f"{'stub (ctypes call timed)' if stubbed else 'Python no-op (no C compiler)'}")

    bf16 = torch.bfloat16
    x = torch.randn(64, 1000, dtype=bf16)
    w = torch.rand(1000, dtype=bf16)
    out = torch.empty_like(x)
    v = kernels.choose("rmsnorm", "bf16", "cuda", valid=lambda c: c["BLOCK"] >= 1000,
                       prefer=lambda c: c["BLOCK"])
    xg, wg = x.clone().requires_grad_(), w.clone().requires_grad_()
    dy = torch.randn_like(x)

    def fwd_bwd():
        ops.rms_norm(xg, wg).backward(dy)
        xg.grad = wg.grad = None

    cases = [
        ("launch", "kernels.launch(rmsnorm, 64, out, x, w, 1000, 1000, 1e-6)",
         lambda: kernels.launch(v, 64, out, x, w, 1000, 1000, 1e-6), False),
        ("rms_norm", "ops.rms_norm(x, w), no grad",
         lambda: ops.rms_norm(x, w), True),
        ("swiglu", "ops.swiglu(x, x), no grad", lambda: ops.swiglu(x, x), True),
        ("rms_norm_fwd_bwd", "ops.rms_norm(x, w).backward(dy), eager autograd", fwd_bwd, False),
        ("torch_empty", "torch.empty((64, 1000), bf16) (a reference)",
         lambda: torch.empty((64, 1000), dtype=bf16), False),
    ]
    only = set(filter(None, args.only.split(",")))
    for name, label, fn, no_grad in cases:
        if only and name not in only:
            continue
        with torch.set_grad_enabled(not no_grad):
            med, best = per_call(fn, args.calls, args.rounds,
                                 time.perf_counter if args.wall else time.thread_time)
            print(f"{name:17s} {med:8.2f} us median {best:8.2f} min   {label}")
            if args.profile:
                import cProfile
                import pstats
                prof = cProfile.Profile()
                prof.enable()
                for _ in range(2000):
                    fn()
                prof.disable()
                pstats.Stats(prof).sort_stats("tottime").print_stats(14)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
