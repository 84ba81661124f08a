#!/usr/bin/env bash
# The main job: set up, build, compile the kernel library (dsl/kernels) for every target --
# the interpreter, cuda:sm_80, sm_86, sm_89, sm_90 and sm_90a (cubin, or PTX without ptxas),
# hip:gfx90a, gfx942 and gfx1100 (hsaco) -- then run each kernel on the GPU when one is present,
# else on the interpreter, verified against its double-precision reference by tessel-run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSEL_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
out="$build/main-kernels"
rm -rf "$out" && mkdir -p "$out"

cuda_emit=cubin
ptxas=$(command -v ptxas || true)
[[ -z $ptxas && -x ${CUDA_HOME:-/usr/local/cuda}/bin/ptxas ]] && ptxas=${CUDA_HOME:-/usr/local/cuda}/bin/ptxas
[[ -z $ptxas && -z ${TESSEL_PTXAS:-} ]] && { cuda_emit=ptx; echo "main: ptxas not found: cuda variants stop at PTX"; }
cuda_targets=(cuda:sm_90a cuda:sm_90 cuda:sm_89 cuda:sm_86 cuda:sm_80)
hip_targets=(hip:gfx942 hip:gfx90a hip:gfx1100)
declare -A emit=([interpreter]=tile)
for t in "${cuda_targets[@]}"; do emit[$t]=tile,$cuda_emit; done
for t in "${hip_targets[@]}"; do emit[$t]=tile,hsaco; done
targets=(interpreter "${cuda_targets[@]}" "${hip_targets[@]}")
# Math in the NVIDIA kernels links CUDA's libdevice; without a CUDA toolkit skip that target.
libdevice=${TESSEL_LIBDEVICE:-${CUDA_HOME:-/usr/local/cuda}/nvvm/libdevice/libdevice.10.bc}
if [[ ! -f $libdevice ]]; then
  echo "main: CUDA's libdevice not found ($libdevice): skipping the cuda targets"
  targets=(interpreter "${hip_targets[@]}")
fi
for target in "${targets[@]}"; do
  dir="$out/${target/:/-}"
  n=0
  for f in "$root"/dsl/kernels/*.cpp; do
    # stderr to a log: the f32 GEMM's FMA-fallback remarks (tesselc still fails on errors).
    "$build/bin/tesselc" "$f" --target="$target" --emit="${emit[$target]}" -o "$dir" >/dev/null \
      2>"$dir.log" || { cat "$dir.log"; exit 1; }
  done
  n=$(ls "$dir"/*.json | wc -l)
  echo "main: compiled $n kernel variants for $target (${emit[$target]})"
done

if [[ -d $out/cuda-sm_90a && $cuda_emit == cubin ]] && command -v nvidia-smi >/dev/null 2>&1 &&
   nvidia-smi -L >/dev/null 2>&1; then
  target=cuda dir="$out/cuda-sm_90a"
  echo "main: GPU found: running the kernels on it"
else
  target=interpreter dir="$out/interpreter"
  echo "main: no GPU found: running on the interpreter"
fi

# kernel, dtype ("-": the kernel has one), shape (run with the first config in name order)
kernels=(
  "vector_add bf16 1000003" "softmax bf16 1823x781" "softmax_looped bf16 300x10007"
  "rmsnorm bf16 512x1000" "add_rmsnorm bf16 512x1000" "layernorm f32 512x1000"
  "swiglu bf16 256x14336" "geglu bf16 256x14336" "rope bf16 2x8x2x128x64"
  "cross_entropy bf16 64x32000" "cross_entropy_backward bf16 64x32000"
  "gemm f16 512x512x512" "gemm_block_ptr f16 512x512x512" "gemm_residual bf16 512x512x512"
  "gemm_swiglu bf16 512x512x512" "cumsum_looped bf16 257x3001" "moe_routing - 65536x60"
  "top_k_top_p_mask bf16 64x32000"
)
failed=0
for k in "${kernels[@]}"; do
  read -r kernel dtype shape <<<"$k"
  prefix="${kernel}__"
  [[ $dtype != - ]] && prefix+="${dtype}__"
  json=$(ls "$dir/$prefix"*.json 2>/dev/null | grep -v '__div8' | head -1 || true)
  printf 'main: %-23s ' "$kernel"
  if [[ -z $json ]]; then
    echo "not compiled for $target (skipped)"; continue
  fi
  "$build/bin/tessel-run" "$json" --target "$target" --shape "$shape" --quiet ||
    failed=$((failed + 1))
done
if ((failed)); then
  echo "main: $failed kernel(s) FAILED"
  exit 1
fi
echo "main: done, every kernel passed on the $target"
