#!/usr/bin/env python3
"""ncu_peers.py ROW [--bench] (on the GPU machine, under ncu): launches the peers' kernel of one
benchmark row a few times, for `ncu -k regex:...` to profile beside Tessel's (tessel-run-gpu) in
the same session; with --bench (not under ncu) it also prints the peer's time on the row as the
anchor measures it (do_bench median, L2 flushed) and GB/s by the anchor's byte count.
ROW: layernorm, rmsnorm or softmax (4096x16384 bf16, Triton's kernel of
../shared/anchors/triton_reference.py with its num_warps = 16), rope (B8 S4096 H32/8 D128:
Triton's kernel) or rope_compile (torch.compile's). The Triton kernels are those of the anchor
script, written out here so that profiling does not run the whole anchor."""
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out, inp, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(inp + row * in_stride + cols, mask=m, other=-float("inf")).to(tl.float32)
    x = x - tl.max(x, 0)
    num = tl.exp(x)
    y = num / tl.sum(num, 0)
    tl.store(out + row * out_stride + cols, y.to(out.dtype.element_ty), mask=m)


@triton.jit
def rmsnorm_kernel(out, inp, w, stride, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK)
    m = cols < n_cols
    x = tl.load(inp + row * stride + cols, mask=m, other=0.0).to(tl.float32)
    wt = tl.load(w + cols, mask=m, other=0.0).to(tl.float32)
    r = 1.0 / tl.sqrt(tl.sum(x * x, 0) / n_cols + eps)
    tl.store(out + row * stride + cols, (x * r * wt).to(out.dtype.element_ty), mask=m)


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


@triton.jit
def rope_kernel(q, k, cos, sin, seq_len, n_qh, n_kh, HALF: tl.constexpr, BLOCK_H: tl.constexpr):
    tok = tl.program_id(0).to(tl.int64)
    pos = tok % seq_len
    d = tl.arange(0, HALF)
    c = tl.load(cos + pos * HALF + d)[None, :]
    s = tl.load(sin + pos * HALF + d)[None, :]
    h = tl.arange(0, BLOCK_H)[:, None]
    qb = q + tok * n_qh * 2 * HALF + h * 2 * HALF + d[None, :]
    mq = h < n_qh
    q1 = tl.load(qb, mask=mq).to(tl.float32)
    q2 = tl.load(qb + HALF, mask=mq).to(tl.float32)
    tl.store(qb, (q1 * c - q2 * s).to(q.dtype.element_ty), mask=mq)
    tl.store(qb + HALF, (q1 * s + q2 * c).to(q.dtype.element_ty), mask=mq)
    kb = k + tok * n_kh * 2 * HALF + h * 2 * HALF + d[None, :]
    mk = h < n_kh
    k1 = tl.load(kb, mask=mk).to(tl.float32)
    k2 = tl.load(kb + HALF, mask=mk).to(tl.float32)
    tl.store(kb, (k1 * c - k2 * s).to(k.dtype.element_ty), mask=mk)
    tl.store(kb + HALF, (k1 * s + k2 * c).to(k.dtype.element_ty), mask=mk)


row = sys.argv[1]
dev, bf = "cuda", torch.bfloat16
if row in ("layernorm", "rmsnorm", "softmax"):
    M, N = 4096, 16384
    x = torch.randn(M, N, device=dev, dtype=bf)
    out = torch.empty_like(x)
    w, b = torch.randn(N, device=dev, dtype=bf), torch.randn(N, device=dev, dtype=bf)
    launch = {"layernorm": lambda: layernorm_kernel[(M,)](out, x, w, b, x.stride(0), N, 1e-5,
                                                          BLOCK=N, num_warps=16),
              "rmsnorm": lambda: rmsnorm_kernel[(M,)](out, x, w, x.stride(0), N, 1e-6, BLOCK=N,
                                                      num_warps=16),
              "softmax": lambda: softmax_kernel[(M,)](out, x, x.stride(0), out.stride(0), N,
                                                      BLOCK=N, num_warps=16)}[row]
    for _ in range(3):
        launch()
    kernel = {"layernorm": layernorm_kernel, "rmsnorm": rmsnorm_kernel, "softmax": softmax_kernel}[row]
    try:  # registers and spills of what ran (Triton 3.6's per-device cache)
        for c in kernel.device_caches[0][0].values():
            print(f"triton {row}: {c.n_regs} registers, {c.n_spills} spills", flush=True)
    except Exception as e:
        print(f"triton {row}: registers not found ({e!r})")
elif row in ("rope", "rope_compile"):
    B, S, HQ, HK, D = 8, 4096, 32, 8, 128
    q = torch.randn(B * S, HQ, D, device=dev, dtype=bf)
    k = torch.randn(B * S, HK, D, device=dev, dtype=bf)
    inv = 1.0 / (10000 ** (torch.arange(0, D, 2, device=dev).float() / D))
    ang = torch.arange(S, device=dev).float()[:, None] * inv[None, :]
    cos, sin = ang.cos().contiguous(), ang.sin().contiguous()
    launch = lambda: rope_kernel[(B * S,)](q, k, cos, sin, S, HQ, HK, HALF=D // 2, BLOCK_H=32,
                                           num_warps=4)
    for _ in range(3 if row == "rope" else 0):
        launch()
    c2 = torch.cat([cos, cos], -1).repeat(B, 1)[:, None, :]
    s2 = torch.cat([sin, sin], -1).repeat(B, 1)[:, None, :]

    def ref(q, k):  # the anchor's eager rope, which torch.compile fuses
        rot = lambda t: torch.cat([-t[..., D // 2:], t[..., :D // 2]], -1)
        return ((q.float() * c2 + rot(q.float()) * s2).to(bf),
                (k.float() * c2 + rot(k.float()) * s2).to(bf))
    f = torch.compile(ref)
    for _ in range(3 if row == "rope_compile" else 0):
        f(q, k)
torch.cuda.synchronize()
if "--bench" in sys.argv:
    bench = lambda fn: triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")
    if row in ("layernorm", "rmsnorm", "softmax"):
        runs = [("triton", launch)]
        nbytes = 2 * x.numel() * 2
    else:
        # The anchor's eager rope: bf16 math on bf16 tables of D columns, compiled.
        cc, ss = c2.to(bf), s2.to(bf)

        def eager(q, k):
            rot = lambda t: torch.cat([-t[..., D // 2:], t[..., :D // 2]], -1)
            return q * cc + rot(q) * ss, k * cc + rot(k) * ss
        fc = torch.compile(eager)
        fc(q, k)
        runs = [("triton", launch), ("torch.compile", lambda: fc(q, k))]
        nbytes = 2 * (q.numel() + k.numel()) * 2
    for name, fn in runs:
        ms = bench(fn)
        print(f"bench {row} {name}: median {ms * 1e3:.1f} us, {nbytes / ms / 1e6:.0f} GB/s", flush=True)
