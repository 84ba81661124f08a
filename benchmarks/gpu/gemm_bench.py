#!/usr/bin/env python3
"""gemm_bench.py [--shapes DT:MxNxK,...] [--reps N] (in a directory made by prepare.sh, on a GPU
machine): Tessel's GEMM beside cuBLAS (torch.matmul) and the autotuned Triton GEMM of
shared/anchors/triton_reference.py (triton_gemm.py, copied by prepare.sh), in one process and on
the same GPU, shape after shape.

Tessel: every GEMM cubin of kernels/ for the dtype without the epilogue (HAS_BIAS false, ACT
none; with `:bias_relu` the HAS_BIAS, ACT relu ones, against cuBLAS addmm then torch.relu and
Triton's fused bias + ReLU; with `:residual` gemm_residual's, out = x @ w + residual, against
cuBLAS addmm(residual, x, w), whose beta = 1 adds the residual in the GEMM's epilogue; Triton's
GEMM has no residual input, so that row has no Triton column) whose divisibility promises the
shape keeps (gemm_block_ptr, gemm_persistent, gemm_stream_k and gemm_split_k in their TMA
twins), each through `./tessel-run-gpu --bench`:
verified against the harness's double reference, then the median of cold-L2 launches between
CUDA events; the fastest config is the row's. cuBLAS and Triton: triton.testing.do_bench
(median, L2 flushed between runs), as the anchor scripts. A (M, K) and B (K, N) are row-major
and contiguous for all three. TFLOP/s = 2 M N K / time; %peak against 734 TFLOP/s, cuBLAS bf16
4096^3 measured on this H200 (DESIGN.md). Writes $OUT/gemm_bench.json.

Without GEMM cubins (prepare.sh could not compile gemm.cpp yet) the Tessel columns say so and
cuBLAS and Triton are still timed."""
import argparse, glob, json, math, os, re, subprocess, sys

PEAK_TFLOPS = 734.0  # cuBLAS bf16 4096^3 on this H200 (DESIGN.md), the ceiling we compare with
# The acceptance shapes first (bf16 4096^3, f16 1024x1024x2048), then a large and an odd one.
DEFAULT_SHAPES = ("bf16:4096x4096x4096,f16:1024x1024x2048,bf16:8192x8192x8192,f16:1000x999x1001,"
                  "bf16:4096x4096x4096:bias_relu")

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import llm_shapes  # noqa: E402  (beside this script)
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--shapes", default=DEFAULT_SHAPES,
                help="DT:MxNxK[:bT][:bias_relu],... (DT bf16, f16, f32; :bT: B stored (N, K) "
                     "row-major, as nn.Linear's weight, so y = x @ W^T: cuBLAS F.linear, "
                     "Tessel's nt twins; :bias_relu: relu(x @ w + bias), Tessel's fused "
                     "epilogue against cuBLAS addmm then torch.relu), or 'llm' for the 32 shapes "
                     "of shared/anchors/gemm_suite.py")
ap.add_argument("--reps", type=int, default=50, help="timed launches per Tessel config")
ap.add_argument("--large-top", type=int, default=2,
                help="shapes of more than 2^36 flops time only this many configs, the fastest "
                     "at the previous shape of that dtype (each verified run needs a host "
                     "reference of the whole product)")
ap.add_argument("--check-rows", type=int, default=64,
                help="products of more than 2^34 flops are verified on this many rows spread "
                     "over M (the gemm problem's check_rows), every element still checked "
                     "written; 0: whole products")
ap.add_argument("--split-k", default="",
                help="S,...: also time each gemm_split_k variant with these slice counts (the "
                     "problem's split_k option) beside the shape heuristic's choice")
ap.add_argument("--no-triton", action="store_true",
                help="time Tessel and cuBLAS only (Triton's autotuning compiles 8 configs per "
                     "process: a minute of device time)")
ap.add_argument("--kernels", default=os.path.join(here, "kernels"))
ap.add_argument("--runner", default=os.path.join(here, "tessel-run-gpu"))
args = ap.parse_args()


def parse_shapes(text):
    text = llm_shapes.expand(text)
    out = []
    for item in text.split(","):
        dt, dims, *flags = item.split(":")
        m, n, k = (int(x) for x in dims.lower().split("x"))
        if set(flags) - {"bT", "bias_relu", "residual"} or {"bias_relu", "residual"} <= set(flags):
            sys.exit(f"gemm_bench.py: unknown flag in '{item}' (bT, and bias_relu or residual)")
        epi = "bias_relu" if "bias_relu" in flags else "residual" if "residual" in flags else ""
        out.append((dt, m, n, k, "bT" in flags, epi))
    return out


