#!/usr/bin/env bash
# quack_stage.sh DEST (here, with network): QuACK 0.6.5 and nvidia-cutlass-dsl 4.8.1 for the GPU
# machine, which has no network, in two parts that each leave room in a call's carry for other
# work. The cu13 wheel (92 MB) holds two large libraries; they travel xz-compressed: the 193 MB
# _cutlass_ir library (50 MB) in two pieces, one per part. DEST/part1 (33 MB): the first 33 MB
# piece, room for about 11 MB of other work beside it; DEST/part2 (40 MB): the second piece, the
# runtime library (13 MB), the rest of that wheel and the other wheels, and install.sh.
# The device tool refused a call whose carry was 45.8 MB beside the 17.6 MB tree as over its
# 64 MiB (it counts more than the files' bytes), so each part with what travels beside it stays
# under about 44 MB (results/2026-12-07-h100-s66). On the machine, while it stays warm: part 1's
# call runs `part1/keep.sh` (copies it to /tmp/quack-part1), part 2's call runs
# `part2/install.sh`, which joins the pieces and installs everything into /tmp/qk; then
# PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages python3 quack_reference.py. The xz
# step takes about 2.5 minutes on 2 cores.
set -euo pipefail
dest=${1:?usage: quack_stage.sh DEST}
rm -rf "$dest" && mkdir -p "$dest/part1" "$dest/part2" "$dest/tmp"
dest=$(cd "$dest" && pwd) # absolute: a step below runs in another directory
tmp=$dest/tmp
pip download -q --no-deps --python-version 3.12 --platform manylinux_2_28_x86_64 \
  --only-binary=:all: -d "$tmp" quack-kernels==0.6.5 nvidia-cutlass-dsl==4.8.1 \
  nvidia-cutlass-dsl-libs-base==4.8.1 nvidia-cutlass-dsl-libs-core==4.8.1 \
  nvidia-cutlass-dsl-libs-cu13==4.8.1 'apache-tvm-ffi<0.2,>=0.1.6' torch-c-dlpack-ext einops
ir=nvidia_cutlass_dsl/dsl_packages/cutlass/_mlir/_mlir_libs/_cutlass_ir.cu13.cpython-312-x86_64-linux-gnu.so
rt=nvidia_cutlass_dsl/cu13/lib/libcute_dsl_runtime.so
mkdir -p "$tmp/cu13" && (cd "$tmp/cu13" && python3 -m zipfile -e "$tmp"/nvidia_cutlass_dsl_libs_cu13-*.whl .)
xz -9 -T0 -c "$tmp/cu13/$ir" >"$tmp/ir.so.xz"
head -c 33000000 "$tmp/ir.so.xz" >"$dest/part1/ir.so.xz.00"
tail -c +33000001 "$tmp/ir.so.xz" >"$dest/part2/ir.so.xz.01" && rm "$tmp/ir.so.xz"
xz -9 -T0 -c "$tmp/cu13/$rt" >"$dest/part2/rt.so.xz"
rm "$tmp/cu13/$ir" "$tmp/cu13/$rt"
tar czf "$dest/part2/cu13_rest.tgz" -C "$tmp/cu13" .
rm "$tmp"/nvidia_cutlass_dsl_libs_cu13-*.whl
mv "$tmp"/*.whl "$dest/part2/"
rm -rf "$tmp"
cat >"$dest/part1/keep.sh" <<'SH'
#!/usr/bin/env bash
# The first part of QuACK's libraries, kept in /tmp while the machine stays warm.
mkdir -p /tmp/quack-part1 && cp "$(dirname "$0")"/*.xz* /tmp/quack-part1/
SH
cat >"$dest/part2/install.sh" <<'SH'
#!/usr/bin/env bash
# QuACK and nvidia-cutlass-dsl into /tmp/qk. The wheels first (pip refuses a --target whose
# package directory exists), then the cu13 wheel's files and its two libraries over them.
set -euo pipefail
cd "$(dirname "$0")"
[[ -f /tmp/quack-part1/ir.so.xz.00 ]] || { echo "install.sh: run part1/keep.sh first (same machine)" >&2; exit 1; }
cat /tmp/quack-part1/ir.so.xz.00 ir.so.xz.01 >/tmp/quack-part1/ir.so.xz
rm -rf /tmp/qk && pip install -q --no-deps --target /tmp/qk ./*.whl
tar xzf cu13_rest.tgz -C /tmp/qk
xz -dc /tmp/quack-part1/ir.so.xz >/tmp/qk/nvidia_cutlass_dsl/dsl_packages/cutlass/_mlir/_mlir_libs/_cutlass_ir.cu13.cpython-312-x86_64-linux-gnu.so
xz -dc rt.so.xz >/tmp/qk/nvidia_cutlass_dsl/cu13/lib/libcute_dsl_runtime.so
PYTHONPATH=/tmp/qk:/tmp/qk/nvidia_cutlass_dsl/dsl_packages python3 -c "import quack; print('quack', quack.__file__)"
SH
chmod +x "$dest/part1/keep.sh" "$dest/part2/install.sh"
du -sh "$dest/part1" "$dest/part2"
