#!/usr/bin/env bash
# stage.sh DEST [rows|gemm] (here, with network): what the acceptance run of issues 10-12 needs
# on a GPU machine without LLVM, cut into carries that each fit the device tool's 64 MiB beside
# the tracked tree (about 18 MB). One directory per call, each with its script:
#
#   carry                      command                    for
#   DEST/rows + DEST/q1        bash DEST/rows/rows.sh     issue 11: the row kernels tuned, timed
#   DEST/q2                    bash DEST/q2/peers.sh      issue 11: QuACK, Triton, eager, compile
#   DEST/ops                   bash DEST/ops/ops.sh       issue 12: tessel.ops, Liger, compile
#   DEST/gemm                  bash DEST/gemm/gemm.sh     issue 10: the GEMM rows
#   DEST/gemm                  bash DEST/gemm/suite.sh    issue 10: the LLM suite
#
# Each fits one 600 s command and prints a short table last; its files come back as one tarball
# under $OUT. peers.sh must run on rows.sh's machine while it is warm (QuACK's two halves meet in
# /tmp; q1 and q2 together exceed one carry, so on another machine peers.sh has no QuACK
# column). ops.sh and peers.sh take rows.sh's tuning cache, tuned variants and tuned rows from
# /tmp/acc on that machine; on another, from rows.sh's tarball: its tuning.json copied into
# DEST/ops (with DEST/rows carried beside) and its tuned_rows.txt into DEST/q2. Without them
# they run untuned and say so. The first run's sizes and walls: results/2026-12-07-h100-s73.
#
# `rows` stages rows, q1 and q2 (about 7 minutes on 2 cores after the build); `gemm` then ops
# and gemm (about 20 minutes: prepare.sh compiles every GEMM variant); no argument: both.
# REUSE=1 keeps what an earlier run compiled (DEST/all, DEST/t, DEST/g), for a restage without
# compiler changes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
dest=${1:?usage: stage.sh DEST [rows|gemm]}
part=${2:-all}
mkdir -p "$dest" && dest=$(cd "$dest" && pwd)
build=${TESSEL_BUILD_DIR:-$root/build}
here=$root/benchmarks/gpu/acceptance
gpu=$root/benchmarks/gpu
log=$dest/logs && mkdir -p "$log"
t0=$SECONDS
step() { echo "stage: $1 ($((SECONDS - t0)) s)"; }
# pack DIR: DIR's files but its scripts into DIR/payload.tgz, which the call's script unpacks:
# a third of the bytes in the carry, and one file instead of hundreds.
pack() {
  local d=$1
  (cd "$d" && find . -mindepth 1 -maxdepth 1 ! -name '*.sh' ! -name payload.tgz -printf '%P\n' |
    tar czf payload.tgz -T - --remove-files)
}
rows="rope rope_qk softmax softmax_looped rmsnorm add_rmsnorm layernorm cross_entropy swiglu vector_add"
ops="add_rmsnorm_out add_rmsnorm_backward geglu geglu_backward layernorm_backward rmsnorm_backward rope_flat rope_seq_out swiglu_backward"
"$root/scripts/build.sh" >/dev/null

