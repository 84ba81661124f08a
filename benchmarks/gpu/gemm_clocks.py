#!/usr/bin/env python3
"""gemm_clocks.py [--shapes DT:MxNxK[:bT],...] [--seconds S] (in a directory made by prepare.sh,
on a GPU machine, TESSEL_KERNEL_PATH / TESSEL_TUNING_CACHE as for matmul_bench.py): a GEMM's
time in a burst against under sustained load, with the SM clock and the board power.

Session 52 (results/2026-12-05-h100-s52) found the M >= 2048 GEMMs 6-30% slower under
do_bench's ~100 ms of repeats than in the tuner's 20-launch burst, at 620 TFLOP/s against
cuBLAS's 684 under do_bench (773 in the burst). For each shape and library (tessel.ops.matmul,
torch.matmul), after a second of idling:
  burst      3 untimed + 20 timed launches, each after do_bench's L2 flush (a 256 MiB zero_)
  sustained  launches with the same flush for --seconds; the median of the second half
and, over the sustained phase's second half, `nvidia-smi`'s SM clock (MHz) and power draw (W),
sampled about every 50 ms (columns left empty without nvidia-smi). Session 53's answer
(results/2026-12-05-h100-s53): both libraries at the 700 W limit and 1360-1480 MHz, Tessel's
sustained time 0.977-1.000x cuBLAS's: the kernels are even under the same conditions. Each row is verified first (rel. error against
float64 of at most 1e-2)."""
import argparse, os, statistics, subprocess, sys, threading, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
ap.add_argument("--shapes", default="bf16:8192x28672x4096:bT,bf16:2048x8192x28672:bT,"
                "bf16:4096x4096x4096:bT")
ap.add_argument("--seconds", type=float, default=1.0)
args = ap.parse_args()

import torch
import tessel.ops
from flushed import flushed_times  # noqa: E402  (beside this script)

dev = "cuda"
scratch = torch.empty(256 << 20, dtype=torch.int8, device=dev)


def timed(fn, n):
    """Per-launch times (us) of n launches, each after the flush."""
    return flushed_times(fn, n, scratch.zero_)


class Sampler:
    """nvidia-smi's SM clock and power every ~50 ms on a thread (one query per sample: nothing
    buffered in a pipe), while the sustained phase runs; `stop` keeps the second half's
    samples, as the phase's time is its second half's median. None, None without nvidia-smi."""

    def __init__(self):
        self.rows, self.running = [], True
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self):
        while self.running:
            try:
                out = subprocess.run(["nvidia-smi", "--query-gpu=clocks.sm,power.draw",
                                      "--format=csv,noheader,nounits", "-i", "0"],
                                     capture_output=True, text=True, timeout=5).stdout
                self.rows.append(tuple(float(x) for x in out.split(",")))
            except (OSError, ValueError, subprocess.SubprocessError):
                return
            time.sleep(0.05)

    def stop(self):
        self.running = False
        self.thread.join()
        rows = self.rows[len(self.rows) // 2:]
        if not rows:
            return None, None
        return statistics.mean(r[0] for r in rows), statistics.mean(r[1] for r in rows)


def measure(fn, per_iteration_s):
    time.sleep(1.0)  # idle: the clock back at its boost
    fn()
    torch.cuda.synchronize()
    burst = statistics.median(timed(fn, 23)[3:])
    n = max(20, int(args.seconds / max(per_iteration_s, 1e-6)))
    sampler = Sampler()
    sustained = timed(fn, n)
    mhz, watts = sampler.stop()
    return burst, statistics.median(sustained[n // 2:]), mhz, watts


dtypes = {"bf16": torch.bfloat16, "f16": torch.float16}
print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}")
print(f"{'shape':28s} {'library':8s} {'burst us':>9s} {'sustained':>9s} {'ratio':>6s} "
      f"{'TFLOP/s':>8s} {'SM MHz':>7s} {'W':>6s}")
for item in args.shapes.split(","):
    parts = item.split(":")
    dt, bT = parts[0], parts[-1] == "bT"
    m, n, k = map(int, parts[1].split("x"))
    a = torch.randn(m, k, device=dev, dtype=dtypes[dt])
    b = (torch.randn(n, k, device=dev, dtype=dtypes[dt]).t() if bT
         else torch.randn(k, n, device=dev, dtype=dtypes[dt]))
    ref = (a[:64].double() @ b.double())
    for name, fn in (("tessel", lambda: tessel.ops.matmul(a, b)),
                     ("cublas", lambda: torch.matmul(a, b))):
        got = fn()[:64].double()
        err = ((got - ref).norm() / ref.norm()).item()
        if not err <= 1e-2:  # NaN fails too
            print(f"{item:28s} {name:8s} FAIL rel_err {err:.2e}")
            continue
        start = time.perf_counter()
        timed(fn, 5)  # flush and launch: the iteration's wall time sizes the sustained phase
        burst, sustained, mhz, watts = measure(fn, (time.perf_counter() - start) / 5)
        tflops = 2 * m * n * k / sustained / 1e6
        cols = (f"{mhz:7.0f} {watts:6.0f}" if mhz is not None else f"{'':7s} {'':6s}")
        print(f"{item:28s} {name:8s} {burst:9.1f} {sustained:9.1f} {sustained / burst:6.3f} "
              f"{tflops:8.1f} {cols}", flush=True)
