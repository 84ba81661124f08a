#!/usr/bin/env python3
"""ops_prepare.py DEST TEST...: the interpreter runs of DSL-op lit tests, replayed on a GPU.

For each lit test (test/kernels/*.test) this takes the kernel file of its interpreter compile
(`tesselc %S/Inputs/K.cpp [flags] -o %t`) and every `tessel-run %t/V.json ARGS | FileCheck`
line. It compiles the kernel file for cuda:sm_90a (tile IR and cubin) into DEST/ops/, runs
each line on the interpreter here and keeps its printed buffers as the expected output, and
writes DEST/ops/cases.json. benchmarks/gpu/ops.py runs the same lines with tessel-run-gpu on
the H200 and compares the printed buffers: the lit test checks the interpreter against values
worked out by hand, this checks the GPU against the interpreter, element for element.
"""
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
build = os.environ.get("TESSEL_BUILD_DIR", os.path.join(root, "build"))
tesselc = os.path.join(build, "bin", "tesselc")
tessel_run = os.path.join(build, "bin", "tessel-run")


def main():
    dest, tests = sys.argv[1], sys.argv[2:]
    out = os.path.join(dest, "ops")
    os.makedirs(out, exist_ok=True)
    cases = []
    for test in tests:
        name = os.path.splitext(os.path.basename(test))[0]
        text = open(test).read()
        src = os.path.dirname(os.path.abspath(test))
        compile_line = re.search(r"RUN: rm -rf %t && tesselc (\S+\.cpp)((?: \S+)*?) -o %t\s*$",
                                 text, re.M)
        if not compile_line:
            sys.exit(f"{test}: no interpreter compile line (tesselc K.cpp -o %t)")
        kernel = compile_line.group(1).replace("%S", src)
        flags = shlex.split(compile_line.group(2))
        gpu_dir = os.path.join(out, name)
        with tempfile.TemporaryDirectory() as interp_dir:
            subprocess.run([tesselc, kernel, *flags, "-o", interp_dir], check=True,
                           stdout=subprocess.DEVNULL)
            subprocess.run([tesselc, kernel, *flags, "--target=cuda:sm_90a", "--emit=tile,cubin",
                            "-o", gpu_dir], check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            for i, m in enumerate(re.finditer(r"RUN: (?:not )?tessel-run %t/(\S+\.json) (.*?) \|",
                                              text)):
                args = shlex.split(m.group(2))
                # An input the test builds in the shell ("x@f32:[$(cat %t/x)]") becomes seeded
                # random values, as many as the variant's BLOCK.
                for j, a in enumerate(args):
                    if "$(" in a:
                        block = re.search(r"BLOCK_(\d+)", m.group(1)).group(1)
                        args[j] = a.split(":")[0] + f"[{block}]=rand(-64,64)"
                r = subprocess.run([tessel_run, os.path.join(interp_dir, m.group(1)),
                                    "--target", "interpreter", *args],
                                   capture_output=True, text=True)
                cases.append({"name": f"{name}.{i}", "json": f"ops/{name}/{m.group(1)}",
                              "args": args, "expected": r.stdout, "exit": r.returncode})
    json.dump(cases, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print(f"ops_prepare: {len(cases)} runs of {len(tests)} tests in {out}/cases.json")


if __name__ == "__main__":
    main()
