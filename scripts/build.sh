#!/usr/bin/env bash
# Configures and builds Tessel into ${TESSEL_BUILD_DIR:-build} (Release, Ninja).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSEL_BUILD_DIR:-$root/build}
if [[ ! -f $build/build.ninja ]]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
jobs=${TESSEL_JOBS:-$(nproc)}
start=$(date +%s)
ninja -C "$build" -j "$jobs" | grep -v '^\[' || true
test "${PIPESTATUS[0]}" -eq 0
echo "build: done in $(( $(date +%s) - start )) s ($build)"
