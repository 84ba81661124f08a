#!/usr/bin/env python3
"""swiglu_bench.py [--shapes MxNxK,...] (in a directory made by prepare.sh, on a GPU machine):
the fused SwiGLU up-projection, out = silu(x w_gate^T) * (x w_up^T), as Tessel's gemm_swiglu (one
kernel; the TMA twins __a16) beside PyTorch: two F.linear calls then silu * mul (three kernels
and the two (M, N) products through HBM), and one F.linear on the concatenated (2N, K) weight
then silu * mul (the usual fused-weight path). bf16, x (M, K), weights (N, K) as nn.Linear stores
them. Tessel: tessel-run-gpu --bench (verified first, against the double reference, on 64 rows
spread over M when M > 64; median of cold-L2 launches); PyTorch: triton.testing.do_bench (median,
L2 flushed). TFLOP/s count the two products, 4 M N K. Writes $OUT/swiglu_bench.json."""
import argparse, glob, json, os, re, subprocess

here = os.path.dirname(os.path.abspath(__file__))
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
# Llama-3 8B's MLP (K = 4096, N = 14336) at decode, prefill and training batch sizes.
ap.add_argument("--shapes", default="16x14336x4096,2048x14336x4096,8192x14336x4096")
ap.add_argument("--reps", type=int, default=30)
args = ap.parse_args()

import torch
import torch.nn.functional as F
import triton

variants = sorted(p for p in glob.glob(os.path.join(here, "kernels", "gemm_swiglu__bf16__*.json"))
                  if json.load(open(p)).get("tensor_maps"))
rows = []
for shape in args.shapes.split(","):
    m, n, k = (int(v) for v in shape.split("x"))
    row = {"shape": shape, "tessel": {}, "errors": {}}
    for v in variants:
        cmd = [os.path.join(here, "tessel-run-gpu"), v, "--target=cuda", "--shape", shape,
               "--dtype", "bf16", "--bench", "--reps", str(args.reps)]
        if m > 64:
            cmd += ["--opt", "check_rows=64"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
        out = p.stdout + p.stderr
        ms = re.search(r"^bench: median ([0-9.]+) ms", out, re.M)
        name = json.load(open(v))["variant"]
        if p.returncode == 0 and ms and re.search(r": PASS$", out, re.M):
            row["tessel"][name] = float(ms.group(1))
        else:
            row["errors"][name] = " | ".join(out.strip().splitlines()[-3:])
        print(f"  tessel {shape} {name}: {row['tessel'].get(name, 'FAILED ' + row['errors'].get(name, ''))}",
              flush=True)
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    wg = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * 0.02
    wu = torch.randn(n, k, device="cuda", dtype=torch.bfloat16) * 0.02
    w = torch.cat([wg, wu])
    def two():
        return F.silu(F.linear(x, wg)) * F.linear(x, wu)
    def fused_weight():
        gu = F.linear(x, w)
        return F.silu(gu[:, :n]) * gu[:, n:]
    bench = lambda fn: triton.testing.do_bench(fn, warmup=25, rep=100, return_mode="median")
    row["torch_two_ms"], row["torch_fused_weight_ms"] = bench(two), bench(fused_weight)
    row["cublas_2n_ms"] = bench(lambda: F.linear(x, w))  # the one GEMM alone: the floor
    rows.append(row)
    del x, wg, wu, w
    torch.cuda.empty_cache()

print(f"\n{'shape':18s} {'tessel us':>9s} {'TFLOP/s':>7s} {'torch 2xlinear':>14s} "
      f"{'torch cat-W':>11s} {'vs 2x':>6s} {'vs cat':>6s} {'cuBLAS 2N GEMM only':>19s}")
for r in rows:
    m, n, k = (int(v) for v in r["shape"].split("x"))
    best = min(r["tessel"].values()) if r["tessel"] else None
    tf = 4 * m * n * k / (best * 1e-3) / 1e12 if best else None
    r.update(tessel_ms=best, tessel_tflops=tf,
             over_two=r["torch_two_ms"] / best if best else None,
             over_fused_weight=r["torch_fused_weight_ms"] / best if best else None)
    f = lambda v, s: format(v, s) if v is not None else "-"
    print(f"{r['shape']:18s} {f(best and best * 1e3, '9.1f'):>9s} {f(tf, '7.1f'):>7s} "
          f"{r['torch_two_ms'] * 1e3:12.1f}us {r['torch_fused_weight_ms'] * 1e3:9.1f}us "
          f"{f(r['over_two'], '6.3f'):>6s} {f(r['over_fused_weight'], '6.3f'):>6s} "
          f"{r['cublas_2n_ms'] * 1e3:17.1f}us")
json.dump({"gpu": torch.cuda.get_device_name(), "rows": rows},
          open(os.path.join(os.environ.get("OUT", "."), "swiglu_bench.json"), "w"), indent=1)
