#!/usr/bin/env python3
"""Norm backward experiment: each variant (argv: tessel-run-gpu, then jsons) on its shape, at
programs = 132 x per_sm and twice that, verified then timed (--bench, 50 launches)."""
import json, os, re, subprocess, sys
run = sys.argv[1]
SHAPES = {1024: "32768x1000", 4096: "16384x4096", 16384: "4096x16384"}
lines, meta = [], []
for j in sys.argv[2:]:
    d = json.load(open(j))
    cfg, res = d["config"], d["resources"]
    nw = d.get("num_warps", cfg.get("num_warps"))
    regs = max(res["registers"], 1)
    per_warp = -(-regs * 32 // 256) * 256
    per_sm = max(1, min(32, 2048 // (32 * nw), 65536 // (per_warp * nw),
                        (227 * 1024) // max(res["shared_bytes"], 1)))
    shape = SHAPES[cfg["BLOCK"]]
    rows = int(shape.split("x")[0])
    problem = "rmsnorm_backward" if ("rms" in j) else "layernorm_backward"
    for p in (132 * per_sm,):
        rpp = -(-rows // p)
        lines.append(f"{j} --problem {problem} --shape {shape} --opt rows_per_program={rpp} --bench --reps 50")
        meta.append((("nohint/" if "nohint" in j else "") + os.path.basename(j).replace("__div8.json", ""), shape, per_sm, -(-rows // rpp), regs, res["spill_bytes"]))
open("/tmp/batch.txt", "w").write("\n".join(lines) + "\n")
import os
with open(os.environ["OUT"] + "/raw.txt", "w") as f:
    try:
        subprocess.run([run, "--batch", "/tmp/batch.txt"], stdout=f, stderr=subprocess.STDOUT, timeout=int(os.environ.get("T", "250")))
    except subprocess.TimeoutExpired:
        print("timed out")
out = open(os.environ["OUT"] + "/raw.txt").read()
cases = re.split(r"=== case \d+ exit -?\d+", out)
print(out[-3000:] if len(cases) < len(lines) else "")
print(f"{'variant':62} {'shape':11} {'per_sm':>6} {'progs':>5} {'regs':>4} {'spill':>5} {'ms':>8} {'GB/s':>6} verdict")
for m, c in zip(meta, cases):
    t = re.search(r"median ([0-9.]+) ms.*?([0-9]+) GB/s", c)
    v = "PASS" if ": PASS" in c else "FAIL"
    print(f"{m[0][:62]:62} {m[1]:11} {m[2]:>6} {m[3]:>5} {m[4]:>4} {m[5]:>5} {t.group(1) if t else '-':>8} {t.group(2) if t else '-':>6} {v}")
