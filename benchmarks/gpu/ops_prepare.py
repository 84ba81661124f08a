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
        # Interpreter compiles (`rm -rf %t[.x] && tesselc K.cpp|K.mlir [flags] -o %t[.x]`, no
        # --target) and the tessel-run lines that run their variants.
        compiles = {m.group(1): (m.group(2).replace("%S", src), shlex.split(m.group(3)))
                    for m in re.finditer(r"RUN: rm -rf (%t[.\w]*) && tesselc (\S+\.(?:cpp|mlir))"
                                         r"((?: \S+)*?) -o \1\s*$", text, re.M)
                    if "--target" not in m.group(3)}
        if not compiles:
            sys.exit(f"{test}: no interpreter compile line (tesselc K.cpp -o %t)")
        for tdir, (kernel, flags) in compiles.items():
            sub = name + tdir[2:]
            gpu_dir = os.path.join(out, sub)
            with tempfile.TemporaryDirectory() as interp_dir:
                subprocess.run([tesselc, kernel, *flags, "-o", interp_dir], check=True,
                               stdout=subprocess.DEVNULL)
                subprocess.run([tesselc, kernel, *flags, "--target=cuda:sm_90a",
                                "--emit=tile,cubin", "-o", gpu_dir], check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                runs = re.finditer(r"RUN: (?:not )?tessel-run " + re.escape(tdir) +
                                   r"/(\S+\.json) (.*?) \|", text)
                for m in runs:
                    args = shlex.split(m.group(2))
                    # An input the test builds from a file of its own ("x@f32:[$(cat %t/x)]")
                    # becomes seeded random values, as many as the variant's BLOCK; one built by
                    # the shell alone ("$(printf ...)") is expanded here.
                    for j, a in enumerate(args):
                        if "$(" in a and "%t" in a:
                            block = re.search(r"BLOCK_(\d+)", m.group(1)).group(1)
                            args[j] = a.split(":")[0] + f"[{block}]=rand(-64,64)"
                        elif "$(" in a:
                            args[j] = subprocess.run(["bash", "-c", 'printf "%s" "' +
                                                      a.replace("%%", "%") + '"'],
                                                     capture_output=True, text=True).stdout
                    r = subprocess.run([tessel_run, os.path.join(interp_dir, m.group(1)),
                                        "--target", "interpreter", *args],
                                       capture_output=True, text=True)
                    cases.append({"name": f"{sub}.{len(cases)}", "json": f"ops/{sub}/{m.group(1)}",
                                  "args": args, "expected": r.stdout, "exit": r.returncode})
    json.dump(cases, open(os.path.join(out, "cases.json"), "w"), indent=1)
    print(f"ops_prepare: {len(cases)} runs of {len(tests)} tests in {out}/cases.json")


if __name__ == "__main__":
    main()
