#!/usr/bin/env python3
"""s57: host time per call of tessel.ops.matmul on decode shapes, and its parts (plan key,
output allocation, split-K workspace, stream query, kernels.launch, the C call alone), beside
torch.matmul; then do_bench of both. argv: package dir, shapes."""
import os, sys, time, statistics
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, sys.argv[1])
import torch, triton.testing as tt
import tessel
from tessel import kernels as K
from tessel._matmul import plan_of, _torch_key
from tessel._linear_cross_entropy import _workspace
tessel.add_kernel_directory(os.path.join(here, "../r55/kernels"))

def per_call(fn, n):
    fn(); torch.cuda.synchronize()
    got = []
    for _ in range(7):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        t1 = time.perf_counter()
        torch.cuda.synchronize()
        got.append((t1 - t0) / n * 1e6)
    return statistics.median(got)

print(f"package {sys.argv[1]}")
for item in sys.argv[2].split(","):
    m, n, k = (int(x) for x in item.split("x"))
    a = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, k, device="cuda", dtype=torch.bfloat16).t()
    ref = a.double() @ b.double()
    c = tessel.ops.matmul(a, b)
    err = ((c.double() - ref).norm() / ref.norm()).item()
    p = plan_of(a, b)
    seen = []
    real = K.launch
    K.launch = lambda v, g, *args: (seen.append((v, g, args)), real(v, g, *args))[1]
    tessel.ops.matmul(a, b)
    K.launch = real
    v, g, args = seen[0]
    pool = v._cuda_launches
    call = pool[0].call if pool else None
    r = {"full": per_call(lambda: tessel.ops.matmul(a, b), 400),
         "cublas": per_call(lambda: torch.matmul(a, b), 400),
         "key": per_call(lambda: _torch_key(a, b), 3000),
         "empty": per_call(lambda: torch.empty((m, n), dtype=a.dtype, device=a.device), 3000),
         "stream": per_call(lambda: torch.cuda.current_stream(a.device).cuda_stream, 3000),
         "launch": per_call(lambda: K.launch(v, g, *args), 400),
         "C call": per_call(call, 400) if call else 0.0}
    if p.splits:
        tiles = args[4 if False else 0] if False else None
        r["workspace"] = per_call(lambda: _workspace(a, p.splits * m * n, 64), 3000)
    db = {name: [tt.do_bench(fn, warmup=25, rep=100, return_mode="median") * 1e3 for _ in range(3)]
          for name, fn in (("tessel", lambda: tessel.ops.matmul(a, b)), ("cublas", lambda: torch.matmul(a, b)))}
    print(f"{item} err {err:.1e} {'PASS' if err < 1e-2 else 'FAIL'} {v.name.split('__')[0]} splits={p.splits} swap={p.swap} grid={g}")
    print("  host us/call: " + " ".join(f"{k_} {x:.1f}" for k_, x in r.items()))
    print("  do_bench us: " + " ".join(f"{k_} " + "/".join(f"{x:.1f}" for x in xs) for k_, xs in db.items()))
