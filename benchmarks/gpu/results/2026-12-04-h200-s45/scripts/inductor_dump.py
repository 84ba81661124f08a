"""torch.compile's kernels for the norms' forward rows (the Triton source and chosen config),
under TORCHINDUCTOR_CACHE_DIR, copied to $OUT/inductor."""
import os, shutil, glob
import torch, torch.nn.functional as F
for M, N in ((32768, 1000), (16384, 4096), (4096, 16384)):
    x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    r = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
    w = torch.rand(N, device="cuda", dtype=torch.bfloat16) + 0.5
    b = torch.randn(N, device="cuda", dtype=torch.bfloat16)
    with torch.no_grad():
        torch.compile(lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5))(x, w, b)
        torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))(x, w)
        torch.compile(lambda x, r, w: (F.rms_norm(x + r, (N,), w, 1e-6), x + r))(x, r, w)
    torch._dynamo.reset()
d = os.environ["TORCHINDUCTOR_CACHE_DIR"]; o = os.path.join(os.environ["OUT"], "inductor")
os.makedirs(o, exist_ok=True)
for p in glob.glob(d + "/**/*", recursive=True):
    if p.endswith(".best_config") or (p.endswith(".py") and "triton_" in open(p, errors="ignore").read()[:100000] and "@triton.jit" in open(p, errors="ignore").read()):
        shutil.copy(p, os.path.join(o, p.replace(d, "").strip("/").replace("/", "_")))
print("inductor files:", len(os.listdir(o)))
