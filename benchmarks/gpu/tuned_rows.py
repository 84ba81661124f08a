#!/usr/bin/env python3
"""tuned_rows.py TUNE_DIR TUNING.json (on the GPU machine, in a directory made by prepare.sh
or acceptance/stage.sh): times each tuned winner at the shape it was tuned for, the way bench.sh
times the library's variants (tessel-run-gpu --bench: verified first, cold L2, median of 100
event timings), and prints bench.sh's ROW lines, so table.py puts the tuned rows beside Triton,
PyTorch, torch.compile and QuACK. A winner whose __div8 twin exists is run as the twin (the benchmark
shapes keep its promises), as the launchers would."""
import json, os, re, subprocess, sys

tune_dir, cache_path = sys.argv[1], sys.argv[2]
entries = json.load(open(cache_path))["entries"]
# The benchmark's row names: the two-pass softmax is a softmax row, and rope_qk (the same
# in-place rotation by blocks of one head's tokens) a rope row.
row_name = {"softmax_looped": "softmax", "rope_qk": "rope"}
for manifest_path in sorted(
        os.path.join(d, "manifest.json") for d, _, files in os.walk(tune_dir) if "manifest.json" in files):
    m = json.load(open(manifest_path))
    here = os.path.dirname(manifest_path)
    for shape in m["shapes"]:
        keys = dict(zip(m["key_names"], shape["buckets"]))
        hit = [e for e in entries
               if e["kernel"] == m["kernel"] and e["dtype"] == m["dtype"] and e["keys"] == keys]
        if not hit:
            print(f"# {m['kernel']} {shape['shape']}: no tuning entry for {keys}")
            continue
        e = max(hit, key=lambda e: e["when"])  # the newest, if several devices or drivers
        variant = next(v for v in m["variants"] if v["name"] == e["variant"])
        vjson = variant["twin"] or variant["json"]
        dims = "x".join(str(d) for d in shape["shape"])
        cmd = ["./tessel-run-gpu", os.path.join(here, vjson), "--target=cuda", "--shape", dims,
               "--dtype", m["dtype"], "--bench", "--reps", "100"]
        for key, value in m.get("options", {}).items():  # the problem it was tuned on
            cmd += ["--opt", f"{key}={value}"]
        out = subprocess.run(cmd, capture_output=True, text=True).stdout
        bench = [l for l in out.splitlines() if l.startswith("bench:")]
        if not bench:
            print(f"FAILED {m['kernel']} {dims} {e['variant']}: {out[-400:]}")
            continue
        b = bench[0]
        field = lambda pattern: (re.search(pattern, b) or [None, "-"])[1]  # as bench.sh's seds
        ms, gbps, pct = field(r"median ([0-9.]+) ms"), field(r", ([0-9.]+) GB/s"), field(r"\(([0-9.]+)% of")
        verdict = "PASS" if "PASS" in out else "FAIL"
        print(f"ROW {row_name.get(m['kernel'], m['kernel'])} {dims} tuned:{os.path.basename(vjson)[:-5]}"
              f" {ms} {gbps} {pct} {verdict}", flush=True)
