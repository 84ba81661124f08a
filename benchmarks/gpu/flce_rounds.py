#!/usr/bin/env python3
"""flce_rounds.py (in a directory made by prepare.sh, on a GPU machine): fused linear
cross-entropy forward+backward, Tessel against Liger-Kernel and eager PyTorch, timed in
interleaved rounds rather than one do_bench per implementation (each sample starts from an
idle device, so it includes the host's time to the first launch). At ~50 ms a step, do_bench's
rep=50 times a single step, and the implementations run one after another, so a GPU that
heats or lowers its clock under one is measured for the next. Here every round runs each
implementation once, after the same L2 flush, between device events; the table gives each
one's median over the rounds. Beside it: the GPU's SM clock and power while each ran
(nvidia-smi, sampled every 20 ms), and from torch.profiler one step's kernel time against its
span on the device (the idle time between kernels) with the longest gaps, and its kernels by
device time.

usage: flce_rounds.py [ROUNDS] [BT ...]; writes $OUT/flce_rounds.json and $OUT/smi.csv."""
import json, os, statistics, subprocess, sys, time

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "python"))
os.environ.setdefault("TESSEL_KERNEL_PATH", os.path.join(here, "kernels"))
import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile, record_function
from tessel import torch_ops as ops

try:
    from liger_kernel.ops.fused_linear_cross_entropy import LigerFusedLinearCrossEntropyFunction
except Exception:
    LigerFusedLinearCrossEntropyFunction = None

out_dir = os.environ.get("OUT", ".")
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 7
shapes = [int(a) for a in sys.argv[2:]] or [8192, 4096]
H, V = 4096, 128256
dev, bf = "cuda", torch.bfloat16
smi = subprocess.Popen(["nvidia-smi", "--query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu",
                        "--format=csv,noheader,nounits", "-lms", "20"],
                       stdout=open(os.path.join(out_dir, "smi.csv"), "w"))
flush = torch.empty(256 * 2**20, dtype=torch.int8, device=dev)
results = []
for BT in shapes:
    torch.manual_seed(0)
    h = torch.randn(BT, H, device=dev, dtype=bf, requires_grad=True)
    W = (torch.randn(V, H, device=dev, dtype=bf) * 0.02).requires_grad_()
    y = torch.randint(0, V, (BT,), device=dev)

    def step(loss_fn):
        def f():
            h.grad = W.grad = None
            loss = loss_fn()
            (loss[0] if isinstance(loss, tuple) else loss).backward()
        return f
    impls = {"tessel": step(lambda: ops.fused_linear_cross_entropy(h, W, y))}
    if LigerFusedLinearCrossEntropyFunction:
        impls["liger"] = step(lambda: LigerFusedLinearCrossEntropyFunction.apply(h, W, y))
    impls["eager"] = step(lambda: F.cross_entropy((h @ W.T).float(), y))
    for fn in impls.values():
        fn(); fn()
    torch.cuda.synchronize()
    times = {k: [] for k in impls}
    for r in range(rounds):
        for name, fn in impls.items():
            flush.zero_()
            torch.cuda.synchronize()
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            w0 = time.time()
            a.record(); fn(); b.record()
            torch.cuda.synchronize()
            times[name].append(a.elapsed_time(b))
            results.append({"BT": BT, "impl": name, "round": r, "ms": times[name][-1],
                            "wall": [w0, time.time()]})
    for name, t in times.items():
        print(f"{BT}x{H}x{V} {name:7s} median {statistics.median(t):7.2f} ms  rounds "
              + " ".join(f"{x:.2f}" for x in t), flush=True)
    # One step under the profiler: the kernels' time against the span they cover.
    for name in [n for n in ("tessel", "liger") if n in impls]:
        torch.cuda.synchronize()
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            with record_function("flce_step"):
                impls[name]()
            torch.cuda.synchronize()
        path = os.path.join(out_dir, f"trace_{name}_{BT}.json")
        prof.export_chrome_trace(path)
        trace = json.load(open(path))["traceEvents"]
        ev = [e for e in trace if e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
        ev.sort(key=lambda e: e["ts"])
        busy = sum(e["dur"] for e in ev)
        span = ev[-1]["ts"] + ev[-1]["dur"] - ev[0]["ts"]
        # The host's share outside the device's span: from the step's start (the annotation,
        # on the host's clock, which the trace aligns with the device's) to its first kernel,
        # and from its last kernel to the step's end (the backward's wait and autograd).
        marks = [e for e in trace if e.get("name") == "flce_step" and e.get("ph") == "X"]
        if marks:
            st = min(marks, key=lambda e: e["ts"])
            print(f"{BT} {name}: step {st['dur'] / 1e3:.2f} ms on the host; first kernel after "
                  f"{(ev[0]['ts'] - st['ts']) / 1e3:.2f} ms ({ev[0]['name'][:40]}), first "
                  f"GEMM after {(next((e['ts'] for e in ev if 'gemm' in e['name'] or 'nvjet' in e['name']), st['ts']) - st['ts']) / 1e3:.2f} ms, "
                  f"last kernel ends {(st['ts'] + st['dur'] - ev[-1]['ts'] - ev[-1]['dur']) / 1e3:.2f} ms before the step")
        gaps = sorted(((ev[i + 1]["ts"] - (e["ts"] + e["dur"]), e["name"][:60],
                        ev[i + 1]["name"][:60]) for i, e in enumerate(ev[:-1])), reverse=True)
        print(f"{BT} {name}: {len(ev)} kernels, busy {busy / 1e3:.2f} ms, span "
              f"{span / 1e3:.2f} ms, idle {(span - busy) / 1e3:.2f} ms; longest gaps (us):")
        for g, p, n in gaps[:6]:
            print(f"    {g:8.1f}  after {p}  before {n}")
        by_name = {}
        for e in ev:
            k = by_name.setdefault(e["name"][:90], [0, 0.0])
            k[0] += 1
            k[1] += e["dur"]
        print(f"  kernels by device time (ms, launches):")
        for n, (c, d) in sorted(by_name.items(), key=lambda kv: -kv[1][1])[:7]:
            print(f"    {d / 1e3:8.2f} {c:4d}  {n}")
        os.remove(path)
    del h, W, y
    torch.cuda.empty_cache()
time.sleep(0.1)
smi.terminate()
json.dump(results, open(os.path.join(out_dir, "flce_rounds.json"), "w"), indent=0)
