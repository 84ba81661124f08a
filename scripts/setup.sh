#!/usr/bin/env bash
# Installs what Tessel builds against, from Debian 12's own archive, when it is missing:
# LLVM/MLIR 19, lit/FileCheck, lld, fmt, nlohmann-json, CLI11, GoogleTest, CMake, Ninja, ccache,
# clang-format (the format check), AMD device libraries, NumPy (the documented .npy workflows,
# which scripts/doc-test.py runs).
set -euo pipefail
pkgs=(cmake ninja-build g++ python3 python3-numpy ccache git
      llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools lld-19
      libfmt-dev libgtest-dev nlohmann-json3-dev libcli11-dev rocm-device-libs zlib1g-dev libzstd-dev
      clang-format-19)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  sudo=""; [[ $(id -u) -ne 0 ]] && sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "setup: toolchain ready (LLVM $(/usr/lib/llvm-19/bin/llvm-config --version))"
