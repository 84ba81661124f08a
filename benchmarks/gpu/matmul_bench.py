#!/usr/bin/env python3
"""matmul_bench.py [--shapes DT:MxNxK[:bT],...|llm] [--explore] [--no-triton] (in a directory made
by prepare.sh, on a GPU machine): tessel.ops.matmul, the whole op as a PyTorch user calls it (the
padded copy of operands that TMA cannot read included), beside torch.matmul (cuBLAS) and the
autotuned Triton GEMM of shared/anchors/triton_reference.py, in one process on one GPU.

Each row is verified first: the op's output against a float64 product (relative Frobenius
error, bound 1e-2 for f16/bf16 outputs, 1e-4 for f32), on an output buffer the caching
allocator last held full of NaN. Then two timings per library, median ms: do_bench (cold L2, as
the anchor scripts: host launch costs included when they exceed the GPU's) and
do_bench_cudagraph (the launches replayed from a CUDA graph: the GPU's time alone), each
--rounds times per library in balanced orders (the median counts), each after --idle-ms of
idling, so that no library's timing always starts right after another's 100 ms of load.

--explore also times every plain gemm_block_ptr variant (graph timing), with and without the
copy, and every plain gemm_split_k variant that reads with TMA at 1, 2, 3, 4, 6 and 8 slices of K
(on operands TMA reads in place), on the rows of at least 64 rows and at most --explore-flops
(2^33), each verified first, so the tile, split and copy heuristics of tessel/_matmul.py can be
checked against measurements; --explore-filter SUBSTRING keeps the variants whose names hold it
(e.g. BLOCK_N_96 against BLOCK_N_128: separate runs, or a staged kernels directory of both).
`--shapes llm` runs the LLM linear-layer suite of shared/anchors/gemm_suite.py (32 shapes,
llm_shapes.py). The table ends with the geometric mean of cuBLAS's time over Tessel's, and
each row's GB/s against a device copy measured in the same run (decode rows are judged by
bandwidth: against the 1 GiB copy's GB/s, and against the time of a copy that moves the row's own
bytes, which a 32 MB weight's launch and DRAM ramp hold far below the 1 GiB copy's rate). Writes $OUT/matmul_bench.json when OUT is set; --no-triton leaves Triton out (its
autotuning costs a minute)."""
import argparse, json, math, os, statistics, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(here, "python"), here]
from llm_shapes import expand  # noqa: E402  (beside this script)

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--shapes", default="f16:1000x999x1001,f16:1024x1024x2048,f16:1024x1024x2048:bT,"
                "bf16:1000x999x1001,f16:500x499x501,f16:2000x1999x2001,f16:127x255x129,"
                "bf16:4096x4096x4096:bT,bf16:1x4096x4096:bT,bf16:16x6144x4096:bT")
ap.add_argument("--explore", action="store_true")
ap.add_argument("--explore-flops", type=float, default=2.0**33,
                help="largest product (2 M N K) --explore times its variants on")
ap.add_argument("--explore-filter", default="",
                help="--explore times only the variants whose names contain this")
ap.add_argument("--rounds", type=int, default=3,
                help="timings per library and row (the median counts), in balanced orders: "
                     "with Triton 6 rounds give each library each position and predecessor "
                     "equally often, 3 each position once; 1: Tessel, cuBLAS, Triton")
ap.add_argument("--idle-ms", type=float, default=100,
                help="idle time before each timing, so that none starts right after another "
                     "library's load (the GPU's clock under its power limit)")
ap.add_argument("--no-triton", action="store_true",
                help="time Tessel and cuBLAS only (Triton's autotuning: a minute of device time)")
args = ap.parse_args()
args.shapes = expand(args.shapes)
if args.rounds < 1 or args.idle_ms < 0:
    ap.error("--rounds must be at least 1 and --idle-ms not negative")

