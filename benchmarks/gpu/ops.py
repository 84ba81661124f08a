#!/usr/bin/env python3
"""ops.py (in a directory made by prepare.sh, on a GPU machine): DSL ops on the GPU.

1. Every case of ops/cases.json (ops_prepare.py: the interpreter runs of the op lit tests)
   runs with tessel-run-gpu on the cubin; its printed buffers must equal the interpreter's
   line for line (the same printer, so equal values print the same), and the exit code too.
2. device_print and device_assert (test/dsl/debug.cpp compiled with --debug): the kernel's
   lines, then the failing assert's message and the non-zero exit; without --debug the same
   kernel prints and passes.
Prints a PASS/FAIL line per case and a summary; exits 1 when a case fails.
"""
import json
import os
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
os.chdir(here)
run_gpu = os.path.join(here, "tessel-run-gpu")


def run(json_path, args):
    return subprocess.run([run_gpu, json_path, "--target=cuda", *args], capture_output=True,
                          text=True, timeout=120)


failed = 0
cases = json.load(open("ops/cases.json"))
for c in cases:
    r = run(c["json"], c["args"])
    ok = r.stdout == c["expected"] and r.returncode == c["exit"]
    failed += not ok
    print(f"{'PASS' if ok else 'FAIL'} {c['name']:18s} {' '.join(c['args'])[:110]}")
    if not ok:
        print("  interpreter:", c["expected"].strip().replace("\n", " | "))
        print("  gpu        :", r.stdout.strip().replace("\n", " | "), "exit", r.returncode,
              r.stderr.strip()[-300:])

debug_args = ["--grid", "2", "--arg", "x@f32:[1,2,3,4,1,2,3,4,9,1,2,3]", "--arg", "n@i64=12"]
for variant, want_exit in (("debug", 1), ("plain", 0)):
    print(f"== device_print / device_assert on the H200, {variant} build: "
          f"tessel-run-gpu ops/{variant}/debug__BLOCK_8__num_warps_1.json {' '.join(debug_args)}")
    r = run(f"ops/{variant}/debug__BLOCK_8__num_warps_1.json", debug_args)
    lines = (r.stdout + r.stderr).splitlines()
    for line in lines[:40]:
        print("  " + line)
    if len(lines) > 40:
        print(f"  ... {len(lines) - 40} more lines")
    printed = sum("v = " in line for line in lines)
    asserted = any("device_assert failed: x must stay below 5" in line for line in lines)
    ok = (r.returncode != 0) == bool(want_exit) and printed > 0 and asserted == bool(want_exit)
    failed += not ok
    print(f"{'PASS' if ok else 'FAIL'} debug-{variant}: exit {r.returncode}, {printed} "
          f"device_print lines, assert message {'shown' if asserted else 'absent'}")

print(f"ops: {len(cases) + 2 - failed} passed, {failed} failed")
sys.exit(1 if failed else 0)
