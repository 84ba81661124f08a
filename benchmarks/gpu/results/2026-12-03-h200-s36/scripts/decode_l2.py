"""Decode GEMMs (y = x W^T, bf16) and plain reads of the same bytes, timed three ways:
  write-flush: do_bench's method (a 256 MB buffer zeroed before each run: L2 left full of dirty
               lines, which the timed kernel's reads must write back first);
  read-flush:  a 256 MB buffer summed before each run (L2 left full of clean lines);
  graph:       do_bench_cudagraph (no flush: a weight under the L2's size stays in it).
Median of 100 event-timed runs (the first two), GB/s of the weight's bytes."""
import sys, os, torch, torch.nn.functional as F, triton.testing as tt
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))
import tessel
tessel.add_kernel_directory(os.path.join(here, "..", "kernels"))
flush = torch.ones(64 * 2**20, device="cuda", dtype=torch.float32)

def timed(fn, how, reps=100):
    for _ in range(5):
        fn()
    s = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    e = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        if how == "write":
            flush.zero_()
        else:
            flush.sum()
        s[i].record(); fn(); e[i].record()
    torch.cuda.synchronize()
    t = sorted(a.elapsed_time(b) for a, b in zip(s, e))
    return t[len(t) // 2]

print(torch.cuda.get_device_name(), flush=True)
rows = [(1, 6144, 4096), (16, 6144, 4096), (64, 6144, 4096), (1, 4096, 4096), (16, 4096, 4096),
        (64, 4096, 4096), (1, 28672, 4096), (16, 28672, 4096), (1, 4096, 14336), (16, 4096, 14336)]
print(f"{'shape':16s} {'what':8s} {'write-flush':>16s} {'read-flush':>16s} {'graph':>16s}   (us, GB/s of W)")
for m, n, k in rows:
    x = torch.randn(m, k, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(n, k, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(w)
    ref = x.double() @ w.double().T
    with torch.no_grad():
        y = tessel.ops.matmul(x, w.T)
    err = ((y.double() - ref).norm() / ref.norm()).item()
    assert err < 1e-2 and torch.isfinite(y).all(), err
    byts = w.numel() * 2
    for what, fn in (("cublas", lambda: F.linear(x, w)), ("tessel", lambda: tessel.ops.matmul(x, w.T)),
                     ("w.sum", lambda: w.sum(dtype=torch.float32)), ("copy/2", lambda: dst.copy_(w))):
        tw, tr = timed(fn, "write"), timed(fn, "read")
        tg = tt.do_bench_cudagraph(fn, rep=50, return_mode="median")
        f = 2 if what == "copy/2" else 1  # a copy moves the bytes twice
        print(f"{m}x{n}x{k:<6d} {what:8s} " + " ".join(
            f"{t*1e3:7.1f} {f*byts/t/1e6:6.0f}  " for t in (tw, tr, tg)), flush=True)
    print(f"{'':16s} tessel rel_err {err:.1e}", flush=True)
    del x, w, dst, ref, y
    torch.cuda.empty_cache()
