#!/usr/bin/env python3
"""patch_evict.py (session 39, run from the repository root): copies of rmsnorm.cpp,
layernorm.cpp, swiglu.cpp and rope.cpp (as of 88fd0dc) whose streaming loads carry
{.evict = Evict::evict_first} (/tmp/exp/src/L), and whose stores do too (/tmp/exp/src/LS);
compile_evict.sh SRC DEST then compiles their bf16 variants for ab_stream.py."""
import os, re, shutil
H = "{.evict = Evict::evict_first}"
def patch(src, dst, load_lines, store_lines, stores):
    lines = open(src).read().split("\n")
    for i in load_lines:
        l = lines[i - 1]
        m = re.search(r"load\(([^()]*(?:\([^()]*\))?[^()]*)\)", l)
        args = m.group(1)
        new = f"load({args}, {H})" if args.count(",") == 2 else f"load({args}, 0.0, {H})"
        lines[i - 1] = l.replace(m.group(0), new, 1)
    for i in store_lines if stores else []:
        l = lines[i - 1]
        k = l.rindex(");")
        lines[i - 1] = l[:k] + f", {H}" + l[k:]
    open(dst, "w").write("\n".join(lines))
for mode in ("L", "LS"):
    d = f"/tmp/exp/src/{mode}"
    os.makedirs(d, exist_ok=True)
    for h in os.listdir("dsl/kernels"):
        if h.endswith(".h"):
            shutil.copy(f"dsl/kernels/{h}", d)
    st = mode == "LS"
    patch("dsl/kernels/rmsnorm.cpp", f"{d}/rmsnorm.cpp", [28, 50, 51], [33, 52, 57], st)
    patch("dsl/kernels/layernorm.cpp", f"{d}/layernorm.cpp", [27], [34], st)
    patch("dsl/kernels/swiglu.cpp", f"{d}/swiglu.cpp", [26, 27, 47, 48], [28, 54], st)
    patch("dsl/kernels/rope.cpp", f"{d}/rope.cpp", [45, 46, 153, 154], [47, 48, 155, 156], st)
