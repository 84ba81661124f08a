#!/usr/bin/env python3
"""sampling_bench.py [--quick] (in a directory made by prepare.sh, on a GPU machine): the
library's top-k / top-p mask of logits (dsl/kernels/sampling.cpp, top_k_top_p_mask) beside
PyTorch implementations of the same filter, case by case in one process.

Verification: every top_k_top_p_mask variant of kernels/ runs through the tessel package
(tessel.launch on torch tensors, torch's stream) on random logits with per-row k and p (typical,
edge and "off" values, NaN and -inf) and on the timed cases, and its keep mask (out == logits)
must equal a float64 torch reference of the documented semantics (ties at t_k and t_p kept,
top-p mass over the top-k kept values, NaN never kept); the only elements excused are those
within the top-p band, whose mass strictly above them lies within 1e-5 * Z_k of p * Z_k (f32
against float64 rounding: the harness problem's band). Every element of out must be its logit
or -inf.

Launch: grid (rows, S), S programs per row (programs_per_row: two per SM over all rows, chunks
of at least 4 blocks, at most 128), with workspaces made once per shape (workspace()); the
checks also run S = 1 and S = 37, and in place.

Timing: triton.testing.do_bench (median of CUDA-event timings, L2 flushed before each call;
--graph: do_bench_cudagraph, replays of a captured graph, the GPU's time alone) of
Tessel (the fastest verified variant per case, at S = programs_per_row and at half and
twice that) and of
  topk   (a) torch.topk's k largest -> t_k -> top-p over the k sorted values (softmax, cumsum)
         -> threshold -> mask, eager and torch.compile;
  vllm   (b) vLLM's sort-based apply_top_k_top_p (sort, gather, softmax, cumsum, scatter), eager.
GB/s = (logits read + out written) / time, %copy against the device-to-device copy bandwidth
measured in the same run, "vs best" = the fastest torch variant's time / Tessel's (> 1: Tessel
faster). The torch variants' masks are compared with the reference too, for information only
(they differ on ties by design: topk keeps exactly k, vLLM cuts top-p ties by position).
Exit 1 when a Tessel check fails."""
import argparse, os, sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))

ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--quick", action="store_true",
                help="a few checks and two timed cases, fewer repetitions")
ap.add_argument("--device", default="cuda", choices=("cuda", "cpu"),
                help="cpu: the checks alone, small shapes, on the interpreter (no GPU needed)")
ap.add_argument("--rows", help="timed row counts, comma-separated (default 1,8,64,256)")
ap.add_argument("--vocabs", help="timed vocabulary sizes (default 32000,128256)")
ap.add_argument("--dtypes", help="timed dtypes (default bf16,f32)")
ap.add_argument("--k", choices=("50", "V", "both"), default="both",
                help="timed filters: k = 50 and p = 0.9, top-p alone (k = V), or both")
ap.add_argument("--graph", action="store_true",
                help="time each variant as a CUDA graph replay (do_bench_cudagraph, warm L2): "
                     "the GPU's time without the host's launch cost or the cache flush")
args = ap.parse_args()
DEV = args.device

import torch
if DEV == "cuda":
    import triton

import tessel
from tessel import kernels

KERNEL = "top_k_top_p_mask"
BAND = 1e-5  # the top-p band, in units of Z_k (lib/Harness/Problems/Sampling.cpp)
DTYPES = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32}
INF = float("inf")


def reference(x, k, p):
    """(kept, band): the documented semantics in float64, as boolean masks like x."""
    rows, v = x.shape
    x64 = x.double()
    nan = torch.isnan(x64)
    x64 = x64.masked_fill(nan, -INF)  # NaN ranks as -inf, and is never kept
    s, idx = x64.sort(dim=-1, descending=True)
    k_on = (k > 0) & (k < v)
    tk = s.gather(1, (k.long() - 1).clamp(0, v - 1).unsqueeze(1))
    tk = torch.where(k_on.unsqueeze(1), tk, torch.full_like(tk, -INF))
    kept_k = x64 >= tk  # ties at t_k kept
    # Mass strictly above each value among the top-k kept ones, from the sorted row: the
    # inclusive cumsum just before the value's tie group starts.
    m = s[:, :1]
    w_sorted = torch.where((s >= tk) & (m > -INF), torch.exp(s - m), torch.zeros_like(s))
    cum = torch.cumsum(w_sorted, dim=-1)
    z = cum[:, -1:]
    start = torch.searchsorted(-s, -s, right=False)  # first index of each tie group
    above_sorted = torch.where(start > 0, cum.gather(1, (start - 1).clamp(min=0)),
                               torch.zeros_like(cum))
    above = torch.empty_like(above_sorted).scatter_(1, idx, above_sorted)
    target = p.double().unsqueeze(1) * z
    p_on = (p < 1).unsqueeze(1)
    is_max = x64 == m
    kept_p = (above < target) | is_max  # the largest value always kept
    kept = kept_k & (kept_p | ~p_on) & ~nan
    band = p_on & kept_k & ~is_max & ((above - target).abs() <= BAND * z) & ~nan
    return kept, band


