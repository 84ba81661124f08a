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
# ninja's own status decides (grep only hides progress lines and may match nothing).
set +e
ninja -C "$build" -j "$jobs" | grep -v '^\['
rc=${PIPESTATUS[0]}
set -e
[[ $rc -eq 0 ]] || { echo "build: ninja failed ($rc)"; exit "$rc"; }
echo "build: done in $(( $(date +%s) - start )) s ($build)"