def gemm_variants(dt, epi=""):
    """(name, path, divisibility of each scalar) of the GEMM cubins for dt: without an epilogue,
    with the fused bias + ReLU one (epi bias_relu), or gemm_residual's (epi residual)."""
    out = []
    kernels = (("gemm_residual",) if epi == "residual" else
               ("gemm", "gemm_block_ptr", "gemm_split_k", "gemm_persistent",
                "gemm_stream_k"))
    paths = [p for k in kernels
             for p in glob.glob(os.path.join(args.kernels, f"{k}__{dt}__*.json"))]
    bias_relu = epi == "bias_relu"
    for path in sorted(paths):
        j = json.load(open(path))
        c = j.get("config", {})
        has_bias = c.get("HAS_BIAS") in (True, 1, "true")
        if (has_bias, c.get("ACT", "none")) != ((True, "relu") if bias_relu else (False, "none")):
            continue
        if "cubin" not in j.get("artifacts", {}):
            continue
        # gemm_block_ptr and gemm_split_k are there for their TMA twins; their other variants
        # load through masked pointer tiles, slower (bench-round1.txt of
        # results/2026-12-01-h200-tma): not timed.
        if j["kernel"] in ("gemm_block_ptr", "gemm_split_k", "gemm_residual",
                           "gemm_persistent", "gemm_stream_k") and \
                not j.get("tensor_maps"):
            continue
        # A specialized twin's promises: multiples ("divisibility") and values ("equal_to").
        div = {a["name"]: (a.get("divisibility", 1), a.get("equal_to"))
               for a in j["args"] if a["kind"] == "scalar"}
        out.append((j["variant"], path, div, j.get("specializes")))
    return out


def keeps_promises(div, m, n, k, bcol):
    # The scalars of the gemm problem (lib/Harness/Problems/Gemm.cpp): A row-major, B row-major
    # or (bcol) col-major.
    v = {"M": m, "N": n, "K": k, "stride_am": k, "stride_ak": 1, "stride_bk": 1 if bcol else n,
         "stride_bn": k if bcol else 1, "stride_cm": n, "stride_cn": 1, "stride_rm": n,
         "stride_rn": 1}
    return all(v.get(name, 1) % d == 0 and (e is None or v.get(name) == e)
               for name, (d, e) in div.items())


copy_gbps = [None]


def tessel_time(path, dt, m, n, k, bcol, split_k=None):
    """(median ms, None) or (None, why) for one verified, timed tessel-run-gpu run."""
    cmd = [args.runner, path, "--target=cuda", "--shape", f"{m}x{n}x{k}", "--dtype", dt,
           "--bench", "--reps", str(args.reps)] + (["--opt", "b_order=col"] if bcol else [])
    if split_k:
        cmd += ["--opt", f"split_k={split_k}"]
    if args.check_rows and 2 * m * n * k > 2**34 and m > args.check_rows:
        cmd += ["--opt", f"check_rows={args.check_rows}"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        return None, "timed out after 300 s"
    out = p.stdout + p.stderr
    ms = re.search(r"^bench: median ([0-9.]+) ms", out, re.M)
    copy = re.search(r"of the ([0-9.]+) GB/s device copy", out)
    if copy:  # the runner's device-to-device copy, the bandwidth ceiling of decode shapes
        copy_gbps[0] = float(copy.group(1))
    if p.returncode != 0 or not ms or not re.search(r": PASS$", out, re.M):
        lines = [l for l in out.splitlines() if l.strip()]
        return None, f"rc {p.returncode}: " + (" | ".join(lines[-3:]) if lines else "no output")
    sk = re.search(r" split_k=(\d+): PASS$", out, re.M)  # the slice count the launch used
    return float(ms.group(1)), (f"split_k={sk.group(1)}" if sk else None)


def tflops(m, n, k, ms):
    return 2.0 * m * n * k / (ms * 1e-3) / 1e12 if ms else None


import torch
import triton

try:
    sys.path.insert(0, here)
    from triton_gemm import triton_mm
except Exception as e:  # prepare.sh copies it; without it the Triton column is empty
    print(f"note: no Triton GEMM ({e})")
    triton_mm = None
if args.no_triton:
    triton_mm = None

torch.manual_seed(0)
dev = "cuda"
tdt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}


