#!/usr/bin/env python3
"""moe_bench.py (in a directory made by prepare.sh, on a GPU machine): the library's MoE routing
kernel (dsl/kernels/moe_routing.cpp: expert histogram and exclusive offsets in one launch)
beside PyTorch's torch.bincount(ids, minlength=E) and cumsum (eager and torch.compile), shape by
shape in one process.

Tessel: every moe_routing and moe_routing_atomics cubin of kernels/ whose E_BLOCK holds E, through `./tessel-run-gpu
--bench` (verified exactly against the harness's reference first, then the median of cold-L2
launches between CUDA events); the fastest is the row's. PyTorch: triton.testing.do_bench
(median, L2 flushed). Shapes NxE: n = tokens x top-k ids, E experts. Odd shapes are verified
only."""
import glob, os, re, subprocess

import torch
import triton

here = os.path.dirname(os.path.abspath(__file__))
VERIFY = ["1x1", "1000x8", "4100x60", "70001x256"]
BENCH = ["8192x8", "65536x64", "131072x64", "524288x256"]  # Mixtral 4K x 2, 64- and 256-expert


def variants(e):
    out = []
    for p in sorted(glob.glob(os.path.join(here, "kernels", "moe_routing__*.json")) +
                    glob.glob(os.path.join(here, "kernels", "moe_routing_atomics__*.json"))):
        m = re.search(r"E_BLOCK_(\d+)", p)
        if m and int(m.group(1)) >= e and "__div8" not in p:
            out.append(p)
    return out


def tessel(path, shape, bench):
    args = [os.path.join(here, "tessel-run-gpu"), path, "--target=cuda", "--shape", shape]
    if bench:
        args += ["--bench", "--reps", "100"]
    r = subprocess.run(args, capture_output=True, text=True, timeout=300)
    ok = "PASS" in r.stdout and r.returncode == 0
    m = re.search(r"median ([0-9.]+) (us|ms)", r.stdout)
    t = None if not m else float(m.group(1)) * (1e-3 if m.group(2) == "us" else 1.0)
    return ok, t, r.stdout + r.stderr


failed = 0
for shape in VERIFY:
    for v in variants(int(shape.split("x")[1])):
        ok, _, log = tessel(v, shape, False)
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} verify {shape} {os.path.basename(v)}")
        if not ok:
            print(log[-800:])


def routing(ids, e):
    counts = torch.bincount(ids, minlength=e)
    return counts, torch.cumsum(counts, 0) - counts


rows = []
for shape in BENCH:
    n, e = map(int, shape.split("x"))
    best = None
    for v in variants(e):
        ok, t, log = tessel(v, shape, True)
        failed += not ok
        if not ok:
            print(f"FAIL {shape} {os.path.basename(v)}\n{log[-800:]}")
        elif t is not None and (best is None or t < best[0]):
            best = (t, os.path.basename(v))
    ids = torch.randint(0, e, (n,), device="cuda", dtype=torch.int32)
    compiled = torch.compile(routing)
    compiled(ids, e)
    te = triton.testing.do_bench(lambda: routing(ids, e), warmup=25, rep=200, return_mode="median")
    tc = triton.testing.do_bench(lambda: compiled(ids, e), warmup=25, rep=200,
                                 return_mode="median")
    rows.append((shape, best, te, tc))

print(f"\n{'NxE':12s} {'tessel us':>9s} {'eager us':>9s} {'compile us':>10s} {'t/eager':>8s} "
      f"{'t/compile':>9s}  config")
for shape, best, te, tc in rows:
    t = best[0] if best else None
    f = lambda x: f"{x * 1e3:9.1f}" if x else "        -"
    print(f"{shape:12s} {f(t)} {f(te)} {f(tc):>10s} {te / t if t else 0:8.2f} "
          f"{tc / t if t else 0:9.2f}  {best[1] if best else '-'}")
print(f"moe_bench: {'all verified' if not failed else f'{failed} FAILED'}")
raise SystemExit(1 if failed else 0)