import torch
import triton
import triton.testing as tt
import tessel
from tessel import kernels as K
from tessel._matmul import (_Plan, _launched, _matmul, _plain, _run, _scalars, _swapped,
                            _tma_reads, plan_of)
from tessel._arrays import describe

try:
    if args.no_triton:
        raise RuntimeError("--no-triton")
    from triton_gemm import triton_mm
except Exception as e:
    print(f"note: no Triton GEMM ({e})")
    triton_mm = None

tessel.add_kernel_directory(os.path.join(here, "kernels"))
dtypes = {"f16": torch.float16, "bf16": torch.bfloat16, "f32": torch.float32}


def poisoned_call(fn, m, n, dtype):
    """fn() right after a NaN-filled (m, n) buffer is freed: the caching allocator hands the
    same block to the op's output, so an element the op does not write stays NaN."""
    t = torch.full((m, n), float("nan"), device="cuda", dtype=dtype)
    del t
    return fn()


def check(c, ref, dt):
    err = ((c.double() - ref).norm() / ref.norm()).item()
    ok = bool(torch.isfinite(c).all()) and err < (1e-4 if dt == "f32" else 1e-2)
    return err, ok


def times(fn):
    return (tt.do_bench(fn, warmup=25, rep=100, return_mode="median"),
            tt.do_bench_cudagraph(fn, rep=100, return_mode="median"))


def round_orders(n):
    """Orders of n libraries for successive rounds (a Williams design): over n rounds (n <= 2)
    or 2n (n = 3: the rotations, then the rotations reversed) each library runs first equally
    often and right after each other library equally often."""
    cyclic = [list(range(r, n)) + list(range(r)) for r in range(n)]
    return cyclic + [o[::-1] for o in cyclic] if n > 2 else cyclic


