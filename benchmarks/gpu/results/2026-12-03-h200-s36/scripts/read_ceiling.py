"""What a decode GEMM's weight read can reach: torch's copy and sum of 32 MB to 1 GiB of bf16,
do_bench with a cold L2 (as gemm_bench's cuBLAS column), GB/s of bytes moved."""
import torch, triton.testing as tt
print(torch.cuda.get_device_name())
for mb in (32, 48, 64, 112, 224, 448, 1024):
    n = mb * 2**20 // 2
    src = torch.randn(n, device="cuda", dtype=torch.bfloat16)
    dst = torch.empty_like(src)
    tc = tt.do_bench(lambda: dst.copy_(src), warmup=25, rep=200, return_mode="median")
    ts = tt.do_bench(lambda: src.sum(dtype=torch.float32), warmup=25, rep=200, return_mode="median")
    k = 4096
    w = src[: (n // k) * k].view(-1, k)
    x = torch.randn(k, device="cuda", dtype=torch.bfloat16)
    tm = tt.do_bench(lambda: torch.mv(w, x), warmup=25, rep=200, return_mode="median")
    tg = tt.do_bench_cudagraph(lambda: torch.mv(w, x), rep=200, return_mode="median")
    e = tt.do_bench(lambda: None, warmup=25, rep=200, return_mode="median")
    print(f"{mb:5d} MB: copy {tc*1e3:8.1f} us {2*mb*2**20/tc/1e6:7.0f} GB/s | sum {ts*1e3:8.1f} us "
          f"{mb*2**20/ts/1e6:7.0f} GB/s | mv({w.shape[0]}x{k}) {tm*1e3:8.1f} us {mb*2**20/tm/1e6:7.0f} GB/s"
          f" graph {tg*1e3:8.1f} us {mb*2**20/tg/1e6:7.0f} GB/s | empty do_bench {e*1e3:.1f} us", flush=True)
    del src, dst, w
    torch.cuda.empty_cache()
