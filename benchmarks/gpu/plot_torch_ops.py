#!/usr/bin/env python3
"""plot_torch_ops.py TORCH_OPS_JSON OUT_DIR: one PNG per op of a torch_ops.py run (its
torch_ops.json): per shape, the forward and forward+backward median times of Tessel, PyTorch
eager, torch.compile and Liger-Kernel side by side (lower is faster), each bar labelled with
Tessel's speed-up over it (other's time / Tessel's); fused linear cross-entropy's time and peak
memory. Needs matplotlib (Debian: python3-matplotlib); runs anywhere, not only on the GPU
machine."""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt

IMPLS = ("tessel", "eager", "compile", "liger")
COLORS = {"tessel": "#1f77b4", "eager": "#7f7f7f", "compile": "#ff7f0e", "liger": "#2ca02c"}


def bars(ax, rows, shapes, key, title, unit="us"):
    """Grouped bars of rows[key] (ms; shown in `unit`, us or ms) per shape and impl."""
    scale = 1e3 if unit == "us" else 1.0
    width = 0.8 / len(IMPLS)
    for i, impl in enumerate(IMPLS):
        for j, shape in enumerate(shapes):
            r = rows.get((shape, impl))
            if not r or key not in r:
                continue
            t = next((x for x in [rows.get((shape, "tessel"))] if x and key in x), None)
            x = j + (i - (len(IMPLS) - 1) / 2) * width
            ax.bar(x, r[key] * scale, width, color=COLORS[impl],
                   label=impl if j == 0 or (shape, impl) not in rows else None)
            if t and impl != "tessel":
                ax.annotate(f"{r[key] / t[key]:.2f}x", (x, r[key] * scale), ha="center",
                            va="bottom", fontsize=7)
    ax.set_xticks(range(len(shapes)), shapes, fontsize=8)
    ax.set_ylabel(f"median time ({unit})")
    ax.set_title(title, fontsize=10)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = json.load(open(sys.argv[1]))
    out = sys.argv[2]
    os.makedirs(out, exist_ok=True)
    ops = []
    for r in data["rows"]:
        if r["op"] not in ops:
            ops.append(r["op"])
    for op in ops:
        rows = {(r["shape"], r["impl"]): r for r in data["rows"] if r["op"] == op}
        shapes = list(dict.fromkeys(r["shape"] for r in data["rows"] if r["op"] == op))
        name = op.split()[0]
        if op == "fused_linear_ce":
            fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
            bars(a1, rows, shapes, "fwd_bwd_ms", "forward + backward (bar labels: time / Tessel's)",
                 unit="ms")
            for i, impl in enumerate(IMPLS):
                for j, shape in enumerate(shapes):
                    r = rows.get((shape, impl))
                    if r and "peak_GiB" in r:
                        a2.bar(j + (i - 1.5) * 0.2, r["peak_GiB"], 0.2, color=COLORS[impl],
                               label=impl if j == 0 else None)
            a2.set_xticks(range(len(shapes)), shapes, fontsize=8)
            a2.set_ylabel("peak memory beyond the inputs (GiB)")
            a2.set_title("peak memory", fontsize=10)
            a2.legend(fontsize=8)
        else:
            fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 4))
            bars(a1, rows, shapes, "fwd_ms", "forward (bar labels: time / Tessel's)")
            bars(a2, rows, shapes, "fwd_bwd_ms", "forward + backward")
            a1.legend(fontsize=8)
        fig.suptitle(f"{op}, bf16, {data['gpu']} (torch {data['torch']})", fontsize=11)
        fig.tight_layout()
        path = os.path.join(out, f"{name}.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(path)


if __name__ == "__main__":
    main()