def copy_gbps():
    """The device-to-device copy's bandwidth (1 GiB, read + write, do_bench median): the
    ceiling a memory-bound product's GB/s is judged against."""
    src = torch.empty(2**29, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    ms = tt.do_bench(lambda: dst.copy_(src), warmup=10, rep=100, return_mode="median")
    return 2 * src.numel() * src.element_size() / ms / 1e6


def copy_ms(traffic):
    """do_bench's median ms of a device copy that moves `traffic` bytes (reads half, writes
    half): the time a memory-bound product of that traffic cannot beat. A decode row's weight
    of 32 MB is latency-bound as much as bandwidth-bound (the launch, the DRAM ramp, the tail):
    the 1 GiB copy's GB/s is out of reach at that size for any kernel, copies included."""
    src = torch.empty(max(1, traffic // 4), device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    return tt.do_bench(lambda: dst.copy_(src), warmup=10, rep=100, return_mode="median")


torch.manual_seed(0)
copy_bw = copy_gbps()
print(f"matmul on {torch.cuda.get_device_name()}, torch {torch.__version__}, triton "
      f"{triton.__version__}", flush=True)
rows, failed = [], 0
for item in args.shapes.split(","):
    dt, dims, *flags = item.split(":")
    m, n, k = (int(x) for x in dims.split("x"))
    bT = "bT" in flags
    a = torch.randn(m, k, device="cuda", dtype=dtypes[dt])
    b = torch.randn(n, k, device="cuda", dtype=dtypes[dt]).t() if bT else \
        torch.randn(k, n, device="cuda", dtype=dtypes[dt])
    ref = a.double() @ b.double()
    row = {"shape": item, "flops": 2 * m * n * k,
           "bytes": a.element_size() * (m * k + k * n + m * n)}
    if m <= 64:  # a decode row: judged by bandwidth, also against a copy of its own traffic
        row["copy_ms"] = copy_ms(row["bytes"])
    c = poisoned_call(lambda: tessel.ops.matmul(a, b), m, n, a.dtype)
    row["tessel_err"], ok = check(c, ref, dt)
    failed += not ok
    plan = plan_of(a, b)
    row["plan"] = (plan.variant.name + (f" split_k={plan.splits}" if plan.splits else "")
                   + (f" programs={plan.programs}" if plan.programs else "")
                   + (" swapped (c^T = b^T a^T) through " + _launched(plan.variant, _swapped(
                       m, n, k, plan.a_strides, plan.b_strides)).name.rsplit("__", 1)[-1]
                      if plan.swap else "")
                   + (" +copy a" if plan.copy_a else "") + (" +copy b" if plan.copy_b else ""))
    print(f"{item}: tessel rel_err {row['tessel_err']:.2e} {'PASS' if ok else 'FAIL'} "
          f"({row['plan']})", flush=True)
    libs = [("tessel", lambda: tessel.ops.matmul(a, b)), ("cublas", lambda: torch.matmul(a, b))]
    if triton_mm is not None:
        ct = triton_mm(a, b, None, 0)
        row["triton_err"], _ = check(ct, ref, dt)
        libs.append(("triton", lambda: triton_mm(a, b, None, 0)))
    # Rounds in balanced orders, each library's median of its rounds, an idle gap before each
    # timing: under sustained load the GPU sits at its power limit, and a fixed order hands one
    # library the start right after another's 100 ms of GEMMs on every row
    # (results/2026-12-05-h100-s53).
    got, orders = {name: ([], []) for name, _ in libs}, round_orders(len(libs))
    for r in range(args.rounds):
        for i in orders[r % len(orders)]:
            name, fn = libs[i]
            torch.cuda.synchronize()
            time.sleep(args.idle_ms / 1e3)
            for into, t in zip(got[name], times(fn)):
                into.append(t)
    for name, (bench, graph) in got.items():
        row[f"{name}_ms"], row[f"{name}_graph_ms"] = (statistics.median(bench),
                                                       statistics.median(graph))
        row[f"{name}_rounds_ms"], row[f"{name}_graph_rounds_ms"] = bench, graph
    if args.explore and m >= 64 and 2 * m * n * k <= args.explore_flops:
        ad, bd = describe(a, "a"), describe(b, "b")
        explored = {}
        for copy in (False, True):
            if copy and _tma_reads(ad, bd):
                continue
            for v in K.variants("gemm_block_ptr", {"f16": "f16", "bf16": "bf16",
                                                   "f32": "f32"}[dt], "cuda"):
                if not _plain(v.config) or args.explore_filter not in v.name:
                    continue
                c = poisoned_call(lambda: _matmul(a, b, variant=v, copy=copy), m, n, a.dtype)
                err, ok = check(c, ref, dt)
                name = v.name.replace("gemm_block_ptr__", "") + (" +copy" if copy else "")
                if not ok:
                    failed += 1
                    print(f"  {name}: rel_err {err:.2e} FAIL", flush=True)
                    continue
                ms = tt.do_bench_cudagraph(lambda: _matmul(a, b, variant=v, copy=copy), rep=50,
                                           return_mode="median")
                explored[name] = ms
        if _tma_reads(ad, bd):
            a_st, b_st = tuple(ad.strides), tuple(bd.strides)
            for v in K.variants("gemm_split_k", dt, "cuda"):
                if not _plain(v.config) or args.explore_filter not in v.name or not _launched(
                        v, _scalars(m, n, k, a_st, b_st)).meta.get("tensor_maps"):
                    continue
                for s in (1, 2, 3, 4, 6, 8):
                    plan = _Plan(False, False, b_st[0] != 1, a_st, b_st, v, s)
                    run = lambda: _run(plan, a, b, m, n, k, dt)
                    c = poisoned_call(run, m, n, a.dtype)
                    err, ok = check(c, ref, dt)
                    name = v.name.replace("gemm_split_k__", "split_k ") + f" x{s}"
                    if not ok:
                        failed += 1
                        print(f"  {name}: rel_err {err:.2e} FAIL", flush=True)
                        continue
                    explored[name] = tt.do_bench_cudagraph(run, rep=50, return_mode="median")
        best = sorted(explored, key=explored.get)[:10]
        row["explored"] = explored
        for name in best:
            print(f"  {explored[name] * 1e3:8.1f} us  {name}", flush=True)
    rows.append(row)
    print(f"  do_bench us: tessel {row['tessel_ms'] * 1e3:.1f} cublas {row['cublas_ms'] * 1e3:.1f}"
          f" triton {row.get('triton_ms', 0) * 1e3:.1f}; graph us: tessel "
          f"{row['tessel_graph_ms'] * 1e3:.1f} cublas {row['cublas_graph_ms'] * 1e3:.1f} triton "
          f"{row.get('triton_graph_ms', 0) * 1e3:.1f}", flush=True)
    del a, b, ref, c
    torch.cuda.empty_cache()

print()
hdr = (f"{'shape':24s} {'tessel':>7s} {'cuBLAS':>7s} {'triton':>7s} {'t/cuBLAS':>8s} "
       f"{'t/triton':>8s} {'graph t/cuBLAS':>14s} {'TFLOP/s':>7s} {'GB/s':>6s} {'%copy':>6s} "
       f"{'%same':>6s}")
print("do_bench medians in us (graph: CUDA-graph replay, the GPU's time); t/x = x's time / "
      "Tessel's (> 1: Tessel faster); GB/s: each operand read once and c written once, against "
      f"the {copy_bw:.0f} GB/s of a 1 GiB device copy measured in this run; %same (M <= 64): "
      "the time of a device copy moving the row's bytes over Tessel's")
print(hdr)
for r in rows:
    tr = r.get("triton_ms")
    gbps = r["bytes"] / r["tessel_ms"] / 1e6
    print(f"{r['shape']:24s} {r['tessel_ms'] * 1e3:7.1f} {r['cublas_ms'] * 1e3:7.1f} "
          f"{(tr or 0) * 1e3:7.1f} {r['cublas_ms'] / r['tessel_ms']:8.3f} "
          f"{(tr / r['tessel_ms']) if tr else 0:8.3f} "
          f"{r['cublas_graph_ms'] / r['tessel_graph_ms']:14.3f} "
          f"{r['flops'] / r['tessel_ms'] / 1e9:7.1f} {gbps:6.0f} {100 * gbps / copy_bw:5.1f}%"
          + (f" {100 * r['copy_ms'] / r['tessel_ms']:5.1f}%" if "copy_ms" in r else ""))


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 0.0


for label, key in (("do_bench", "ms"), ("graph", "graph_ms")):
    ratios = [r[f"cublas_{key}"] / r[f"tessel_{key}"] for r in rows]
    low = min(ratios) if ratios else 0.0
    print(f"{label}: geomean t/cuBLAS {geomean(ratios):.3f} over {len(rows)} shapes, lowest "
          f"{low:.3f}, below 0.85: {sum(x < 0.85 for x in ratios)}", end="")
    tr = [r[f"triton_{key}"] / r[f"tessel_{key}"] for r in rows if r.get(f"triton_{key}")]
    print(f"; geomean t/triton {geomean(tr):.3f}" if tr else "")
decode = [r for r in rows if "copy_ms" in r]
if decode:
    at_bw = sum(r["bytes"] / r["tessel_ms"] / 1e6 >= 0.8 * copy_bw for r in decode)
    at_same = sum(r["copy_ms"] >= 0.8 * r["tessel_ms"] for r in decode)
    print(f"decode rows (M <= 64): {at_bw} of {len(decode)} at >= 80% of the 1 GiB copy's GB/s, "
          f"{at_same} of {len(decode)} at >= 80% of a copy of their own bytes")
print(f"verification: {'all PASS' if not failed else f'{failed} FAILED'}")
if os.environ.get("OUT"):
    with open(os.path.join(os.environ["OUT"], "matmul_bench.json"), "w") as fh:
        json.dump(rows, fh, indent=1)
sys.exit(1 if failed else 0)
