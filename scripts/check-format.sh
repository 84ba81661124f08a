#!/usr/bin/env bash
# check-format.sh [--fix]: clang-format-19 (.clang-format: LLVM style, 100 columns) over the
# tracked C++ sources. Lit inputs and library kernels, whose tests check line numbers, opt out
# through their own .clang-format (DisableFormat). Without --fix it changes nothing and fails,
# listing the files, when one is not formatted.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
fmt=${CLANG_FORMAT:-clang-format-19}
command -v "$fmt" >/dev/null || { echo "check-format: $fmt not found (scripts/setup.sh installs it)"; exit 1; }
mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -vE '^(test/(dsl|tools|kernels)|dsl/kernels|examples)/')
if [[ ${1:-} == --fix ]]; then
  "$fmt" -i "${files[@]}"
  exit
fi
bad=()
for f in "${files[@]}"; do
  "$fmt" --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
  echo "check-format: ${#bad[@]} file(s) not formatted (scripts/check-format.sh --fix):"
  printf '  %s\n' "${bad[@]}"
  exit 1
fi
echo "check-format: ${#files[@]} files formatted"