def bench(fn):
    return triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")


print(f"GEMM on {torch.cuda.get_device_name()}, torch {torch.__version__}, "
      f"triton {triton.__version__}; peak {PEAK_TFLOPS:.0f} TFLOP/s (cuBLAS bf16 4096^3)", flush=True)
rows = []
ranked = {}  # (dtype, B layout, epilogue) -> variant names, fastest first, from the last one
for dt, m, n, k, bcol, epi in parse_shapes(args.shapes):
    shape = f"{m}x{n}x{k}" + (":bT" if bcol else "") + (":" + epi if epi else "")
    bias_relu = epi == "bias_relu"
    row = {"shape": shape, "dtype": dt, "flops": 2 * m * n * k, "tessel": {}, "tessel_errors": {}}
    # Tessel first, while this process holds no large tensors.
    cands = [v for v in gemm_variants(dt, epi) if keeps_promises(v[2], m, n, k, bcol)]
    # A variant whose specialized twin keeps the shape's promises was slower than the twin in
    # every row measured (run-time strides, narrower loads; results/2026-12-01-h200-tma): only
    # the twins are timed.
    covered = {v[3] for v in cands if v[3]}
    # The __nna / __nta twins (any M, N, K) are the __nn / __nt twins without the divisibility
    # of M, N and K: timed only where those do not run.
    covered |= {v[0] for v in cands if v[0].endswith(("__nna", "__nta"))
                and any(w[0] == v[0][:-1] for w in cands)}
    cands = [v[:3] for v in cands if v[0] not in covered]
    if 2 * m * n * k > 2**36 and ranked.get((dt, bcol, epi)):
        top = set(ranked[(dt, bcol, epi)][: args.large_top])
        cands = [v for v in cands if v[0] in top] or cands
    if not cands:
        row["tessel_errors"]["-"] = "no GEMM cubin for this dtype and shape"
    # gemm_split_k: the heuristic's slice count (name as is), then each --split-k count (name:sS).
    runs = [(name, path, None) for name, path, _ in cands]
    runs += [(f"{name}:s{sk}", path, sk) for name, path, _ in cands
             if "gemm_split_k__" in name for sk in filter(None, args.split_k.split(","))]
    for name, path, sk in runs:
        ms, why = tessel_time(path, dt, m, n, k, bcol, sk)
        if ms is not None and why:  # a split-K run: which slice count the launch used
            row.setdefault("split_k", {})[name] = int(why.split("=")[1])
        if ms is None:
            row["tessel_errors"][name] = why
            print(f"  tessel {dt} {shape} {name}: FAILED {why}", flush=True)
        else:
            row["tessel"][name] = ms
            print(f"  tessel {dt} {shape} {name}: {ms * 1e3:9.1f} us "
                  f"{tflops(m, n, k, ms):7.1f} TFLOP/s {why or ''}", flush=True)
    if row["tessel"]:
        ranked[(dt, bcol, epi)] = sorted(row["tessel"], key=row["tessel"].get)
    # cuBLAS and Triton on the same operands' shapes and layouts.
    x = torch.randn(m, k, device=dev, dtype=tdt[dt])
    bias = torch.randn(n, device=dev, dtype=tdt[dt]) if bias_relu else None
    if bcol:  # nn.Linear's weight (N, K); B = W^T is a strided view for Triton
        wt = torch.randn(n, k, device=dev, dtype=tdt[dt])
        w = wt.t()
        row["cublas_ms"] = bench(lambda: torch.nn.functional.linear(x, wt))
    else:
        w = torch.randn(k, n, device=dev, dtype=tdt[dt])
        row["cublas_ms"] = bench(lambda: torch.matmul(x, w))
    if bias_relu:  # cuBLAS's fused bias (addmm), then PyTorch's ReLU: two kernels
        row["cublas_ms"] = bench(lambda: torch.relu(torch.addmm(bias, x, w)))
    if epi == "residual":  # one cuBLAS GEMM with beta = 1: out = residual + x @ w
        res = torch.randn(m, n, device=dev, dtype=tdt[dt])
        row["cublas_ms"] = bench(lambda: torch.addmm(res, x, w))
        del res
    print(f"  cublas {dt} {shape}: {row['cublas_ms'] * 1e3:9.1f} us", flush=True)
    if triton_mm is not None and epi != "residual":
        ref = torch.matmul(x.float(), w.float())
        if bias_relu:
            ref = torch.relu(ref + bias.float())
        act = 1 if bias_relu else 0  # triton_reference.py: ACT 1 is ReLU
        c = triton_mm(x, w, bias, act)  # autotunes once per (M, N, K)
        row["triton_rel_err"] = ((c.float() - ref).norm() / ref.norm()).item()
        row["triton_ms"] = bench(lambda: triton_mm(x, w, bias, act))
        print(f"  triton {dt} {shape}: {row['triton_ms'] * 1e3:9.1f} us "
              f"(rel err {row['triton_rel_err']:.1e})", flush=True)
        del ref, c
    del x, w
    if bcol:
        del wt
    torch.cuda.empty_cache()
    rows.append(row)

