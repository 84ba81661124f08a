# Triton's PTX, LLVM IR and register use for the anchor's LayerNorm at 4096x16384 bf16.
import os, torch, triton, triton.language as tl
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
M, N = 4096, 16384
x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
w = torch.randn(N, device="cuda", dtype=torch.bfloat16); b = torch.randn_like(w); o = torch.empty_like(x)
k = layernorm_kernel[(M,)](o, x, w, b, x.stride(0), N, 1e-5, BLOCK=N, num_warps=16)
torch.cuda.synchronize()
print("triton", triton.__version__, "n_regs", k.n_regs, "n_spills", k.n_spills)
out = os.environ.get("OUT", ".")
for key in ("ptx", "llir", "ttgir"):
    if key in k.asm:
        open(f"{out}/triton_layernorm.{key}", "w").write(k.asm[key])
