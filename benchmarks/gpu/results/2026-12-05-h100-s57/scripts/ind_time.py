#!/usr/bin/env python3
"""s57: torch.compile's add_rms_norm and rms_norm (no grad) by do_bench, 3 times each."""
import torch, torch.nn.functional as F, triton.testing as tt
bf = torch.bfloat16
for M, N in ((16384, 4096), (4096, 16384), (32768, 1000)):
    x = torch.randn(M, N, device="cuda", dtype=bf); r = torch.randn_like(x)
    w = (torch.rand(N, device="cuda") + 0.5).to(bf)
    f = torch.compile(lambda x, r, w: (F.rms_norm(x + r, (N,), w, 1e-6), x + r))
    g = torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))
    with torch.no_grad():
        a = [tt.do_bench(lambda: f(x, r, w), warmup=25, rep=200, return_mode="median") * 1e3 for _ in range(3)]
        b = [tt.do_bench(lambda: g(x, w), warmup=25, rep=200, return_mode="median") * 1e3 for _ in range(3)]
    print(f"compile {M}x{N}: add_rms {' '.join(f'{t:.1f}' for t in a)} us; rms {' '.join(f'{t:.1f}' for t in b)} us")
