"""Cold-L2 timing for the GPU scripts beside this one (decode_flush.py, gemm_clocks.py):
flushed_times(fn, n, flush) launches fn n times, each right after flush() (an L2 flush: do_bench
writes 256 MiB), and returns each launch's device time in us, between CUDA events recorded
around it on the current stream."""
import torch


def flushed_times(fn, n, flush):
    begin = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    end = [torch.cuda.Event(enable_timing=True) for _ in range(n)]
    for i in range(n):
        flush()
        begin[i].record()
        fn()
        end[i].record()
    torch.cuda.synchronize()
    return [b.elapsed_time(e) * 1e3 for b, e in zip(begin, end)]
