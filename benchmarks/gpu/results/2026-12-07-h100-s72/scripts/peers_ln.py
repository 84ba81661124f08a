# LayerNorm bf16 at the issue rows: the anchor's Triton kernel (shared/anchors/triton_reference.py,
# its BLOCK and num_warps rule), PyTorch eager and torch.compile, timed as the anchor times them
# (triton.testing.do_bench: 256 MB L2 flush, median). ROUNDS rounds, the median per row.
import os, statistics, sys
import torch, triton, triton.language as tl

@triton.jit
def layernorm_kernel(out, inp, w, bias, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(inp + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    mean = tl.sum(x, 0) / n_cols
    d = tl.where(m, x - mean, 0.0)
    var = tl.sum(d * d, 0) / n_cols
    r = 1.0 / tl.sqrt(var + eps)
    wt = tl.load(w + cols, mask=m).to(tl.float32)
    bt = tl.load(bias + cols, mask=m).to(tl.float32)
    tl.store(out + row * stride + cols, (d * r * wt + bt).to(out.dtype.element_ty), mask=m)

torch.manual_seed(0)
bench = lambda f: triton.testing.do_bench(f, warmup=25, rep=200, return_mode="median")
rows = {}
for M, N in [(4096, 16384), (16384, 4096), (32768, 1000)]:
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(N, device="cuda", dtype=torch.bfloat16); b = torch.randn_like(w)
    out = torch.empty_like(x)
    B = triton.next_power_of_2(N); nw = 4 if B <= 2048 else (8 if B <= 8192 else 16)
    ft = lambda: layernorm_kernel[(M,)](out, x, w, b, x.stride(0), N, 1e-5, BLOCK=B, num_warps=nw)
    fe = lambda: torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5)
    fc = torch.compile(fe); fc(); ft()
    ref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)
    for name, f in [("triton", ft), ("eager", fe), ("compile", fc)]:
        o = out if name == "triton" else f()
        err = ((o.double() - ref).norm() / ref.norm()).item()
        assert err < 1e-2, (name, err)
    for r in range(int(os.environ.get("ROUNDS", 3))):
        for name, f in [("triton", ft), ("eager", fe), ("compile", fc)]:
            rows.setdefault((f"{M}x{N}", name), []).append(bench(f) * 1e3)
for (shape, name), v in rows.items():
    print(f"PEER {shape} {name} {statistics.median(v):.2f} us (rounds: {' '.join(f'{t:.2f}' for t in v)})")
