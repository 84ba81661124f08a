#!/usr/bin/env python3
"""llm_table.py: the 32-row LLM suite from this directory's runs (decode M <= 64: round 2, the
rows its time limit cut from round 4; M >= 256: round 3; round 5 re-measured five rows with two
more split-K tiles). Each row comes from the last round that measured it: the fastest verified
Tessel variant of that round beside cuBLAS timed in the same process. Triton from
shared/anchors/h200-gemm-suite.json (the anchor's run, the same do_bench harness), GB/s with
each operand read once, %copy of the runner's measured device copy. Prints the table and the
geometric mean."""
import json, math, os, re

here = os.path.dirname(os.path.abspath(__file__))
tessel, cublas = {}, {}
for f in ("round2-decode.txt", "round3-large.txt", "round4-decode.txt",
          "round5-more-split-k-tiles.txt"):
    ts, cs = {}, {}
    for line in open(os.path.join(here, f)):
        m = re.match(r"  tessel bf16 (\S+):bT (\S+): +([0-9.]+) us", line)
        if m:
            ts.setdefault(m[1], {})[m[2]] = float(m[3])
        m = re.match(r"  cublas bf16 (\S+):bT: +([0-9.]+) us", line)
        if m:
            cs[m[1]] = float(m[2])
    for shape in cs:  # rows this round finished replace earlier rounds' rows
        if shape in ts:
            tessel[shape], cublas[shape] = ts[shape], cs[shape]
anchor = os.path.join(here, "../../../../../shared/anchors/h200-gemm-suite.json")
triton = {}
if os.path.exists(anchor):
    for r in json.load(open(anchor))["rows"]:
        triton[f"{r['M']}x{r['N']}x{r['K']}"] = r["triton_ms"] * 1e3
COPY = 4213.0  # GB/s, the runner's device copy in round 4 (4196-4236 over the rounds)
rows, ratios = [], []
print(f"{'shape (MxNxK)':17s} {'tessel us':>9s} {'cuBLAS us':>9s} {'t/cuBLAS':>8s} {'t/Triton*':>9s} "
      f"{'TFLOP/s':>7s} {'GB/s':>6s} {'%copy':>6s}  fastest")
for model, layers in (("8B", [(4096, 6144), (4096, 4096), (4096, 28672), (14336, 4096)]),
                      ("70B", [(8192, 10240), (8192, 8192), (8192, 57344), (28672, 8192)])):
    for k, n in layers:
        for m in ([1, 16, 64, 256, 2048, 8192] if model == "8B" else [16, 2048]):
            s = f"{m}x{n}x{k}"
            best = min(tessel[s], key=tessel[s].get)
            t, c = tessel[s][best], cublas[s]
            gbs = (m * k + n * k + m * n) * 2 / (t * 1e-6) / 1e9
            tr = triton.get(s)
            ratios.append(c / t)
            print(f"{s:17s} {t:9.1f} {c:9.1f} {c / t:8.3f} {(tr / t if tr else float('nan')):9.3f} "
                  f"{2 * m * n * k / (t * 1e-6) / 1e12:7.1f} {gbs:6.0f} {100 * gbs / COPY:5.1f}%  "
                  f"{best.replace('__GROUP_M_8__', ' ').replace('HAS_BIAS_false__ACT_none__', '')}")
g = math.exp(sum(map(math.log, ratios)) / len(ratios))
print(f"geomean Tessel/cuBLAS {g:.3f} over {len(ratios)} shapes; lowest {min(ratios):.3f}; "
      f"below 0.85: {sum(r < 0.85 for r in ratios)}")
print("* Triton: the anchor run's autotuned Triton GEMM (shared/anchors/h200-gemm-suite.json)")
