import torch, torch.nn.functional as F, triton
for M, N in ((16384, 4096), (32768, 1000), (4096, 16384)):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    w = (torch.rand(N, device="cuda") + 0.5).to(torch.bfloat16).requires_grad_()
    b = torch.zeros(N, device="cuda", dtype=torch.bfloat16, requires_grad=True)
    dy = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    for name, f in (("rms_norm", lambda: F.rms_norm(x, (N,), w, 1e-6)),
                    ("layer_norm", lambda: F.layer_norm(x, (N,), w, b, 1e-5))):
        y = f()
        ins = (x, w) if name == "rms_norm" else (x, w, b)
        ms = triton.testing.do_bench(lambda: torch.autograd.grad(y, ins, dy, retain_graph=True), warmup=25, rep=200)
        print(f"eager {name} backward {M}x{N}: {ms * 1e3:.1f} us")