if [[ $part != gemm ]]; then
  # The row kernels' and the ops' tuning spaces at the benchmark shapes (tune_prepare.sh).
  if [[ ${REUSE:-0} != 1 || ! -d $dest/t/tune ]]; then
    "$gpu/tune_prepare.sh" "$dest/t" --only "$(tr ' ' , <<<"$rows $ops")" >"$log/tune_rows.log" 2>&1
    step "$(tail -1 "$log/tune_rows.log" | cut -c1-90)"
  fi
  t_fresh=1
  # rows: the row kernels' spaces, the tuner and the runner, the C++ launcher example, and
  # layernorm's configs in every dtype for odd shapes (its bf16 order changed in session 72).
  r=$dest/rows && rm -rf "$r" && mkdir -p "$r/tune" "$r/bin" "$r/odd" "$r/ex/kernels"
  for k in $rows; do cp -r "$dest/t/tune/${k}__bf16" "$r/tune/"; done
  cp "$build/bin/tessel-tune-gpu" "$r/bin/"
  cp "$build/bin/tessel-run-gpu" "$gpu/tuned_rows.py" "$here/rows.sh" "$r/"
  for dt in f32 f16 bf16; do
    for cfg in "1024 1" "1024 2" "1024 4" "1024 8" "2048 2" "2048 4" "4096 4" "4096 8" "4096 16" "16384 16"; do
      set -- $cfg
      "$build/bin/tesselc" "$root/dsl/kernels/layernorm.cpp" -k layernorm --dtype=$dt -D BLOCK=$1 \
        -D num_warps=$2 --target=cuda:sm_90a --emit=cubin -o "$r/odd" >/dev/null
    done
  done
  rm -rf "$dest/ex-build"
  cmake -S "$root/examples/tuned_softmax" -B "$dest/ex-build" -G Ninja -DTESSEL_BUILD="$build" \
    >"$log/example.log" 2>&1
  cmake --build "$dest/ex-build" >>"$log/example.log" 2>&1
  cp "$dest"/ex-build/{tuned_softmax,libtessel_launcher.so} "$r/ex/"
  cp "$dest"/ex-build/kernels/*.{json,cubin} "$r/ex/kernels/"
  pack "$r"
  step "rows: $(du -sh "$r" | cut -f1)"
  # q1, q2: QuACK 0.6.5 and its CuTe DSL in two halves (quack_stage.sh); q2 also holds the peers'
  # scripts: the Triton anchor without its GEMM part, QuACK's anchor, table.py.
  [[ -f $dest/q/part2/install.sh ]] || "$gpu/quack_stage.sh" "$dest/q" >"$log/quack.log" 2>&1
  rm -rf "$dest/q1" "$dest/q2"
  cp -r "$dest/q/part1" "$dest/q1"
  cp -r "$dest/q/part2" "$dest/q2"
  python3 "$gpu/anchor_split.py" rows "$root/../shared/anchors/triton_reference.py" "$dest/q2/triton_rows.py"
  cp "$root/../shared/anchors/quack_reference.py" "$gpu/table.py" "$here/peers.sh" "$dest/q2/"
  step "q1 $(du -sh "$dest/q1" | cut -f1), q2 $(du -sh "$dest/q2" | cut -f1)"
fi

if [[ $part != rows ]]; then
  # The library, its GEMM variants, the scripts and the Python package (prepare.sh); the LLM
  # suite's tuning spaces.
  # REUSE=1: DEST/all, DEST/t and DEST/g as an earlier run left them (the same compiler only).
  if [[ ${REUSE:-0} != 1 || ! -d $dest/all/kernels ]]; then
    PREPARE_GEMM=1 "$gpu/prepare.sh" "$dest/all" >"$log/prepare.log" 2>&1
    rm -f "$dest"/all/kernels/*.mlir
    step "$(tail -1 "$log/prepare.log")"
  fi
  [[ ${t_fresh:-0} == 1 || (${REUSE:-0} == 1 && -d $dest/t/tune) ]] ||
    "$gpu/tune_prepare.sh" "$dest/t" --only "$(tr ' ' , <<<"$rows $ops")" >"$log/tune_rows.log" 2>&1
  if [[ ${REUSE:-0} != 1 || ! -d $dest/g/tune ]]; then
    "$gpu/tune_prepare.sh" "$dest/g" --only gemm_split_k,gemm_block_ptr,gemm_persistent \
      >"$log/tune_gemm.log" 2>&1
    step "$(tail -1 "$log/tune_gemm.log" | cut -c1-90)"
  fi
  # ops: the library's kernels but the GEMMs torch_ops.py never launches, the ops' other spaces,
  # the package, torch_ops.py and its helpers, verify.sh and the cases, Liger-Kernel's wheel.
  o=$dest/ops && rm -rf "$o" && mkdir -p "$o/kernels" "$o/tune"
  (cd "$dest/all" && cp -r bin tessel-run-gpu python verify.sh torch_ops.py flce_rounds.py \
    llm_shapes.py flushed.py cases "$o/")
  find "$dest/all/kernels" -maxdepth 1 -type f ! -name 'gemm*' -exec cp -t "$o/kernels/" {} +
  (cd "$dest/all/kernels" &&
    cp gemm_block_ptr__bf16* gemm_block_ptr__f32* gemm_split_k__* gemm_ce_backward__* "$o/kernels/")
  for k in $ops; do cp -r "$dest/t/tune/${k}__bf16" "$o/tune/"; done
  ls "$dest"/whl/liger_kernel-0.8.5-*.whl >/dev/null 2>&1 ||
    pip download -q --no-deps liger-kernel==0.8.5 -d "$dest/whl"
  cp "$dest"/whl/liger_kernel-0.8.5-*.whl "$here/ops.sh" "$o/"
  pack "$o"
  step "ops: $(du -sh "$o" | cut -f1)"
  # gemm: prepare.sh's sm_90a GEMM variants, the suite's spaces, the benchmarks, the Triton GEMM,
  # the last H200 tuning cache of the suite (session 54's, run by session 64; the tuner extends it).
  m=$dest/gemm && rm -rf "$m" && mkdir -p "$m/kernels" "$m/tune"
  (cd "$dest/all" && cp -r bin tessel-run-gpu python verify.sh gemm_bench.py matmul_bench.py \
    llm_shapes.py flushed.py triton_gemm.py "$m/")
  cp "$dest"/all/kernels/gemm*.{json,cubin} "$m/kernels/"
  # Every space but the square bf16 rows' (tune/gemm_block_ptr__bf16), which no call tunes.
  find "$dest/g/tune" -mindepth 1 -maxdepth 1 ! -name gemm_block_ptr__bf16 -exec cp -r -t "$m/tune/" {} +
  cp "$gpu/results/2026-12-06-h200-s64/callE-llm-suite/tuning.json" "$m/tuning_h200.json"
  cp "$here/gemm.sh" "$here/suite.sh" "$here/cache_here.py" "$m/"
  pack "$m"
  step "gemm: $(du -sh "$m" | cut -f1)"
fi
du -sh --apparent-size "$dest"/{rows,q1,q2,ops,gemm} 2>/dev/null || true
