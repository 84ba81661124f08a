#!/usr/bin/env bash
# The main job: set up, build, then compile and run Tessel's kernels: on the GPU when one is
# present, else on the interpreter, each verified against its double-precision reference by
# tessel-run. The kernels are dsl/kernels compiled by tesselc when the build has it, else the
# hand-written tile-IR templates of test/kernels/Inputs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSEL_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
echo "main: tile IR of examples/vector_add.mlir after canonicalize + cse:"
"$build/bin/tessel-opt" "$root/examples/vector_add.mlir" --canonicalize --cse

if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1 &&
   "$build/bin/tessel-run" --list-targets | grep -q '^cuda:'; then
  target=cuda
  echo "main: GPU found: running the kernels on it"
else
  target=interpreter
  echo "main: no GPU found: running on the interpreter"
fi

out="$build/main-kernels"
mkdir -p "$out"
failed=0

if [[ -x $build/bin/tesselc && -d $root/dsl/kernels ]]; then
  # The kernel library: compile dsl/kernels with tesselc, run one variant of each kernel.
  echo "main: compiling dsl/kernels with tesselc"
  for f in "$root"/dsl/kernels/*.cpp; do
    "$build/bin/tesselc" "$f" -o "$out/dsl/" >/dev/null
  done
  # kernel, dtype, shape (for its first config in name order)
  kernels=(
    "vector_add bf16 1000003" "softmax bf16 1823x781" "softmax_looped bf16 300x10007"
    "rmsnorm bf16 512x1000" "add_rmsnorm bf16 512x1000" "layernorm f32 512x1000"
    "swiglu bf16 256x14336" "geglu bf16 256x14336" "rope bf16 2x8x2x128x64"
    "cross_entropy bf16 64x32000" "cross_entropy_backward bf16 64x32000"
    "gemm f16 512x512x512"
  )
  for k in "${kernels[@]}"; do
    read -r kernel dtype shape <<<"$k"
    json=$(ls "$out/dsl/${kernel}__${dtype}__"*.json 2>/dev/null | head -1)
    printf 'main: %-23s ' "$kernel"
    if [[ -z $json ]]; then
      echo "no variant compiled"; failed=$((failed + 1)); continue
    fi
    "$build/bin/tessel-run" "$json" --target "$target" --shape "$shape" --quiet ||
      failed=$((failed + 1))
  done
else
  # Until the DSL is built: the hand-written tile-IR templates of test/kernels/Inputs.
  # kernel template, problem, shape, dtype, template parameters
  kernels=(
    "vector_add vector_add 1000003 f32 BLK=1024"
    "softmax softmax 1823x781 bf16 BLK=256"
    "rmsnorm rmsnorm 512x4096 bf16 BLK=1024"
    "add_rmsnorm add_rmsnorm 512x4096 bf16 BLK=1024"
    "layernorm layernorm 512x1536 f32 BLK=2048"
    "swiglu swiglu 256x14336 bf16 BLK=1024"
    "geglu geglu 256x14336 bf16 BLK=1024"
    "rope rope 2x32x8x128x128 bf16 HLF=64 BH=32"
    "cross_entropy cross_entropy 64x32000 bf16 BLK=1024"
    "cross_entropy_backward cross_entropy_backward 64x32000 bf16 BLK=1024 REDN=1 REDS=mean"
    "gemm gemm 512x512x512 f16 BM=64 BN=64 BK=32 GM=8 ACTN=1 ACTS=relu BIAS=1"
  )
  for k in "${kernels[@]}"; do
    read -r template problem shape dtype params <<<"$k"
    case $dtype in
      f32) casts="arith.bitcast arith.bitcast" ;;
      *) casts="arith.extf arith.truncf" ;;
    esac
    # shellcheck disable=SC2086
    sh "$root/test/kernels/instantiate.sh" "$dtype" $casts $params \
      < "$root/test/kernels/Inputs/$template.mlir" > "$out/$template.$dtype.mlir"
    printf 'main: %-23s ' "$template"
    "$build/bin/tessel-run" "$out/$template.$dtype.mlir" --target "$target" --problem "$problem" \
      --shape "$shape" --dtype "$dtype" --quiet || failed=$((failed + 1))
  done
fi
if ((failed)); then
  echo "main: $failed kernel(s) FAILED"
  exit 1
fi
echo "main: done, every kernel passed on the $target"
