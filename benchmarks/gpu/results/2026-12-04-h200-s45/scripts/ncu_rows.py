"""One launch each of rmsnorm_rows (R16 B128 W2), layernorm_rows (same) and torch.compile's
kernels at 262144x128 bf16, for ncu."""
import os, sys
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
import torch, torch.nn.functional as F
from tessel import kernels as K
M, N = 262144, 128
x = torch.randn(M, N, device="cuda", dtype=torch.bfloat16)
w = torch.rand(N, device="cuda", dtype=torch.bfloat16) + 0.5
b = torch.randn(N, device="cuda", dtype=torch.bfloat16)
out = torch.empty_like(x); st = torch.empty(M, device="cuda"); st2 = torch.empty(M, device="cuda")
vr = K.load_kernel(os.path.join(here, "kR", "rmsnorm_rows__bf16__ROWS_16__BLOCK_128__num_warps_2__div8.json"))
vl = K.load_kernel(os.path.join(here, "kR", "layernorm_rows__bf16__ROWS_16__BLOCK_128__num_warps_2__div8.json"))
K.launch(vr, M // 16, out, st, x, w, N, M, N, 1e-6)
K.launch(vl, M // 16, out, st, st2, x, w, b, N, M, N, 1e-5)
with torch.no_grad():
    torch.compile(lambda x, w: F.rms_norm(x, (N,), w, 1e-6))(x, w)
    torch.compile(lambda x, w, b: F.layer_norm(x, (N,), w, b, 1e-5))(x, w, b)
torch.cuda.synchronize()
