#!/usr/bin/env python3
"""anchor_split.py rows|gemm TRITON_REFERENCE.py DEST.py: one part of shared/anchors'
triton_reference.py, for a GPU machine. `rows`: the whole script without its GEMM section (the
memory-bound rows, PyTorch eager and torch.compile beside Triton; it writes $OUT/anchors.json).
`gemm`: the GEMM kernel alone (autotuned configs, kernel, launcher) as a module,
triton_mm(x, w, bias=None, act=0), for gemm_bench.py and matmul_bench.py: importing the whole
reference would run its benchmarks."""
import sys

part, src_path, dest = sys.argv[1:4]
src = open(src_path).read()
if part == "rows":
    cut = src.index("# ---------------- GEMM ----------------")
    end = src.index("out_dir = os.environ.get")
    open(dest, "w").write(src[:cut] + src[end:])
elif part == "gemm":
    start = src.index("def mm_configs():")
    end = src.index("# ---------------- cold compile time ----------------")
    head = ("# The Triton GEMM of shared/anchors/triton_reference.py (anchor_split.py gemm):\n"
            "# triton_mm(x, w, bias=None, act=0), autotuned over mm_configs().\n"
            "import torch\nimport triton\nimport triton.language as tl\n\ndev = \"cuda\"\n\n\n")
    open(dest, "w").write(head + src[start:end].rstrip() + "\n")
else:
    sys.exit("usage: anchor_split.py rows|gemm TRITON_REFERENCE.py DEST.py")
