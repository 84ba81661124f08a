#!/usr/bin/env bash
# tune_gemm.sh DEST: tune_prepare.sh's GEMM half alone (gemm_block_ptr through its __nn TMA twin
# at issue 10's square rows), for the device.
set -euo pipefail
root=/work/main; dest=$1; build=$root/build
rm -rf "$dest" && mkdir -p "$dest/bin" "$dest/logs"
nn=--twin=nn:stride_ak=1,stride_bn=1,stride_cn=1,N%8,K%8,stride_am%8,stride_bk%8,stride_cm%8
run() { # run DTYPE SHAPE...
  local dt=$1; shift; local shapes=(); for s in "$@"; do shapes+=(--shape "$s"); done
  /usr/bin/time -f "gemm_block_ptr $dt: %e s wall" "$build/bin/tessel-tune" "$root/dsl/kernels/gemm.cpp" \
    -k gemm_block_ptr --dtype=$dt "${shapes[@]}" "$nn" --target=cuda:sm_90a --emit=cubin \
    --compile-only -o "$dest/tune" -v > "$dest/logs/gemm_block_ptr_$dt.log" 2>&1
  grep -E "space of|compiled [0-9]+ variants|wall" "$dest/logs/gemm_block_ptr_$dt.log"
}
run bf16 4096x4096x4096 8192x8192x8192
run f16 1024x1024x2048
cp "$build/bin/tessel-tune-gpu" "$dest/bin/"
cat > "$dest/tune.sh" <<'SH'
#!/usr/bin/env bash
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec "$here/bin/tessel-tune-gpu" "$here/tune" --cache "$here/tuning.json" "$@"
SH
chmod +x "$dest/tune.sh"
echo "$(find "$dest/tune" -name '*.cubin' | wc -l) cubins, $(du -sh "$dest" | cut -f1)"
