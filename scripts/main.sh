#!/usr/bin/env bash
# The main job: set up, build, then compile and run Tessel's example kernel.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${TESSEL_BUILD_DIR:-$root/build}
"$root/scripts/setup.sh"
"$root/scripts/build.sh"
echo "main: tile IR of examples/vector_add.mlir after canonicalize + cse:"
"$build/bin/tessel-opt" "$root/examples/vector_add.mlir" --canonicalize --cse
echo "main: done"
