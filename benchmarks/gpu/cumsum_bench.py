#!/usr/bin/env python3
"""cumsum_bench.py (in a directory made by prepare.sh, on a GPU machine): the library's row-wise
cumsum (dsl/kernels/cumsum.cpp) beside torch.cumsum(x, -1) and torch.compile of it, shape by
shape in one process.

Tessel: every cumsum_looped cubin of kernels/ for the dtype, each through `./tessel-run-gpu
--problem cumsum --bench` (verified against the harness's float64 reference first, then the
median of cold-L2 launches between CUDA events); the fastest is the row's. PyTorch:
triton.testing.do_bench (median, L2 flushed). GB/s = (read + write) / time; %copy against the
device-to-device copy bandwidth measured in the same run. Odd shapes are verified only."""
import glob, json, os, re, subprocess, sys

import torch
import triton

here = os.path.dirname(os.path.abspath(__file__))
VERIFY = ["f32:37x5000", "bf16:3x70001", "f16:129x1023"]
BENCH = ["bf16:4096x32000", "f32:4096x32000", "bf16:16384x4096", "f32:1024x131072"]


def variants(dt):
    return sorted(glob.glob(os.path.join(here, "kernels", f"cumsum_looped__{dt}__*.json")))


def tessel(path, shape, bench):
    args = [os.path.join(here, "tessel-run-gpu"), path, "--target=cuda", "--shape", shape]
    if bench:
        args += ["--bench", "--reps", "50"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    if "is not a multiple of" in r.stderr:
        return None, None, r.stderr  # a __div8 twin refusing a shape it does not cover
    ok = "PASS" in r.stdout and r.returncode == 0
    m = re.search(r"median ([0-9.]+) (us|ms)", r.stdout)
    t = None if not m else float(m.group(1)) * (1e-3 if m.group(2) == "us" else 1.0)
    return ok, t, r.stdout + r.stderr


def copy_gbs():
    x = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    y = torch.empty_like(x)
    ms = triton.testing.do_bench(lambda: y.copy_(x), warmup=25, rep=200, return_mode="median")
    return 2 * x.numel() / ms / 1e6


failed = 0
for spec in VERIFY:
    dt, shape = spec.split(":")
    for v in variants(dt):
        ok, _, log = tessel(v, shape, False)
        if ok is None:
            continue
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} verify {dt} {shape} {os.path.basename(v)}")
        if not ok:
            print(log[-800:])
copy = copy_gbs()
rows = []
for spec in BENCH:
    dt, shape = spec.split(":")
    R, C = map(int, shape.split("x"))
    best = None
    for v in variants(dt):
        ok, t, log = tessel(v, shape, True)
        if ok is None:
            continue
        failed += not ok
        if not ok:
            print(f"FAIL {dt} {shape} {os.path.basename(v)}\n{log[-800:]}")
        elif t is not None and (best is None or t < best[0]):
            best = (t, os.path.basename(v))
    tdt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}[dt]
    x = torch.randn(R, C, device="cuda", dtype=tdt)
    # torch.cumsum of a half-precision tensor accumulates in f32 and returns the input dtype.
    eager = lambda: torch.cumsum(x, -1)
    compiled = torch.compile(lambda x: torch.cumsum(x.float(), -1).to(x.dtype))
    compiled(x)
    te = triton.testing.do_bench(eager, warmup=25, rep=200, return_mode="median")
    tc = triton.testing.do_bench(lambda: compiled(x), warmup=25, rep=200, return_mode="median")
    gb = 2 * R * C * x.element_size() / 1e6
    rows.append((dt, shape, best, te, tc, gb))
print(f"\ncopy bandwidth {copy:.0f} GB/s; times are medians in us; GB/s = read + write")
print(f"{'dtype':5s} {'shape':14s} {'tessel':>8s} {'torch':>8s} {'compile':>8s} {'t/torch':>8s} "
      f"{'t/compile':>9s} {'GB/s':>6s} {'%copy':>6s}  config")
for dt, shape, best, te, tc, gb in rows:
    if best is None:
        print(f"{dt:5s} {shape:14s} no verified Tessel variant")
        continue
    t = best[0]
    print(f"{dt:5s} {shape:14s} {t * 1e3:8.1f} {te * 1e3:8.1f} {tc * 1e3:8.1f} {te / t:8.3f} "
          f"{tc / t:9.3f} {gb / t:6.0f} {100 * gb / t / copy:5.1f}%  {best[1]}")
print(f"cumsum_bench: {failed} failures")
sys.exit(1 if failed else 0)