def check(out, x, kept, band):
    """(elements wrong, elements in the band): the keep mask (out == x) against the reference
    outside the band, and out must hold the logit or -inf everywhere."""
    got = out == x
    minus_inf = torch.isneginf(out)
    wrong_value = ~(got | minus_inf)
    # -inf logits read the same kept or not.
    undecidable = torch.isneginf(x) | band
    wrong_mask = (got != kept) & ~undecidable
    return int(wrong_mask.sum()) + int(wrong_value.sum()), int(band.sum())


_workspaces = {}


def workspace(rows, v, dtype):
    """The kernel's workspaces for (rows, v, dtype), made once: candidates' values and columns,
    and the chunk statistics and counters, which start at zero and every launch leaves zero."""
    key = (rows, v, dtype)
    if key not in _workspaces:
        _workspaces[key] = (torch.empty(rows, v, dtype=dtype, device=DEV),
                            torch.empty(rows, v, dtype=torch.int32, device=DEV),
                            torch.zeros(rows, 128, dtype=torch.int64, device=DEV),
                            torch.zeros(rows, 2, dtype=torch.int32, device=DEV))
    return _workspaces[key]


def programs_per_row(variant, rows, v):
    """Grid y: enough programs for two per SM over all rows, each chunk at least 4 blocks
    (fewer, smaller chunks leave more candidates to the row's last program), at most 128."""
    sms = torch.cuda.get_device_properties(0).multi_processor_count if DEV == "cuda" else 4
    block = variant.config.get("BLOCK", 1024)
    return max(1, min(128, -(-2 * sms // rows), v // (4 * block)))


def tessel_mask(variant, x, k, p, out=None, chunks=None):
    rows, v = x.shape
    out = torch.empty_like(x) if out is None else out
    s = chunks or programs_per_row(variant, rows, v)
    tessel.launch(variant, (rows, s), out, x, k, p, *workspace(rows, v, x.dtype),
                  x.stride(0), out.stride(0), v)
    return out


def topk_mask(x, k, p, kmax):
    """(a) torch.topk's kmax largest (sorted), t_k per row, top-p over the k sorted values."""
    vals, _ = torch.topk(x, kmax, dim=-1)
    pos = torch.arange(kmax, device=x.device)
    vals = vals.masked_fill(pos >= k.unsqueeze(1), -INF)
    tk = vals.gather(1, (k.long() - 1).unsqueeze(1))
    probs = torch.softmax(vals.float(), dim=-1)
    above = torch.cumsum(probs, dim=-1) - probs
    keep = above < p.unsqueeze(1)
    keep[:, 0] = True
    tp = vals.gather(1, (keep.sum(-1, keepdim=True) - 1))
    return x.masked_fill(x < torch.maximum(tk, tp), -INF)


def vllm_mask(logits, k, p):
    """(b) vLLM's apply_top_k_top_p (vllm/v1/sample/ops/topk_topp_sampler.py), k None: no top-k."""
    logits_sort, logits_idx = logits.sort(dim=-1, descending=False)
    if k is not None:
        top_k_mask = logits_sort.size(1) - k.to(torch.long)
        top_k_mask = logits_sort.gather(1, top_k_mask.unsqueeze(dim=1))
        top_k_mask = logits_sort < top_k_mask
        logits_sort.masked_fill_(top_k_mask, -INF)
    if p is not None:
        probs_sort = logits_sort.softmax(dim=-1)
        probs_sum = torch.cumsum(probs_sort, dim=-1, out=probs_sort)
        top_p_mask = probs_sum <= 1 - p.unsqueeze(dim=1)
        top_p_mask[:, -1] = False
        logits_sort.masked_fill_(top_p_mask, -INF)
    return logits_sort.scatter(dim=-1, index=logits_idx, src=logits_sort)


def logits(rows, v, dt, seed):
    g = torch.Generator(device=DEV).manual_seed(seed)
    return (4 * torch.randn(rows, v, device=DEV, generator=g)).to(DTYPES[dt])


def edge_params(rows, v, seed):
    """Per-row k and p cycling through typical, edge and off values, then random ones."""
    g = torch.Generator().manual_seed(seed)
    ks, ps = [], []
    fixed = [(50, 0.9), (v, 0.9), (1, 1.0), (0, 0.5), (v // 3 + 1, 1.0), (v + 5, 1.5),
             (-1, 1e-9), (7, 0.0), (min(v - 1, 2000), 0.95)]
    for r in range(rows):
        if r < len(fixed):
            k, p = fixed[r]
        else:
            k = int(torch.randint(1, max(v, 2), (1,), generator=g))
            p = float(torch.rand(1, generator=g)) * 0.98 + 0.01
        ks.append(k)
        ps.append(p)
    return (torch.tensor(ks, dtype=torch.int32, device=DEV),
            torch.tensor(ps, dtype=torch.float32, device=DEV))


def bench(fn):
    if args.graph:
        fn()  # torch.compile and lazy loading finish before the capture
        # do_bench_cudagraph runs on a stream of its own: the launch above must be done, as two
        # launches at once would share the mask's workspace.
        torch.cuda.synchronize()
        return triton.testing.do_bench_cudagraph(fn, rep=50 if args.quick else 200,
                                                 return_mode="median")
    return triton.testing.do_bench(fn, warmup=10 if args.quick else 25,
                                   rep=50 if args.quick else 200, return_mode="median")


def copy_gbs():
    a = torch.empty(1 << 28, dtype=torch.uint8, device="cuda")
    b = torch.empty_like(a)
    return 2 * a.numel() / bench(lambda: b.copy_(a)) / 1e6


failed = 0
variant_list = {dt: kernels.variants(KERNEL, dt, DEV) for dt in DTYPES}
for dt, vs in variant_list.items():
    if not vs:
        print(f"FAIL no {KERNEL} variant for {dt} in {kernels.kernel_directories()}")
        failed += 1

# Verification on odd shapes: per-row k and p from edge_params, a NaN and -inf in some rows,
# ties (bf16 and f16 have many; f32 rows rounded to 1/16 every third row), in place too.
VERIFY = [(1, 1000), (3, 50257), (64, 32000), (3, 128256), (17, 1)]
if args.quick:
    VERIFY = [(3, 50257), (9, 1000)]
if DEV == "cpu":
    VERIFY = [(12, 1000), (3, 5003), (17, 1)]
for dt in DTYPES:
    for rows, v in VERIFY:
        x = logits(rows, v, dt, seed=rows * 7 + v)
        x[0::3] = torch.round(x[0::3].float() * 16).div(16).to(x.dtype)
        x[1::3, v // 2] = float("nan")
        x[:, (v - 1) // 3] = -INF
        k, p = edge_params(rows, v, seed=v)
        kept, band = reference(x, k, p)
        for var in variant_list[dt]:
            # The default programs per row, one, and many (chunks of one block or less).
            for in_place, chunks in ((False, None), (True, None), (False, 1), (False, 37)):
                out = x.clone() if in_place else None
                out = tessel_mask(var, out if in_place else x, k, p, out, chunks)
                wrong, nband = check(out, x, kept, band)
                failed += wrong > 0
                print(f"{'PASS' if wrong == 0 else 'FAIL'} verify {dt} {rows}x{v}"
                      f"{' in place' if in_place else ''} chunks={chunks or 'default'} "
                      f"{var.name}: {wrong} wrong, {nband} in the top-p band", flush=True)
            _, _, stats, counters = workspace(rows, v, x.dtype)
            for name, ws in (("chunk_stats", stats), ("counters", counters)):
                if int(ws.count_nonzero()):
                    failed += 1
                    print(f"FAIL verify {dt} {rows}x{v}: {name} is not left zero")

if DEV == "cpu":
    print(f"sampling_bench: {failed} failures (checks only: timing needs a GPU)")
    sys.exit(1 if failed else 0)

# One compiled function for every case (torch.compile's default: shapes that change become
# dynamic after the first recompile); enough recompiles allowed that none falls back to eager.
torch._dynamo.config.cache_size_limit = 64
if hasattr(torch._dynamo.config, "recompile_limit"):
    torch._dynamo.config.recompile_limit = 64
compiled = torch.compile(topk_mask)

# Timed cases: k = 50, p = 0.9 (top-k then top-p) and top-p alone (k = V, p = 0.9).
ROWS, VOCABS, TDTYPES = (1, 8, 64, 256), (32000, 128256), ("bf16", "f32")
if args.quick:
    ROWS, VOCABS, TDTYPES = (8,), (32000, 128256), ("bf16",)
if args.rows:
    ROWS = tuple(int(r) for r in args.rows.split(","))
if args.vocabs:
    VOCABS = tuple(int(v) for v in args.vocabs.split(","))
if args.dtypes:
    TDTYPES = tuple(args.dtypes.split(","))
KS = {"50": lambda v: (50,), "V": lambda v: (v,), "both": lambda v: (50, v)}[args.k]
CASES = [(r, v, dt, kk) for dt in TDTYPES for v in VOCABS for r in ROWS for kk in KS(v)]
copy = copy_gbs()
table = []
for rows, v, dt, kk in CASES:
    x = logits(rows, v, dt, seed=rows + v)
    k = torch.full((rows,), kk, dtype=torch.int32, device=DEV)
    p = torch.full((rows,), 0.9, dtype=torch.float32, device=DEV)
    kept, band = reference(x, k, p)
    best = None
    for var in variant_list[dt]:
        out = tessel_mask(var, x, k, p)
        wrong, _ = check(out, x, kept, band)
        if wrong:
            failed += 1
            print(f"FAIL {dt} {rows}x{v} k={kk} {var.name}: {wrong} wrong", flush=True)
            continue
        out = torch.empty_like(x)
        pp = programs_per_row(var, rows, v)
        for chunks in sorted({pp, max(1, pp // 2), min(128, 2 * pp)}):
            t = bench(lambda: tessel_mask(var, x, k, p, out, chunks))
            if best is None or t < best[0]:
                best = (t, f"{var.name} S={chunks}")
    kmax = kk
    top_k = k if kk < v else None  # vLLM passes no k when top-k is off
    torch_fns = {"topk": lambda: topk_mask(x, k, p, kmax),
                 "topk+compile": lambda: compiled(x, k, p, kmax),
                 "vllm": lambda: vllm_mask(x, top_k, p)}
    times, agree = {}, {}
    for name, fn in torch_fns.items():
        try:
            res = fn()
            agree[name] = check(res, x, kept, band)[0]
            times[name] = bench(fn)
        except Exception as e:  # a torch.compile failure should not hide the other rows
            print(f"note: {name} failed on {dt} {rows}x{v}: {type(e).__name__}: {e}", flush=True)
    gb = 2 * rows * v * x.element_size() / 1e6
    table.append((rows, v, dt, kk, best, times, agree, gb))
    torch.cuda.empty_cache()

how = "CUDA graph replays, warm L2" if args.graph else "do_bench, cold L2"
print(f"\ncopy bandwidth {copy:.0f} GB/s; p = 0.9; times are medians in us ({how}); "
      "GB/s = logits read + out written")
names = ("topk", "topk+compile", "vllm")
print(f"{'dtype':5s} {'rows x V':12s} {'k':>6s} {'tessel':>8s} {'GB/s':>6s} {'%copy':>6s} "
      + " ".join(f"{n:>12s}" for n in names) + f" {'vs best':>8s}  config")
for rows, v, dt, kk, best, times, agree, gb in table:
    ks = "V" if kk >= v else str(kk)
    cols = " ".join(f"{times[n] * 1e3:12.1f}" if n in times else f"{'-':>12s}" for n in names)
    if best is None:
        print(f"{dt:5s} {rows}x{v:<9d} {ks:>6s} {'-':>8s} {'':6s} {'':6s} {cols}  "
              "no verified variant")
        continue
    t = best[0]
    fastest = min(times.values()) if times else float("nan")
    print(f"{dt:5s} {rows}x{v:<9d} {ks:>6s} {t * 1e3:8.1f} {gb / t:6.0f} "
          f"{100 * gb / t / copy:5.1f}% {cols} {fastest / t:8.2f}  {best[1]}")
print("torch variants' elements off the reference mask (ties by their own rules; information): "
      + "; ".join(f"{dt} {rows}x{v} k={'V' if kk >= v else kk}: "
                  + ", ".join(f"{n} {a}" for n, a in agree.items())
                  for rows, v, dt, kk, _, _, agree, _ in table))
print(f"sampling_bench: {failed} failures")
sys.exit(1 if failed else 0)
