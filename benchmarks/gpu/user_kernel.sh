#!/usr/bin/env bash
# user_kernel.sh (in a directory made by prepare.sh, on a GPU machine): a kernel that is not in
# the library (examples/residual_gate.cpp, compiled by prepare.sh into user/) checked and timed
# the way README's "Your own kernel" says: inputs and a float64 reference written as .npy files
# (here by PyTorch: bf16 inputs saved exactly as float32), then tessel-run-gpu's raw mode with
# --expect and --bench; a deliberately wrong reference must FAIL. Then the same operation in
# PyTorch eager (bf16) and torch.compile for comparison, timed with triton.testing.do_bench.
# N elements (default 10^7).
set -uo pipefail
cd "$(dirname "$0")"
n=${N:-10000000}
mkdir -p user/data
python3 - "$n" <<'PY' || exit 1
import sys, numpy as np, torch
n = int(sys.argv[1])
torch.manual_seed(0)
r, g, x = (torch.randn(n, dtype=torch.bfloat16) for _ in range(3))
for name, t in (("residual", r), ("gate", g), ("x", x)):
    np.save(f"user/data/{name}.npy", t.float().numpy())
ref = r.double() + torch.tanh(g.double()) * x.double()
np.save("user/data/ref.npy", ref.numpy())
# A wrong formula (sigmoid for tanh) must fail. (One element off by 1.0 passes the relative
# error norm over all 10^7 elements, as the library's problems use; --atol/--rtol catch it.)
wrong = r.double() + torch.sigmoid(g.double()) * x.double()
np.save("user/data/wrong.npy", wrong.numpy())
PY
v=$(ls user/residual_gate__bf16__*__div8.json | head -1)
args=(--grid $(((n + 2047) / 2048)) --arg "out@bf16[$n]" --arg residual@bf16:user/data/residual.npy
      --arg gate@bf16:user/data/gate.npy --arg x@bf16:user/data/x.npy --arg "n@i64=$n")
echo "== $v, n = $n: against the float64 reference, then --bench"
./tessel-run-gpu "$v" --target=cuda "${args[@]}" --expect out=user/data/ref.npy --bench --reps 100
rc=$?
echo "exit $rc"
echo "== against the reference of a wrong formula, sigmoid for tanh (must FAIL, non-zero exit)"
./tessel-run-gpu "$v" --target=cuda "${args[@]}" --expect out=user/data/wrong.npy
echo "exit $? (expected 1)"
python3 - "$n" <<'PY'
import sys, torch, triton
n = int(sys.argv[1])
r, g, x = (torch.randn(n, dtype=torch.bfloat16, device="cuda") for _ in range(3))
eager = lambda: r + torch.tanh(g) * x
compiled = torch.compile(lambda r, g, x: (r.float() + torch.tanh(g.float()) * x.float()).bfloat16())
compiled(r, g, x)
for name, fn in (("pytorch eager", eager), ("torch.compile", lambda: compiled(r, g, x))):
    ms = triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median")
    print(f"{name:14s}: median {ms * 1e3:.1f} us, {4 * 2 * n / ms / 1e6:.0f} GB/s")
PY
exit $rc