def fmt(v, spec):  # "5.1f%": a percentage
    if v is None:
        return "-"
    return format(v, spec[:-1]) + "%" if spec.endswith("%") else format(v, spec)
hdr = (f"{'shape':19s} {'dtype':5s} {'tessel':>7s} {'cublas':>7s} {'triton':>7s} "
       f"{'t/cuBLAS':>8s} {'t/triton':>8s} {'%peak':>6s} {'GB/s':>6s} {'%copy':>6s}  "
       f"fastest Tessel config")
print()
print(f"TFLOP/s = 2 M N K / median time; t/x = Tessel speed / x's (> 1: Tessel faster); "
      f"%peak of {PEAK_TFLOPS:.0f}; GB/s: Tessel's, each operand read once and the output "
      f"written once, %copy of the {copy_gbps[0] or 0:.0f} GB/s device copy (decode shapes)")
print(hdr)
print("-" * len(hdr))
for r in rows:
    m, n, k = (int(x) for x in r["shape"].split(":")[0].split("x"))
    best = min(r["tessel"], key=r["tessel"].get) if r["tessel"] else None
    t = tflops(m, n, k, r["tessel"][best]) if best else None
    cu = tflops(m, n, k, r["cublas_ms"])
    tr = tflops(m, n, k, r.get("triton_ms"))
    r.update(best=best, tessel_tflops=t, cublas_tflops=cu, triton_tflops=tr,
             tessel_over_cublas=t / cu if t and cu else None,
             tessel_over_triton=t / tr if t and tr else None,
             pct_peak=100 * t / PEAK_TFLOPS if t else None)
    outs = 2 if r["shape"].endswith(":residual") else 1  # the residual read beside the output
    nbytes = (m * k + n * k + outs * m * n) * {"bf16": 2, "f16": 2, "f32": 4}[r["dtype"]]
    gbps = nbytes / (r["tessel"][best] * 1e-3) / 1e9 if best else None
    r.update(tessel_gbps=gbps, cublas_gbps=nbytes / (r["cublas_ms"] * 1e-3) / 1e9,
             pct_copy=100 * gbps / copy_gbps[0] if gbps and copy_gbps[0] else None)
    why = "" if best else "  (" + "; ".join(sorted(set(r["tessel_errors"].values())))[:100] + ")"
    print(f"{r['shape']:19s} {r['dtype']:5s} {fmt(t, '7.1f'):>7s} {fmt(cu, '7.1f'):>7s} "
          f"{fmt(tr, '7.1f'):>7s} {fmt(r['tessel_over_cublas'], '8.3f'):>8s} "
          f"{fmt(r['tessel_over_triton'], '8.3f'):>8s} {fmt(r['pct_peak'], '5.1f%'):>6s} "
          f"{fmt(gbps, '6.0f'):>6s} {fmt(r['pct_copy'], '5.1f%'):>6s}  {best or '-'}"
          f"{' split_k=%d' % r['split_k'][best] if best in r.get('split_k', {}) else ''}{why}")
ratios = [r["tessel_over_cublas"] for r in rows if r["tessel_over_cublas"]]
if ratios:
    g = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geomean Tessel/cuBLAS: {g:.3f} over {len(ratios)} shapes; lowest "
          f"{min(ratios):.3f}")
json.dump({"gpu": torch.cuda.get_device_name(), "torch": torch.__version__,
           "triton": triton.__version__, "peak_tflops": PEAK_TFLOPS, "copy_gbps": copy_gbps[0],
           "rows": rows},
          open(os.path.join(os.environ.get("OUT", "."), "gemm_bench.json"), "w"), indent=1)
