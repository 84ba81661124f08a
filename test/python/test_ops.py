"""Tests of the `tessel` Python package on the interpreter: tessel.ops forward and backward
against float64 NumPy references (relative error ||out - ref|| / ||ref||) on random inputs and
odd shapes, the documented exceptions, and, when torch is importable, the same ops on CPU
tensors with autograd through the torch.library custom ops. Run by test/python/ops.test;
prints one line per test and "python ops: N passed, M failed, K skipped".
"""

import contextlib
import json
import os
import sys
import traceback

import numpy as np

import tessel
from tessel import ops
from tessel._arrays import describe

try:
    import torch
except ImportError:
    torch = None

RNG = np.random.default_rng(12)
TOL = {"float32": 1e-5, "float16": 2e-3}


def rel(out, ref):
    out = np.asarray(out, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    den = np.linalg.norm(ref)
    return np.linalg.norm(out - ref) / (den if den else 1.0)


def close(out, ref, tol, what):
    e = rel(out, ref)
    assert e <= tol, f"{what}: relative error {e:.3g} > {tol:g}"


def randn(*shape, dtype=np.float32, scale=1.0):
    return (RNG.standard_normal(shape) * scale).astype(dtype)


@contextlib.contextmanager
def recorded(fn_name, what=lambda first: first):
    """Calls of tessel.kernels.<fn_name> (launch, choose) pass through and are recorded: yields
    the list of what(first argument) per call (launch: the variant; choose: the kernel name)."""
    from tessel import kernels
    calls, saved = [], getattr(kernels, fn_name)
    setattr(kernels, fn_name,
            lambda first, *a, **kw: (calls.append(what(first)), saved(first, *a, **kw))[1])
    try:
        yield calls
    finally:
        setattr(kernels, fn_name, saved)


def kernel_of(variant):
    return variant.meta["kernel"]


# ------------------------------------------------------------------ float64 references


def rms_ref(x, w, eps=1e-6):
    x = x.astype(np.float64)
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w.astype(np.float64)


def rms_bwd_ref(dy, x, w, eps=1e-6):
    x, dy, w = (a.astype(np.float64) for a in (x, dy, w))
    r = 1 / np.sqrt((x * x).mean(-1, keepdims=True) + eps)
    gw = dy * w
    dx = r * gw - x * r ** 3 * (gw * x).sum(-1, keepdims=True) / x.shape[-1]
    dw = (dy * x * r).reshape(-1, x.shape[-1]).sum(0)
    return dx, dw


def ln_ref(x, w, b, eps=1e-5):
    x = x.astype(np.float64)
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * w.astype(np.float64) + b.astype(np.float64)


def ln_bwd_ref(dy, x, w, eps=1e-5):
    x, dy, w = (a.astype(np.float64) for a in (x, dy, w))
    mu = x.mean(-1, keepdims=True)
    r = 1 / np.sqrt(((x - mu) ** 2).mean(-1, keepdims=True) + eps)
    xhat = (x - mu) * r
    g = dy * w
    dx = r * (g - g.mean(-1, keepdims=True) - xhat * (g * xhat).mean(-1, keepdims=True))
    h = x.shape[-1]
    return dx, (dy * xhat).reshape(-1, h).sum(0), dy.reshape(-1, h).sum(0)


def sig(g):
    return 1 / (1 + np.exp(-g))


def swiglu_ref(g, u):
    g, u = g.astype(np.float64), u.astype(np.float64)
    return g * sig(g) * u


def swiglu_bwd_ref(d, g, u):
    d, g, u = (a.astype(np.float64) for a in (d, g, u))
    s = sig(g)
    return d * u * s * (1 + g * (1 - s)), d * g * s


def ce_rows_ref(logits, target, ignore, eps=0.0, z=0.0):
    """Per-row loss (1 - eps) * (lse - x[t]) + eps * mean_j(lse - x[j]) + z * lse**2, 0 where
    ignored: the label-smoothed cross-entropy written as PyTorch defines it, (1 - eps) * nll +
    eps * the cross-entropy against the uniform distribution, plus the z-loss."""
    x = logits.astype(np.float64).reshape(-1, logits.shape[-1])
    t = target.reshape(-1)
    m = x.max(-1, keepdims=True)
    lse = (m + np.log(np.exp(x - m).sum(-1, keepdims=True)))[:, 0]
    valid = t != ignore
    picked = x[np.arange(len(t)), np.where(valid, t, 0)]
    uniform = (lse[:, None] - x).mean(-1)  # mean_j -log softmax(x)_j
    rows = (1 - eps) * (lse - picked) + eps * uniform + z * lse ** 2
    return np.where(valid, rows, 0.0), valid, x, lse


def ce_ref(logits, target, reduction, ignore=-100, eps=0.0, z=0.0):
    rows, valid, _, _ = ce_rows_ref(logits, target, ignore, eps, z)
    if reduction == "none":
        return rows.reshape(target.shape)
    return rows.sum() / valid.sum() if reduction == "mean" else rows.sum()


def ce_bwd_ref(dloss, logits, target, reduction, ignore=-100, eps=0.0, z=0.0):
    _, valid, x, lse = ce_rows_ref(logits, target, ignore)
    p = np.exp(x - lse[:, None]) * (1 + 2 * z * lse[:, None]) - eps / x.shape[-1]
    p[np.arange(len(valid)), np.where(valid, target.reshape(-1), 0)] -= 1 - eps
    g = np.asarray(dloss, dtype=np.float64).reshape(-1)
    if reduction == "mean":
        g = g / valid.sum()
    p *= g[:, None] if reduction == "none" else g[0]
    p[~valid] = 0
    return p.reshape(logits.shape)


# ------------------------------------------------------------------ tests on NumPy

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def shapes():
    return [(3, 5, 1000), (7, 4097), (1, 1), (2, 17)]


@test
def rms_norm_numpy():
    for dt in ("float32", "float16"):
        for shape in shapes():
            x = randn(*shape, dtype=dt)
            w = RNG.uniform(0.5, 1.5, shape[-1]).astype(dt)
            y = ops.rms_norm(x, w)
            assert y.shape == x.shape and y.dtype == x.dtype
            close(y, rms_ref(x, w), TOL[dt], f"rms_norm {dt} {shape}")
            out, rstd = ops.rms_norm_forward(x, w)
            xd = x.astype(np.float64)
            assert rstd.dtype == np.float32 and rstd.shape == shape[:-1], rstd.shape
            close(out, y, 0.0, f"rms_norm_forward {dt} {shape}")
            close(rstd, 1 / np.sqrt((xd * xd).mean(-1) + 1e-6), 1e-5, f"rms_norm rstd {shape}")


@test
def norms_short_rows_run_several_rows_per_program():
    # Rows of up to 512 columns take the *_rows kernels (ROWS rows per program or step), forward
    # and backward; row counts that leave the last step part empty, for each BLOCK of the
    # library's configs.
    from tessel import _common
    with recorded("launch", kernel_of) as launched:
        _short_rows_cases(_common, launched)
    assert _common._rows_variant("rmsnorm_rows", "f32", "cpu", 513) is None


def _short_rows_cases(_common, launched):
    for rows, cols in ((37, 100), (3, 512), (33, 64), (17, 250)):
        for kernel in ("rmsnorm_rows", "layernorm_rows", "rmsnorm_rows_backward",
                       "layernorm_rows_backward"):
            v = _common._rows_variant(kernel, "f32", "cpu", cols)
            assert v is not None and v.config["BLOCK"] >= cols, (kernel, cols, v)
        launched.clear()
        x = randn(rows, cols) + 1.0
        w = RNG.uniform(0.5, 1.5, cols).astype(np.float32)
        b = randn(cols)
        xd = x.astype(np.float64)
        out, rstd = ops.rms_norm_forward(x, w)
        close(out, rms_ref(x, w), 1e-5, f"rms_norm {rows}x{cols}")
        close(rstd, 1 / np.sqrt((xd * xd).mean(-1) + 1e-6), 1e-5, f"rms_norm rstd {rows}x{cols}")
        out, mean, rstd = ops.layer_norm_forward(x, w, b)
        mu = xd.mean(-1)
        close(out, ln_ref(x, w, b), 1e-5, f"layer_norm {rows}x{cols}")
        close(mean, mu, 1e-5, f"layer_norm mean {rows}x{cols}")
        close(rstd, 1 / np.sqrt(((xd - mu[..., None]) ** 2).mean(-1) + 1e-5), 1e-5,
              f"layer_norm rstd {rows}x{cols}")
        dy = randn(rows, cols)
        dx, dw = ops.rms_norm_backward(dy, x, w, ops.rms_norm_forward(x, w)[1])
        for got, want, what in zip((dx, dw), rms_bwd_ref(dy, x, w), ("dx", "dw")):
            close(got, want, 1e-5, f"rms_norm {what} {rows}x{cols}")
        dx, dw, db = ops.layer_norm_backward(dy, x, w, mean, rstd)
        for got, want, what in zip((dx, dw, db), ln_bwd_ref(dy, x, w), ("dx", "dw", "db")):
            close(got, want, 1e-5, f"layer_norm {what} {rows}x{cols}")
        assert {"rmsnorm_rows", "rmsnorm_rows_backward", "layernorm_rows",
                "layernorm_rows_backward"} <= set(launched), launched


@test
def tall_partial_sums_reduce_in_two_passes():
    # The short rows' backward leaves thousands of partial rows of few columns: summed in
    # groups of k rows first (f32), then the k group sums; the padding rows are zero.
    for programs, cols in ((1000, 16), (4096, 128), (300, 7), (8, 128)):
        k = ops._partial_group(programs, cols)
        assert (k > 1) == (programs >= 256), (programs, cols, k)
        x = np.zeros((1, cols), np.float32)
        partial = ops._partials(x, programs, cols)
        assert partial.shape[0] % k == 0 and not partial[programs:].any()
        partial[:programs] = randn(programs, cols)
        got = ops._reduce_partials(x, describe(x, "x"), partial, programs, cols)
        close(got, partial[:programs].astype(np.float64).sum(0), 1e-5,
              f"column sums of {programs}x{cols} (k = {k})")


@test
def rms_norm_wide_rows_use_the_looped_kernel():
    x = randn(3, 20000)
    w = RNG.uniform(0.5, 1.5, 20000).astype(np.float32)
    close(ops.rms_norm(x, w), rms_ref(x, w), 1e-5, "rms_norm 3x20000")


@test
def rms_norm_residual_numpy():
    # Rows a block holds run add_rmsnorm_out (the residual only read); 20000 columns, longer than
    # any block, a copy of the residual and add_rmsnorm_looped on it.
    with recorded("launch", kernel_of) as launched:
        for shape, kernel in (((3, 5, 1000), "add_rmsnorm_out"), ((7, 4097), "add_rmsnorm_out"),
                              ((2, 20000), "add_rmsnorm_looped")):
            x, res = randn(*shape), randn(*shape)
            keep = res.copy()
            w = RNG.uniform(0.5, 1.5, shape[-1]).astype(np.float32)
            launched.clear()
            y, s = ops.rms_norm(x, w, residual=res)
            assert launched == [kernel], f"{shape}: ran {launched}, expected {kernel}"
            s_ref = x.astype(np.float64) + res
            close(s, s_ref, 1e-6, f"residual sum {shape}")
            close(y, rms_ref(s_ref, w), 1e-5, f"add rms_norm {shape}")
            _, _, rstd = ops.rms_norm_forward(x, w, residual=res)
            close(rstd, 1 / np.sqrt((s_ref * s_ref).mean(-1) + 1e-6), 1e-5,
                  f"add rms_norm rstd {shape}")
            assert np.array_equal(res, keep), "rms_norm modified the caller's residual"
        # The miss (no add_rmsnorm_out block holds 20000 columns) is remembered, not looked up
        # again on every call.
        with recorded("choose") as asked:
            ops.rms_norm(x, w, residual=res)
        assert "add_rmsnorm_out" not in asked, f"asked again: {asked}"


@test
def rms_norm_backward_numpy():
    for dt in ("float32", "float16"):
        for shape in ((3, 5, 1000), (7, 4097), (2, 17), (300, 64)):
            # rms(x) = 3, far from 1, so that a lost factor r shows.
            x, dy = randn(*shape, dtype=dt, scale=3), randn(*shape, dtype=dt)
            w = RNG.uniform(0.5, 1.5, shape[-1]).astype(dt)
            dx, dw = ops.rms_norm_backward(dy, x, w, ops.rms_norm_forward(x, w)[1])
            rdx, rdw = rms_bwd_ref(dy, x, w)
            assert dx.shape == x.shape and dw.shape == w.shape and dx.dtype == x.dtype
            close(dx, rdx, TOL[dt], f"rms_norm dx {dt} {shape}")
            close(dw, rdw, TOL[dt], f"rms_norm dw {dt} {shape}")


@test
def rms_norm_backward_adds_the_residual_gradient_numpy():
    # add_rmsnorm's backward: dx = the norm's dx + ds in one kernel, for short rows (several per
    # step) and long ones, and past its blocks in two steps; ds random, so a kernel that dropped
    # it would be off by ds.
    with recorded("launch", kernel_of) as launched:
        for dt in ("float32", "float16"):
            for shape, kernel in (((3, 5, 100), "add_rmsnorm_rows_backward"),
                                  ((37, 250), "add_rmsnorm_rows_backward"),
                                  ((7, 1001), "add_rmsnorm_backward"),
                                  # Past the library's add_rmsnorm_backward blocks (8192):
                                  # rmsnorm_backward, then dx += ds.
                                  ((2, 9000), "rmsnorm_backward")):
                x, dy = randn(*shape, dtype=dt, scale=3), randn(*shape, dtype=dt)
                ds = randn(*shape, dtype=dt)
                w = RNG.uniform(0.5, 1.5, shape[-1]).astype(dt)
                rstd = ops.rms_norm_forward(x, w)[1]
                launched.clear()
                dx, dw = ops.rms_norm_backward(dy, x, w, rstd, ds)
                assert launched[0] == kernel, f"{shape}: ran {launched}, expected {kernel}"
                rdx, rdw = rms_bwd_ref(dy, x, w)
                assert dx.shape == x.shape and dx.dtype == x.dtype
                close(dx, rdx + ds.astype(np.float64), TOL[dt], f"add rms_norm dx {dt} {shape}")
                close(dw, rdw, TOL[dt], f"add rms_norm dw {dt} {shape}")
        raises(ValueError, lambda: ops.rms_norm_backward(dy, x, w, rstd, randn(7, 1000, dtype=dt)),
               "ds")
        # The miss past 8192 columns is remembered, not looked up again on every call.
        x, dy, ds = randn(2, 9000), randn(2, 9000), randn(2, 9000)
        w = RNG.uniform(0.5, 1.5, 9000).astype(np.float32)
        rstd = ops.rms_norm_forward(x, w)[1]
        ops.rms_norm_backward(dy, x, w, rstd, ds)
        with recorded("choose") as asked:
            ops.rms_norm_backward(dy, x, w, rstd, ds)
        assert "add_rmsnorm_backward" not in asked, f"asked again: {asked}"


@test
def tuning_cache_entries_choose_the_variant():
    # A tessel-tune entry for this interpreter (its device, driver "none", the variants'
    # compiler version) makes rms_norm run the entry's variant rather than the rule's, for one
    # row per program and for the several-rows kernel, swiglu for its bucket of n only, the
    # one-row backward, RoPE and matmul; an entry of another device, compiler or driver, one
    # whose variant is not compiled, and a file that is not a tuning cache leave the rule's
    # choice.
    import tempfile
    import warnings
    from tessel import _capi, kernels
    restore = contextlib.ExitStack()
    launched = restore.enter_context(recorded("launch", lambda v: v.name))
    old_env = os.environ.get("TESSEL_TUNING_CACHE")
    old_path = os.environ.get("TESSEL_KERNEL_PATH")
    tmp = tempfile.mkdtemp()
    path = os.path.join(tmp, "tuning.json")
    os.environ["TESSEL_TUNING_CACHE"] = path
    device = _capi.interp_device()
    assert device.startswith("CPU interpreter ("), device
    version = kernels.variants("rmsnorm", "f32", "cpu")[0].meta["compiler"]["version"]

    def entry(kernel, n_cols, variant, dev=device):
        return {"kernel": kernel, "dtype": "f32", "keys": {"n_cols": n_cols}, "device": dev,
                "driver": "none", "compiler": version, "target": "interpreter",
                "variant": variant, "config": {}, "ms": 1.0, "timed": 2,
                "when": "2026-12-04T00:00:00Z"}

    def write(entries, text=None):
        with open(path, "w") as fh:
            fh.write(text if text is not None else
                     json.dumps({"schema": "tessel-tuning-cache/1", "entries": entries}))
        kernels.refresh()  # choices made before are kept until then

    def ran(shape):
        x = randn(*shape)
        w = RNG.uniform(0.5, 1.5, shape[-1]).astype(np.float32)
        launched.clear()
        close(ops.rms_norm(x, w), rms_ref(x, w), 1e-5, f"rms_norm {shape} (tuned)")
        return launched[0]

    def ran_swiglu(n):
        g, u = randn(n), randn(n)
        launched.clear()
        close(ops.swiglu(g, u), swiglu_ref(g, u), 1e-5, f"swiglu {n} (tuned)")
        return launched[0]

    try:
        rule_wide, rule_short, rule_glu = ran((5, 1000)), ran((9, 100)), ran_swiglu(3000)
        wide = "rmsnorm__f32__BLOCK_4096__num_warps_8"
        short = "rmsnorm_rows__f32__ROWS_4__BLOCK_512__num_warps_2"
        glu = "swiglu__f32__BLOCK_4096__num_warps_8"
        assert wide != rule_wide and short != rule_short and glu != rule_glu, \
            (rule_wide, rule_short, rule_glu)
        glu_entry = entry("swiglu", 0, glu)
        glu_entry["keys"] = {"n": 4096}  # the element-wise space's key, n, bucketed
        write([entry("rmsnorm", 1024, wide), entry("rmsnorm_rows", 128, short), glu_entry])
        assert (ran((5, 1000)), ran((9, 100)), ran_swiglu(3000)) == (wide, short, glu)
        assert ran_swiglu(5000) == rule_glu  # another bucket
        # The one-row backward (before the programs-per-SM rule) and flat RoPE (keyed by the
        # sequence length), then RoPE by blocks of tokens (keyed by the head counts) for tables
        # in another dtype than q's.
        x, dy = randn(6, 1000), randn(6, 1000)
        w = RNG.uniform(0.5, 1.5, 1000).astype(np.float32)
        rstd = ops.rms_norm_forward(x, w)[1]
        q, k = randn(2, 4, 5, 128), randn(2, 2, 5, 128)
        cos, sin = randn(1, 5, 128), randn(1, 5, 128)

        def ran_backward_and_rope():
            launched.clear()
            ops.rms_norm_backward(dy, x, w, rstd)
            ops.rope(q, k, cos, sin)
            return launched[0], launched[-1]

        rule_bwd, rule_rope = ran_backward_and_rope()
        bwd = "rmsnorm_backward__f32__BLOCK_4096__num_warps_16"
        rope = "rope_flat__f32__HALF_64__BLOCK_S_8__num_warps_2"
        assert bwd != rule_bwd and rope != rule_rope, (rule_bwd, rule_rope)
        rope_entry = entry("rope_flat", 0, rope)
        rope_entry["keys"] = {"seq_len": 8}  # 5, bucketed
        write([entry("rmsnorm_backward", 1024, bwd), rope_entry])
        assert ran_backward_and_rope() == (bwd, rope)
        cos, sin = cos.astype(np.float16), sin.astype(np.float16)
        rule_rope = ran_backward_and_rope()[1]
        rope = "rope_seq_out__f32__HALF_64__BLOCK_S_16__num_warps_4"
        assert rope != rule_rope, rule_rope
        rope_entry = entry("rope_seq_out", 0, rope)
        rope_entry["keys"] = {"n_qh": 4, "n_kh": 2}
        write([rope_entry])
        assert ran_backward_and_rope()[1] == rope
        # matmul: gemm_block_ptr keyed by M, N and K.
        a, bm = randn(33, 20), randn(20, 17)

        def ran_matmul():
            launched.clear()
            close(ops.matmul(a, bm), a.astype(np.float64) @ bm, 1e-5, "matmul (tuned)")
            return launched[0]

        rule_mm = ran_matmul()
        mm = ("gemm_block_ptr__f32__BLOCK_M_64__BLOCK_N_64__BLOCK_K_64__GROUP_M_8__"
              "HAS_BIAS_false__ACT_none__num_warps_4__num_stages_4")
        assert mm != rule_mm, rule_mm
        mm_entry = entry("gemm_block_ptr", 0, mm)
        mm_entry["keys"] = {"M": 64, "N": 32, "K": 32}
        write([mm_entry])
        assert ran_matmul() == mm
        other_compiler = entry("rmsnorm_rows", 128, short)
        other_compiler["compiler"] = "0.0.1"
        other_driver = entry("swiglu", 0, glu)
        other_driver.update(keys={"n": 4096}, driver="CUDA 13.0")
        write([entry("rmsnorm", 1024, wide, dev="NVIDIA H200 (sm_90, 132 SMs)"),
               entry("rmsnorm_rows", 128, "rmsnorm_rows__f32__ROWS_3__BLOCK_512__num_warps_2"),
               other_compiler, other_driver])
        assert (ran((5, 1000)), ran((9, 100)), ran_swiglu(3000)) == \
            (rule_wide, rule_short, rule_glu)
        # An entry timed through a specialized twin (its key twin, a GEMM's layout) is not
        # the op's, which launches the variant or its __div8 twin; each twin's entry is kept.
        nt = entry("rmsnorm", 1024, wide)
        nt["twin"] = "nt"
        write([nt])
        assert ran((5, 1000)) == rule_wide
        plain = "rmsnorm__f32__BLOCK_16384__num_warps_16"
        write([nt, entry("rmsnorm", 1024, plain)])
        assert ran((5, 1000)) == plain
        found = lambda twin: kernels.tuned_entry("rmsnorm", "f32", "cpu", {"n_cols": 1000},
                                                 twin=twin)[0].name
        assert (found("nt"), found("")) == (wide, plain)
        assert len(list(kernels.tuned_entries("rmsnorm", "f32", "cpu", {"n_cols": 1000}))) == 2
        # A kernel directory first on the path whose variant records no tuning_keys (an older
        # compiler's): the keys come from the kernel's other variants.
        older = os.path.join(tmp, "older")
        os.makedirs(older)
        src = kernels.variants("rmsnorm", "f32", "cpu")
        base = next(v for v in src if v.name == wide)
        meta = dict(base.meta)
        meta.pop("tuning_keys")
        meta["artifacts"] = {"tile": os.path.join(os.path.dirname(base.path),
                                                  meta["artifacts"]["tile"])}
        with open(os.path.join(older, wide + ".json"), "w") as fh:
            json.dump(meta, fh)
        os.environ["TESSEL_KERNEL_PATH"] = older
        write([entry("rmsnorm", 1024, wide)])
        assert not kernels.variants("rmsnorm", "f32", "cpu")[0].meta.get("tuning_keys")
        assert ran((5, 1000)) == wide
        os.environ.pop("TESSEL_KERNEL_PATH")
        write([], text='{"schema": "tessel-tuning-cache/1", "entries": [')
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            assert ran((5, 1000)) == rule_wide
        assert any(path in str(c.message) for c in caught), [str(c.message) for c in caught]
    finally:
        restore.close()
        for name, value in (("TESSEL_TUNING_CACHE", old_env), ("TESSEL_KERNEL_PATH", old_path)):
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        kernels.refresh()


def directional_check(name, forward, backward, inputs, n_fixed=0):
    """gradcheck's test without f64 kernels: <u, J v> by central differences of the forward
    kernels against <J^T u, v> from the backward kernels, for random cotangents u of every
    output and random directions v of every input but the last n_fixed. forward(*inputs) and
    backward(us, *inputs) return lists (outputs; gradients of the varied inputs). f32 with
    h = 1e-2: the O(h^2) error and the forward's rounding (~1e-7 / h) stay near 1e-5 of the
    gradients' norm, so a tolerance of 1e-3 of it still fails a wrong term, factor or sign."""
    varied = inputs[:len(inputs) - n_fixed]
    outs = forward(*inputs)
    us = [randn(*np.shape(o)) for o in outs]
    vs = [randn(*a.shape) for a in varied]
    grads = backward(us, *inputs)
    assert len(grads) == len(vs), f"{name}: {len(grads)} gradients for {len(vs)} inputs"
    analytic = sum((np.asarray(g, np.float64) * v).sum() for g, v in zip(grads, vs))
    # <J^T u, v> over directions v ~ N(0, 1) spreads as the gradients' norm: the scale errors
    # are measured against, whatever this v's draw.
    size = np.sqrt(sum((np.asarray(g, np.float64) ** 2).sum() for g in grads))

    def pairing(step):
        moved = [a + np.float32(step) * v for a, v in zip(varied, vs)] + list(inputs[len(varied):])
        return sum((np.asarray(o, np.float64) * u).sum() for o, u in zip(forward(*moved), us))

    h = 1e-2
    numeric = (pairing(h) - pairing(-h)) / (2 * h)
    if os.environ.get("TESSEL_SHOW_DIFFERENCES"):
        print(f"  {name}: |difference| / scale {abs(numeric - analytic) / size:.2e}")
    assert abs(numeric - analytic) <= 1e-3 * size, \
        f"{name}: <u, J v> {numeric:.6g} by differences, {analytic:.6g} by the backward kernels"


@test
def backward_kernels_agree_with_finite_differences_of_the_forward():
    # The float64 references above repeat the backward formulas that the kernels implement;
    # this checks the backward kernels against the forward kernels instead, for rows several
    # to a program (37x100) and one to a program (5x1000).
    for rows, cols in ((37, 100), (5, 1000)):
        x = randn(rows, cols, scale=2) + 0.5
        w = RNG.uniform(0.5, 1.5, cols).astype(np.float32)
        b = randn(cols)
        r = randn(rows, cols)

        def rms_bwd(us, x, w):
            return ops.rms_norm_backward(us[0], x, w, ops.rms_norm_forward(x, w)[1])

        directional_check(f"rms_norm {rows}x{cols}", lambda x, w: [ops.rms_norm(x, w)], rms_bwd,
                          [x, w])

        def add_rms_bwd(us, x, r, w):
            _, s, rstd = ops.rms_norm_forward(x, w, residual=r)
            dx, dw = ops.rms_norm_backward(us[0], s, w, rstd, us[1])
            return [dx, dx, dw]

        directional_check(f"rms_norm + residual {rows}x{cols}",
                          lambda x, r, w: list(ops.rms_norm(x, w, residual=r)), add_rms_bwd,
                          [x, r, w])

        def ln_bwd(us, x, w, b):
            _, mean, rstd = ops.layer_norm_forward(x, w, b)
            return ops.layer_norm_backward(us[0], x, w, mean, rstd)

        directional_check(f"layer_norm {rows}x{cols}", lambda x, w, b: [ops.layer_norm(x, w, b)],
                          ln_bwd, [x, w, b])
    g, u = randn(3, 333), randn(3, 333)
    directional_check("swiglu", lambda g, u: [ops.swiglu(g, u)],
                      lambda us, g, u: ops.swiglu_backward(us[0], g, u), [g, u])
    for approx in ("none", "tanh"):
        directional_check(f"geglu {approx}", lambda g, u: [ops.geglu(g, u, approx)],
                          lambda us, g, u: ops.geglu_backward(us[0], g, u, approx), [g, u])
    q, k = randn(2, 4, 5, 64), randn(2, 2, 5, 64)
    cos, sin = randn(1, 5, 64), randn(1, 5, 64)
    directional_check("rope", lambda q, k, c, s: list(ops.rope(q, k, c, s)),
                      lambda us, q, k, c, s: list(ops.rope_backward(us[0], us[1], c, s)),
                      [q, k, cos, sin], n_fixed=2)
    logits = randn(9, 300, scale=2)
    target = RNG.integers(0, 300, 9)
    target[::4] = -100
    for red, eps, z in (("mean", 0.0, 0.0), ("sum", 0.1, 1e-3), ("none", 0.0, 1e-3)):
        def ce(l, red=red, eps=eps, z=z):
            return [ops.cross_entropy(l, target, red, label_smoothing=eps, z_loss=z)]

        def ce_bwd(us, l, red=red, eps=eps, z=z):
            dloss = us[0] if red == "none" else float(us[0])
            return [ops.cross_entropy_backward(dloss, l, target, red, label_smoothing=eps,
                                               z_loss=z)]

        directional_check(f"cross_entropy {red} label_smoothing={eps} z_loss={z}", ce, ce_bwd,
                          [logits])


@test
def programs_per_sm_counts_the_scarcest_resource():
    from tessel._common import programs_per_sm
    assert programs_per_sm(114, 8) == 2    # 120 registers (the 256-per-warp unit): 30720 each
    assert programs_per_sm(162, 8) == 1    # 168 registers: 43008 per program
    assert programs_per_sm(64, 16) == 2    # registers and threads both allow 2
    assert programs_per_sm(64, 32) == 1
    assert programs_per_sm(32, 4) == 16    # threads: 2048 / 128
    assert programs_per_sm(16, 1) == 32    # the SM's block limit
    assert programs_per_sm(None, 4) == 16  # registers unknown: not counted
    assert programs_per_sm(32, 4, shared_bytes=100 * 1024) == 2
    assert programs_per_sm(255, 32) == 1   # a program that launches fits alone


def fake_variant(block, warps, registers, twin_registers=None, spill=0):
    from tessel import kernels
    meta = {"variant": f"k__BLOCK_{block}__num_warps_{warps}", "kernel": "k",
            "target": "cuda:sm_90a", "num_warps": warps, "threads_per_warp": 32,
            "config": {"BLOCK": block, "num_warps": warps},
            "args": [{"name": "n_cols", "kind": "scalar", "type": "i64", "divisibility": 1}],
            "resources": {"registers": registers, "shared_bytes": 64, "spill_bytes": spill}}
    v = kernels.Variant("", meta)
    if twin_registers is not None:
        t = dict(meta, variant=meta["variant"] + "__div8", specializes=meta["variant"],
                 args=[dict(meta["args"][0], divisibility=8)],
                 resources=dict(meta["resources"], registers=twin_registers))
        v.twins = [kernels.Variant("", t)]
    return v


@test
def backward_variant_fits_the_row_then_the_most_programs_per_sm():
    from tessel import _common, kernels
    # (BLOCK, num_warps, registers, the __div8 twin's): programs per SM at these registers.
    vs = [fake_variant(1024, 4, 72),              # 7 programs, but more padding than needed
          fake_variant(4096, 32, 32, 32, 52),     # 2 programs, 52 bytes spilled
          fake_variant(4096, 16, 64, 64),         # 2 programs
          fake_variant(4096, 8, 162, 114),        # 1 program; its twin 2
          fake_variant(8192, 32, 63)]
    saved = kernels.variants
    kernels.variants = lambda kernel, dtype, device: vs
    try:
        def pick(cols):
            return _common._row_block_variant("k", "bf16", "cuda", cols, {"n_cols": cols}).config

        # Two programs each: 8 warps (the twin) before 16 (more warps), both before 32 (spills).
        assert pick(4096) == {"BLOCK": 4096, "num_warps": 8}
        # Without the twin's promise 8 warps fit one program: 16 warps at two win.
        assert pick(4095) == {"BLOCK": 4096, "num_warps": 16}
        assert pick(1000) == {"BLOCK": 1024, "num_warps": 4}
        assert pick(5000) == {"BLOCK": 8192, "num_warps": 32}
        raises(LookupError, lambda: pick(9000), "no compiled variant")
        # The twin runs when n_cols % 8 == 0, and holds fewer registers.
        assert _common._launched(vs[3], {"n_cols": 4096}) is vs[3].twins[0]
        assert _common._launched(vs[3], {"n_cols": 4095}) is vs[3]
        vs[2:4] = []
        assert pick(4096) == {"BLOCK": 4096, "num_warps": 32}  # spills, but two programs
    finally:
        kernels.variants = saved


@test
def one_block_variant_fits_the_row_then_the_fewest_warps():
    from tessel import _common, kernels
    vs = [fake_variant(1024, 4, 32), fake_variant(1024, 2, 32), fake_variant(1024, 8, 32),
          fake_variant(4096, 16, 32), fake_variant(4096, 4, 64),
          fake_variant(16384, 1, 255, spill=4096), fake_variant(16384, 32, 32),
          fake_variant(16384, 16, 64)]
    saved, saved_chosen = kernels.variants, dict(kernels._chosen)
    kernels.variants = lambda kernel, dtype, device: vs
    kernels._chosen.clear()
    try:
        def pick(cols, device="cuda"):
            return _common._one_block_or_looped("k", None, "bf16", device, cols).config

        # The smallest BLOCK that holds the row, then the fewest warps in it; 16384 on 1 warp
        # (512 elements per thread, as a tuned space may hold) only after those within 32.
        assert pick(1000) == {"BLOCK": 1024, "num_warps": 2}
        assert pick(1025) == {"BLOCK": 4096, "num_warps": 4}
        assert pick(16384) == {"BLOCK": 16384, "num_warps": 16}
        raises(LookupError, lambda: pick(16385), "no compiled variant")
        del vs[6:]  # only 16384 on 1 warp left past 4096: it still fits the row
        kernels._chosen.clear()
        assert pick(16384) == {"BLOCK": 16384, "num_warps": 1}
        # On the interpreter the variants' own order (the library's first) decides.
        assert pick(1000, "cpu") == {"BLOCK": 1024, "num_warps": 4}
    finally:
        kernels.variants = saved
        kernels._chosen.clear()
        kernels._chosen.update(saved_chosen)


@test
def rmsnorm_takes_the_fewest_warps_that_load_its_weights_early():
    # rmsnorm.cpp loads w beside x up to 8 warps and 16 elements per thread: those configs of
    # the smallest BLOCK first (1000 columns: 2 warps, not 1 at 32 a thread; 4096: 8, not 4),
    # then _fewest_warps' order (16384 columns: no config loads early, 16 warps as before).
    # Other kernels keep _fewest_warps.
    from tessel import _common, kernels
    vs = [fake_variant(1024, 4, 32), fake_variant(1024, 1, 32), fake_variant(1024, 2, 32),
          fake_variant(4096, 4, 32), fake_variant(4096, 8, 32), fake_variant(4096, 16, 32),
          fake_variant(16384, 16, 64), fake_variant(16384, 32, 32)]
    saved, saved_chosen = kernels.variants, dict(kernels._chosen)
    kernels.variants = lambda kernel, dtype, device: vs
    kernels._chosen.clear()
    try:
        def pick(kernel, cols):
            return _common._one_block_or_looped(kernel, None, "bf16", "cuda", cols).config

        assert pick("rmsnorm", 1000) == {"BLOCK": 1024, "num_warps": 2}
        assert pick("rmsnorm", 4096) == {"BLOCK": 4096, "num_warps": 8}
        assert pick("rmsnorm", 16384) == {"BLOCK": 16384, "num_warps": 16}
        assert pick("layernorm", 1000) == {"BLOCK": 1024, "num_warps": 1}
        assert pick("layernorm", 4096) == {"BLOCK": 4096, "num_warps": 4}
        assert pick("add_rmsnorm_out", 4096) == {"BLOCK": 4096, "num_warps": 4}
    finally:
        kernels.variants = saved
        kernels._chosen.clear()
        kernels._chosen.update(saved_chosen)


@test
def twins_most_promises_first_and_library_configs_win_ties():
    # A kernel directory of metadata only: two configs of one BLOCK, the -D one (no
    # config_index) sorting first by name; the library's has a __div8 and an __nt twin.
    import json
    import tempfile
    from tessel import kernels

    def meta(variant, warps, index=None, specializes=None, args=None):
        m = {"variant": variant, "kernel": "fake_twins", "dtype": "bf16",
             "target": "cuda:sm_90a", "config": {"BLOCK": 1024, "num_warps": warps},
             "artifacts": {"cubin": variant + ".cubin"},
             "args": args or [{"name": "n", "kind": "scalar", "type": "i64", "divisibility": 1},
                              {"name": "s", "kind": "scalar", "type": "i64", "divisibility": 1}]}
        if index is not None:
            m["config_index"] = index
        if specializes:
            m["specializes"] = specializes
        return m

    base = "fake_twins__bf16__BLOCK_1024__num_warps_8"
    div8 = [{"name": "n", "kind": "scalar", "type": "i64", "divisibility": 8},
            {"name": "s", "kind": "scalar", "type": "i64", "divisibility": 8}]
    nt = [{"name": "n", "kind": "scalar", "type": "i64", "divisibility": 8},
          {"name": "s", "kind": "scalar", "type": "i64", "divisibility": 1, "equal_to": 1}]
    with tempfile.TemporaryDirectory() as d:
        for m in (meta("fake_twins__bf16__BLOCK_1024__num_warps_16", 16),
                  meta(base, 8, index=1), meta(base + "__div8", 8, 1, base, div8),
                  meta(base + "__nt", 8, 1, base, nt)):
            with open(os.path.join(d, m["variant"] + ".json"), "w") as f:
                json.dump(m, f)
        kernels.add_kernel_directory(d)
        try:
            v = kernels.choose("fake_twins", "bf16", "cuda", prefer=lambda c: c["BLOCK"])
            assert v.name == base, v.name
            assert [t.name for t in v.twins] == [base + "__nt", base + "__div8"], v.twins
        finally:
            kernels._dirs.remove(os.path.abspath(d))
            kernels._index = None


@test
def layer_norm_numpy():
    for shape in shapes():
        x = randn(*shape) + 2.0  # a nonzero mean
        w = RNG.uniform(0.5, 1.5, shape[-1]).astype(np.float32)
        b = randn(shape[-1])
        close(ops.layer_norm(x, w, b), ln_ref(x, w, b), 1e-5, f"layer_norm {shape}")
        close(ops.layer_norm(x, w), ln_ref(x, w, np.zeros_like(w)), 1e-5, "layer_norm no bias")
        out, mean, rstd = ops.layer_norm_forward(x, w, b)
        xd = x.astype(np.float64)
        mu = xd.mean(-1)
        assert mean.dtype == rstd.dtype == np.float32 and mean.shape == shape[:-1], mean.shape
        close(out, ln_ref(x, w, b), 1e-5, f"layer_norm_forward {shape}")
        close(mean, mu, 1e-5, f"layer_norm_forward mean {shape}")
        close(rstd, 1 / np.sqrt(((xd - mu[..., None]) ** 2).mean(-1) + 1e-5), 1e-5,
              f"layer_norm_forward rstd {shape}")


@test
def layer_norm_backward_numpy():
    for dt in ("float32", "float16"):
        for shape in ((3, 5, 1000), (7, 4097), (2, 17), (300, 64)):
            x, dy = randn(*shape, dtype=dt, scale=3) + 1, randn(*shape, dtype=dt)
            w = RNG.uniform(0.5, 1.5, shape[-1]).astype(dt)
            _, mean, rstd = ops.layer_norm_forward(x, w, eps=1e-5)
            dx, dw, db = ops.layer_norm_backward(dy, x, w, mean, rstd)
            for got, want, what in zip((dx, dw, db), ln_bwd_ref(dy, x, w), ("dx", "dw", "db")):
                assert got.dtype == x.dtype
                close(got, want, TOL[dt], f"layer_norm {what} {dt} {shape}")


@test
def swiglu_numpy():
    for dt in ("float32", "float16"):
        for shape in shapes():
            g, u = randn(*shape, dtype=dt, scale=2), randn(*shape, dtype=dt)
            close(ops.swiglu(g, u), swiglu_ref(g, u), TOL[dt], f"swiglu {dt} {shape}")
            d = randn(*shape, dtype=dt)
            dg, du = ops.swiglu_backward(d, g, u)
            rg, ru = swiglu_bwd_ref(d, g, u)
            close(dg, rg, TOL[dt], f"swiglu dgate {dt} {shape}")
            close(du, ru, TOL[dt], f"swiglu dup {dt} {shape}")


def gelu_ref(g, approximate):
    from math import erf, pi, sqrt
    g = g.astype(np.float64)
    if approximate == "tanh":
        k = sqrt(2 / pi)
        t = np.tanh(k * (g + 0.044715 * g ** 3))
        dact = 0.5 * (1 + t) + 0.5 * g * (1 - t * t) * k * (1 + 3 * 0.044715 * g * g)
        return 0.5 * g * (1 + t), dact
    cdf = 0.5 * (1 + np.vectorize(erf)(g / sqrt(2)))
    return g * cdf, cdf + g * np.exp(-0.5 * g * g) / sqrt(2 * pi)


@test
def geglu_numpy():
    for approximate in ("none", "tanh"):
        for shape in ((3, 5, 1000), (7, 4097), (1,)):
            g, u, d = randn(*shape, scale=2), randn(*shape), randn(*shape)
            act, dact = gelu_ref(g, approximate)
            close(ops.geglu(g, u, approximate), act * u, 1e-5, f"geglu {approximate} {shape}")
            dg, du = ops.geglu_backward(d, g, u, approximate)
            close(dg, d * u * dact, 1e-5, f"geglu dgate {approximate} {shape}")
            close(du, d * act, 1e-5, f"geglu dup {approximate} {shape}")
    raises(ValueError, lambda: ops.geglu(g, u, "fast"), "approximate")


@test
def cross_entropy_numpy():
    for shape in ((3, 5, 1000), (7, 4097), (4, 9000)):
        logits = randn(*shape, scale=3)
        target = RNG.integers(0, shape[-1], shape[:-1]).astype(np.int64)
        target.reshape(-1)[::3] = -100
        for red in ("none", "mean", "sum"):
            close(ops.cross_entropy(logits, target, red), ce_ref(logits, target, red), 1e-5,
                  f"cross_entropy {red} {shape}")
            dloss = randn(*shape[:-1]) if red == "none" else np.float32(0.7)
            close(ops.cross_entropy_backward(dloss, logits, target, red),
                  ce_bwd_ref(dloss, logits, target, red), 1e-5, f"cross_entropy grad {red}")


@test
def cross_entropy_forward_backward_numpy():
    # The loss and its gradient for an upstream gradient of 1 from one kernel
    # (cross_entropy_fused), as the two kernels give them: plain, smoothed and z-loss, rows over
    # several blocks, a third of them ignored; every row ignored (mean: NaN, gradient 0).
    for shape in ((3, 5, 1000), (7, 9000), (2, 17)):
        logits = randn(*shape, scale=3)
        target = RNG.integers(0, shape[-1], shape[:-1]).astype(np.int64)
        target.reshape(-1)[::3] = -100
        for eps, z in ((0.0, 0.0), (0.1, 1e-4)):
            for red in ("mean", "sum"):
                what = f"{red} {shape} eps={eps} z={z}"
                loss, d = ops.cross_entropy_forward_backward(logits, target, red, -100, eps, z)
                assert d.shape == logits.shape and d.dtype == logits.dtype, what
                close(loss, ce_ref(logits, target, red, eps=eps, z=z), 1e-5, f"loss {what}")
                close(d, ce_bwd_ref(np.float32(1), logits, target, red, eps=eps, z=z), 1e-5,
                      f"dlogits {what}")
    logits = randn(4, 300)
    loss, d = ops.cross_entropy_forward_backward(logits, np.full(4, -100, np.int64), "mean")
    assert np.isnan(loss) and not d.any(), "every row ignored: NaN loss, zero gradient"
    raises(ValueError, lambda: ops.cross_entropy_forward_backward(
        logits, np.zeros(4, np.int64), "none"), "reduction", "'mean' or 'sum'")


@test
def cross_entropy_leading_blocks_of_minus_inf_numpy():
    # Masked logits (-inf) over the first blocks of every row (8200 columns: past BLOCK 4096 and
    # 8192): the online softmax's running max is -inf there, which must not make
    # exp(-inf + inf) = NaN (the per-block version of 57b01b2 gave NaN loss and gradient). The
    # result is the finite columns' alone, and the masked columns' gradient is 0.
    logits = randn(3, 9000, scale=3)
    logits[:, :8200] = -np.inf
    tail = np.ascontiguousarray(logits[:, 8200:])
    target = (8200 + RNG.integers(0, 800, 3)).astype(np.int64)
    for red in ("none", "mean", "sum"):
        close(ops.cross_entropy(logits, target, red), ce_ref(tail, target - 8200, red), 1e-5,
              f"cross_entropy {red}, leading -inf")
        dloss = randn(3) if red == "none" else np.float32(0.7)
        d = ops.cross_entropy_backward(dloss, logits, target, red)
        assert not d[:, :8200].any(), f"{red}: the masked columns' gradient is 0"
        close(d[:, 8200:], ce_bwd_ref(dloss, tail, target - 8200, red), 1e-5,
              f"cross_entropy grad {red}, leading -inf")
    loss, d = ops.cross_entropy_forward_backward(logits, target, "mean")
    close(loss, ce_ref(tail, target - 8200, "mean"), 1e-5, "fused loss, leading -inf")
    assert not d[:, :8200].any(), "fused: the masked columns' gradient is 0"
    close(d[:, 8200:], ce_bwd_ref(np.float32(1), tail, target - 8200, "mean"), 1e-5,
          "fused dlogits, leading -inf")


@test
def cross_entropy_label_smoothing_and_z_loss_numpy():
    # eps and z alone and together, eps = 1 (only the uniform term), on rows of one column and
    # vocabularies spread over several blocks; a quarter of the rows ignored.
    for shape in ((3, 5, 1000), (7, 4097), (2, 17), (3, 1)):
        logits = randn(*shape, scale=3)
        target = RNG.integers(0, shape[-1], shape[:-1]).astype(np.int64)
        target.reshape(-1)[1::4] = -100
        for eps, z in ((0.1, 0.0), (0.0, 1e-4), (0.1, 1e-4), (1.0, 0.01)):
            for red in ("none", "mean", "sum"):
                what = f"{red} {shape} eps={eps} z={z}"
                close(ops.cross_entropy(logits, target, red, label_smoothing=eps, z_loss=z),
                      ce_ref(logits, target, red, eps=eps, z=z), 1e-5, f"cross_entropy {what}")
                dloss = randn(*shape[:-1]) if red == "none" else np.float32(0.7)
                # One column: the gradient 2 z lse g is what is left of p (1 + 2 z lse) - 1
                # with p = 1, a cancellation in f32 (as in Liger-Kernel's kernel).
                tol = 1e-3 if shape[-1] == 1 and z else 1e-5
                close(ops.cross_entropy_backward(dloss, logits, target, red, -100, eps, z),
                      ce_bwd_ref(dloss, logits, target, red, eps=eps, z=z), tol,
                      f"cross_entropy grad {what}")
    # eps = z = 0 is the plain loss, bit for bit.
    logits = randn(5, 300, scale=3)
    target = RNG.integers(0, 300, 5).astype(np.int64)
    assert ops.cross_entropy(logits, target, "sum") == ops.cross_entropy(
        logits, target, "sum", label_smoothing=0.0, z_loss=0.0)
    # The smoothing term would make these differ from the plain loss by far more than 1e-5.
    assert rel(ops.cross_entropy(logits, target, "none", label_smoothing=0.1),
               ce_ref(logits, target, "none")) > 1e-3
    x, t = randn(4, 10), np.zeros(4, np.int64)
    raises(ValueError, lambda: ops.cross_entropy(x, t, label_smoothing=1.5), "label_smoothing")
    raises(ValueError, lambda: ops.cross_entropy(x, t, label_smoothing=-0.1), "label_smoothing")
    raises(TypeError, lambda: ops.cross_entropy(x, t, label_smoothing="0.1"), "label_smoothing")
    raises(ValueError, lambda: ops.cross_entropy(x, t, z_loss=float("nan")), "z_loss")
    raises(ValueError, lambda: ops.cross_entropy_backward(np.float32(1), x, t, "mean", -100, 2.0),
           "label_smoothing")


def rope_ref(x, cos, sin):
    x, c, s = (a.astype(np.float64) for a in (x, cos, sin))
    h = x.shape[-1] // 2
    rot = np.concatenate([-x[..., h:], x[..., :h]], -1)
    return x * c[:, None] + rot * s[:, None]  # tables (1 or B, S, D) over the heads


def rope_bwd_ref(d, cos, sin):
    d, c, s = (a.astype(np.float64) for a in (d, cos, sin))
    h = d.shape[-1] // 2
    y = d * s[:, None]
    return d * c[:, None] + np.concatenate([y[..., h:], -y[..., :h]], -1)


@test
def rope_numpy():
    # Hugging Face's layout (B, H, S, D); one k head (case C5); tables shared by the batch or
    # per batch, with halves that differ (the kernels do not assume they are equal). S = 37:
    # blocks of 16 tokens and a partial one. rope_flat (tables in q's dtype: q's launch, then
    # k's); without it rope_seq_out; without both, rope_out, one program per token.
    from tessel import kernels
    restore = contextlib.ExitStack()
    launched = restore.enter_context(recorded("launch", kernel_of))
    saved_variants = kernels.variants
    try:
        for hide, kernel in (((), ["rope_flat", "rope_flat"]), (("rope_flat",), ["rope_seq_out"]),
                             (("rope_flat", "rope_seq_out"), ["rope_out"])):
            kernels._chosen.clear()
            kernels.variants = (lambda k, *a, hide=hide: [] if k in hide else saved_variants(k, *a))
            for (B, HQ, HK, S, D), tb in (((2, 4, 1, 5, 64), 1), ((2, 3, 2, 37, 128), 2)):
                q, k = randn(B, HQ, S, D), randn(B, HK, S, D)
                cos, sin = randn(tb, S, D), randn(tb, S, D)
                q0, k0 = q.copy(), k.copy()
                launched.clear()
                rq, rk = ops.rope(q, k, cos, sin)
                assert launched == kernel, f"ran {launched}, expected {kernel}"
                assert np.array_equal(q, q0) and np.array_equal(k, k0), "rope modified its inputs"
                close(rq, rope_ref(q, cos, sin), 1e-5, f"{kernel} q {(B, HQ, HK, S, D)}")
                close(rk, rope_ref(k, cos, sin), 1e-5, f"{kernel} k {(B, HQ, HK, S, D)}")
                dq, dk = randn(*q.shape), randn(*k.shape)
                gq, gk = ops.rope_backward(dq, dk, cos, sin)
                close(gq, rope_bwd_ref(dq, cos, sin), 1e-5, f"{kernel} dq")
                close(gk, rope_bwd_ref(dk, cos, sin), 1e-5, f"{kernel} dk")
        # f16 q, k and tables, per batch: rope_flat in f16, within f16's tolerance.
        kernels._chosen.clear()
        kernels.variants = saved_variants
        q16, k16 = (randn(2, h, 9, 64).astype(np.float16) for h in (3, 1))
        c16, s16 = (randn(2, 9, 64).astype(np.float16) for _ in range(2))
        launched.clear()
        rq, rk = ops.rope(q16, k16, c16, s16)
        gq, gk = ops.rope_backward(q16, k16, c16, s16)
        assert launched == ["rope_flat"] * 4, launched
        close(rq, rope_ref(q16, c16, s16), 1e-2, "rope_flat f16 q")
        close(rk, rope_ref(k16, c16, s16), 1e-2, "rope_flat f16 k")
        close(gq, rope_bwd_ref(q16, c16, s16), 1e-2, "rope_flat f16 dq")
        close(gk, rope_bwd_ref(k16, c16, s16), 1e-2, "rope_flat f16 dk")
    finally:
        kernels.variants = saved_variants
        restore.close()
        kernels._chosen.clear()
    raises(ValueError, lambda: ops.rope(q, randn(B, HK, S + 1, D), cos, sin), "k has shape")
    raises(ValueError, lambda: ops.rope(q, k, randn(3, S, D), sin), "cos has shape")
    raises(LookupError, lambda: ops.rope(randn(1, 1, 2, 48), randn(1, 1, 2, 48),
                                         randn(1, 2, 48), randn(1, 2, 48)), "rope")


@test
def fused_linear_cross_entropy_numpy():
    # Chunks of 4 rows over 11 (the last one short), V = 300 not a multiple of any tile, and
    # (3, 2) rows in the default chunks (Liger's: 2 rows); f32 against float64, ignored rows in.
    for shape, h, v, chunk in (((11,), 24, 300, 4), ((3, 2), 40, 130, None)):
        x, w = randn(*shape, h), randn(v, h, scale=0.3)
        target = RNG.integers(0, v, shape).astype(np.int64)
        target.reshape(-1)[1] = -100
        for red in ("mean", "sum"):
            loss, gx, gw = ops.fused_linear_cross_entropy_forward_backward(
                x, w, target, reduction=red, chunk_rows=chunk)
            logits = x.reshape(-1, h).astype(np.float64) @ w.astype(np.float64).T
            t = target.reshape(-1)
            close(loss, ce_ref(logits, t, red), 1e-5, f"flce loss {red} {shape}")
            dl = ce_bwd_ref(np.float32(1), logits, t, red)
            close(gx, (dl @ w.astype(np.float64)).reshape(x.shape), 1e-5, f"flce grad_x {red}")
            close(gw, dl.T @ x.reshape(-1, h).astype(np.float64), 1e-5, f"flce grad_w {red}")
    raises(ValueError, lambda: ops.fused_linear_cross_entropy_forward_backward(
        x, randn(v, h + 1), target), "expected (V, 40)")
    raises(ValueError, lambda: ops.fused_linear_cross_entropy_forward_backward(
        x, w, target, reduction="none"), "'mean' or 'sum'")


@test
def fused_linear_cross_entropy_window_fills_the_waves():
    # H200 (132 SMs), BT 8192, H 4096, V 128256, 128x256 tiles: the widest window (3968
    # columns, 15.5 tiles of 256) leaves both GEMMs' last waves part empty; 3072 fills 6 and 3.
    from tessel import _linear_cross_entropy as lce
    t = (128, 256)
    assert lce._flce_vocab_cols(8192, 128256, 256 * 128256) == 3968
    assert lce._flce_window_cols(8192, 4096, 128256, 3968, t, t, 132) == 3072
    # One window of the whole vocabulary when it fills no more waves than two halves: 128 rows
    # x 1024 columns is 4 + 8 tiles, one wave each, against two windows of one wave each.
    assert lce._flce_window_cols(128, 128, 1024, 1024, t, t, 132) == 1024
    # A vocabulary narrower than 128 is one window; a budget of 128 columns leaves only 128.
    assert lce._flce_window_cols(4, 8, 100, 100, t, t, 8) == 100
    assert lce._flce_window_cols(11, 24, 300, 128, t, t, 8) == 128
    # 64 SMs: 3584 columns are 64 x 14 = 896 window tiles (14 waves) and 28 x 16 = 448
    # grad_weight tiles (7 waves), whole waves as 3072's are, in fewer windows (36 against 42).
    assert lce._flce_window_cols(8192, 4096, 128256, 3968, t, t, 64) == 3584


@test
def cross_entropy_ignore_index_and_all_ignored():
    logits = randn(6, 300)
    target = RNG.integers(0, 300, 6).astype(np.int64)
    target[1] = 7
    close(ops.cross_entropy(logits, target, "sum", ignore_index=7),
          ce_ref(logits, target, "sum", ignore=7), 1e-5, "ignore_index=7")
    all_ignored = np.full(6, -100, dtype=np.int64)
    assert np.isnan(ops.cross_entropy(logits, all_ignored, "mean")), "mean over no rows is NaN"
    d = ops.cross_entropy_backward(np.float32(1), logits, all_ignored, "mean")
    assert np.all(d == 0), "ignored rows get zero gradients"


@test
def cross_entropy_row_strided_logits():
    full = randn(8, 1200)
    view = full[:, :1000]  # rows 1200 apart: passed by stride
    target = RNG.integers(0, 1000, 8).astype(np.int64)
    close(ops.cross_entropy(view, target, "none"), ce_ref(np.ascontiguousarray(view), target,
                                                          "none"), 1e-5, "strided logits")


@test
def non_contiguous_inputs_are_copied():
    x = randn(1000, 6).T  # (6, 1000), column-major
    w = RNG.uniform(0.5, 1.5, 1000).astype(np.float32)
    close(ops.rms_norm(x, w), rms_ref(x, w), 1e-5, "transposed rms_norm input")
    g, u = randn(10, 30)[:, ::3], randn(10, 10)
    close(ops.swiglu(g, u), swiglu_ref(g, u), 1e-5, "strided swiglu input")
    unaligned = randn(1001)[1:]  # 4 bytes past an aligned address
    close(ops.swiglu(unaligned, unaligned), swiglu_ref(unaligned, unaligned), 1e-5, "unaligned")


@test
def matmul_numpy():
    # Odd shapes in every layout the kernels read in place (b along N, b = W.T along K, strided
    # views), then the padded-copy path (forced: the interpreter reads any strides, so only a
    # GPU copies by default) on operands TMA could not read: rows of odd byte lengths.
    from tessel._matmul import _matmul
    for dt in ("float32", "float16"):
        for m, n, k in ((13, 7, 29), (1, 128, 1), (33, 65, 100), (64, 1, 257)):
            a, b, w = randn(m, k, dtype=dt), randn(k, n, dtype=dt), randn(n, k, dtype=dt)
            for bb, what in ((b, "b"), (w.T, "W.T")):
                c = ops.matmul(a, bb)
                assert c.shape == (m, n) and c.dtype == a.dtype
                close(c, a.astype(np.float64) @ bb.astype(np.float64), TOL[dt],
                      f"matmul {dt} {m}x{n}x{k} {what}")
                close(_matmul(a, bb, copy=True), a.astype(np.float64) @ bb.astype(np.float64),
                      TOL[dt], f"matmul {dt} {m}x{n}x{k} {what}, copied")
    a, b = randn(20, 62)[:, ::2], randn(62, 17)[::2, 1:]  # strided rows and columns
    ref = a.astype(np.float64) @ b.astype(np.float64)
    close(ops.matmul(a, b), ref, 1e-5, "strided matmul")
    close(_matmul(a, b, copy=True), ref, 1e-5, "strided matmul, copied")
    assert ops.matmul(randn(3, 0), randn(0, 4)).tolist() == [[0.0] * 4] * 3  # K = 0: zeros
    assert ops.matmul(randn(0, 5), randn(5, 4)).shape == (0, 4)
    # The split-K slice count is the harness's (lib/Harness/Problems/Gemm.cpp splitKFor).
    from tessel._matmul import split_k_slices
    assert split_k_slices(32, 4096, 64, 132) == 4   # one wave of 128 programs
    assert split_k_slices(264, 4096, 64, 132) == 1  # two full waves already
    assert split_k_slices(1, 256, 64, 132) == 1     # 4 K-blocks: too few to cut
    # A second call with the same shape and strides reuses the first one's plan; another
    # stride does not.
    from tessel import _matmul as mm
    planned, plan = [], mm._plan
    mm._plan = lambda *a: planned.append(a) or plan(*a)
    try:
        x, y = randn(5, 6), randn(6, 7)
        ops.matmul(x, y)
        ops.matmul(randn(5, 6), randn(6, 7))
        assert len(planned) == 1, planned
        close(ops.matmul(x, np.asfortranarray(y)), x.astype(np.float64) @ y, 1e-5, "col-major b")
        assert len(planned) == 2, planned
    finally:
        mm._plan = plan
    # An expanded operand (stride 0) is no TMA operand: a tensor map takes no stride of 0.
    assert mm._tma_strides((0, 1), (16, 1)) == (False, True)
    assert mm._tma_strides((16, 1), (1, 0)) == (True, False)
    row, w = np.broadcast_to(randn(1, 24), (9, 24)), randn(24, 16)
    close(_matmul(row, w, copy=True), row.astype(np.float64) @ w, 1e-5, "expanded a, copied")
    close(ops.matmul(row, w), row.astype(np.float64) @ w, 1e-5, "expanded a")
    assert ops.matmul(randn(4, 5), randn(5, 0)).shape == (4, 0)
    raises(ValueError, lambda: ops.matmul(randn(3, 4), randn(5, 6)), "3x4", "5x6")
    raises(ValueError, lambda: ops.matmul(randn(3, 4, 5), randn(5, 6)), "2-D")
    raises(TypeError, lambda: ops.matmul(randn(3, 4), randn(4, 5, dtype=np.float16)), "b", "f16")
    raises(TypeError, lambda: ops.matmul(randn(3, 4).astype(np.float64), randn(4, 5)), "a", "f64")


@test
def split_k_workspace_grows_and_is_sliced():
    # One workspace per (device, stream): a smaller call slices it, a larger one replaces it.
    # A size seen before gets the same slices back (a decode loop's call pays no slicing); a
    # larger call drops the old buffer's slices with it.
    from tessel import _linear_cross_entropy as lce
    like = np.zeros(1, np.float32)
    lce._workspaces.clear()
    lce._workspace_views.clear()
    w1, l1 = lce._workspace(like, 1000, 8)
    w2, l2 = lce._workspace(like, 10, 2)
    assert w2.shape == (10,) and l2.shape == (2,) and np.shares_memory(w1, w2)
    assert not l2.any()
    again = lce._workspace(like, 10, 2)
    assert again[0] is w2 and again[1] is l2
    w3, l3 = lce._workspace(like, 5000, 4)
    assert w3.shape == (5000,) and l3.shape == (4,) and not np.shares_memory(w1, w3)
    assert len(lce._workspaces) == 1
    assert list(lce._workspace_views) == [(("cpu", None), 5000, 4)]
    w4, _ = lce._workspace(like, 10, 2)
    assert w4 is not w2 and np.shares_memory(w3, w4)
    # Past _MAX_VIEWS sizes the remembered slices are dropped, not kept without bound.
    for n in range(1, lce._MAX_VIEWS + 2):
        lce._workspace(like, n, 1)
    assert len(lce._workspace_views) <= lce._MAX_VIEWS


def fake_gemm(bm, bn, warps, stages, registers, shared, tma, index=None, producer=False):
    """A metadata-only plain gemm_block_ptr variant with a twin for A along K and B along N
    that copies with TMA (or not) and holds `registers` and `shared` bytes; `producer`: a
    producer warpgroup (warp_specialize)."""
    from tessel import kernels
    name = f"gemm_block_ptr__bf16__BLOCK_M_{bm}__BLOCK_N_{bn}__num_warps_{warps}__num_stages_{stages}"
    name += "__warp_specialize_1" if producer else ""
    config = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": 64, "num_warps": warps,
              "num_stages": stages, "HAS_BIAS": False, "ACT": "none",
              "warp_specialize": int(producer)}
    scalar = lambda n, **kw: dict({"name": n, "kind": "scalar", "type": "i32"}, **kw)
    meta = {"variant": name, "kernel": "gemm_block_ptr", "target": "cuda:sm_90a",
            "num_warps": warps, "config": config, "args": [scalar("K")],
            "resources": {"registers": registers, "shared_bytes": shared}}
    if index is not None:
        meta["config_index"] = index
    v = kernels.Variant("", meta)
    twin = dict(meta, variant=name + "__nna", specializes=name,
                args=[scalar("stride_ak", equal_to=1), scalar("stride_am", divisibility=8)])
    if tma:
        twin["tensor_maps"] = [{"base": 0}]
    v.twins = [kernels.Variant("", twin)]
    return v


@contextlib.contextmanager
def stubbed_kernels(variants, tuned_entries):
    """kernels.variants and kernels.tuned_entries replaced inside the block: a GEMM plan's
    inputs (compiled variants, tuning-cache entries) without files or a cache."""
    from tessel import kernels
    saved = kernels.variants, kernels.tuned_entries
    kernels.variants, kernels.tuned_entries = variants, tuned_entries
    try:
        yield
    finally:
        kernels.variants, kernels.tuned_entries = saved


def bf16_plan(m, n, k=4096):
    """tessel.ops.matmul's plan for a bf16 (m, k) @ (k, n) product, B as nn.Linear stores it,
    on a GPU of 132 SMs."""
    from tessel import _matmul
    return _matmul._plan("bf16", "cuda", m, n, k, (k, 1), (1, k), True, True, 132, None, None)


@test
def matmul_ring_depth_and_producer_by_waves_and_k():
    from tessel import _matmul, kernels
    vs = [fake_gemm(128, 128, 4, 4, 128, 131_072, True, 0),
          fake_gemm(128, 128, 4, 6, 128, 196_608, True, 1),
          fake_gemm(128, 128, 4, 8, 128, 196_608, True, 2),
          fake_gemm(128, 128, 4, 4, 128, 131_072, True, 3, producer=True),
          fake_gemm(128, 128, 4, 6, 128, 196_608, True, 4, producer=True)]
    saved = kernels.variants
    kernels.variants = lambda kernel, dtype, device: vs
    try:
        def ring(m, n, k):
            s = {"M": m, "N": n, "K": k, "stride_am": k, "stride_ak": 1}
            c = _matmul._pick("bf16", m, n, s, 132).config
            return c["num_stages"], c["warp_specialize"]
        # One wave (96 tiles) and 64 K steps, or 64 tiles and 32 steps: a producer warpgroup
        # (before a deeper ring without one), then the deeper ring.
        assert ring(256, 6144, 4096) == (6, 1)
        assert ring(1024, 1024, 2048) == (6, 1)
        # One wave, a short K loop (16 steps); or two waves and more: the shallower ring, then
        # no producer.
        assert ring(256, 6144, 1024) == (4, 0)
        assert ring(2048, 4096, 4096) == (4, 0)
        assert ring(2048, 4096, 2048) == (4, 0)
    finally:
        kernels.variants = saved


@test
def matmul_tiles_by_the_busiest_sm():
    from tessel import _matmul, kernels
    vs = [fake_gemm(128, 256, 8, 3, 168, 200_000, True, 0),
          fake_gemm(128, 128, 4, 4, 128, 131_072, True, 1),
          fake_gemm(64, 128, 4, 6, 90, 150_000, True),
          fake_gemm(64, 64, 4, 8, 90, 98_304, True),
          fake_gemm(256, 256, 8, 2, 128, 100_000, False)]  # no TMA: chosen only when alone
    saved = kernels.variants
    kernels.variants = lambda kernel, dtype, device: vs
    try:
        def pick(m, n, sam=1008):
            s = {"M": m, "N": n, "K": 1001, "stride_am": sam, "stride_ak": 1}
            c = _matmul._pick("bf16", m, n, s, 132).config
            return c["BLOCK_M"], c["BLOCK_N"]

        # 4096^2: 4 waves of 128x256 tiles (one per SM) cost as 8 of 128x128: the larger wins.
        assert pick(4096, 4096) == (128, 256)
        # 1000x999: 64x128 (128 programs, one per SM) and 64x64 (256, two per SM) cost alike,
        # less than the larger tiles, which leave SMs idle: the larger of the two.
        assert pick(1000, 999) == (64, 128)
        # 500x499: 64x64 tiles give one tile to each of 64 SMs.
        assert pick(500, 499) == (64, 64)
        # A row stride TMA cannot read: only the base kernels run, and the least cost wins.
        assert pick(4096, 4096, sam=1001) == (256, 256)
        # Decode products: gemm_split_k's 64x256 tile from N = 16384, else 64x128 on 6
        # stages; slices by split_k_slices; M = 256 at N = 4096 fills the GPU unsplit.
        split = [fake_gemm(64, 128, 4, 3, 90, 100_000, True, 0),
                 fake_gemm(64, 128, 4, 6, 90, 150_000, True, 1),
                 fake_gemm(64, 256, 4, 4, 128, 200_000, True)]
        kernels.variants = lambda kernel, dtype, device: split
        def split_k(m, n, k=4096):
            s = {"M": m, "N": n, "K": k, "stride_am": k, "stride_ak": 1}
            got = _matmul._split_k_variant("bf16", m, n, k, s, 132)
            return got and (got[0].config["BLOCK_N"], got[0].config["num_stages"], got[1])
        assert split_k(1, 28672) == (256, 4, 1)   # 112 tiles: one wave unsplit
        assert split_k(16, 4096) == (128, 6, 4)   # 32 tiles in 4 slices
        assert split_k(256, 4096) is None
        kernels.variants = lambda kernel, dtype, device: vs
        for v in vs:  # one tile: its area, or for tiles below 128x128 its operands' loads
            bm, bn = v.config["BLOCK_M"], v.config["BLOCK_N"]
            assert _matmul._estimate(v, v, 64, 64, 132) == max(bm * bn, 64 * (bm + bn))
        # 8192^2: 64x64 tiles (two per SM) would cost twice 128x256's 16 waves.
        assert pick(8192, 8192) == (128, 256)
        # A cluster variant (cluster_size = 2: an even grid only, and slower) is never picked,
        # though its tile would win at 1000x999 (64x128 before 64x64 above).
        clustered = fake_gemm(64, 128, 4, 6, 90, 150_000, True)
        clustered.config["cluster_size"] = 2
        kernels.variants = lambda kernel, dtype, device: [clustered, vs[3]]
        assert pick(1000, 999) == (64, 64)
    finally:
        kernels.variants = saved


@test
def matmul_plan_takes_the_tuned_split_k():
    # The tuning cache's gemm_split_k entry runs with its SPLIT_K, unless gemm_block_ptr's
    # entry is faster; a tuned gemm_block_ptr alone does not displace split-K's rule where it
    # applies; an entry whose launch would not copy with TMA, or that was timed through another
    # twin (a layout: the entry's key twin), is ignored.
    from tessel import _matmul, kernels
    rule = fake_gemm(64, 128, 4, 6, 90, 150_000, True, 0)
    tuned_split = fake_gemm(64, 64, 4, 4, 90, 100_000, True)
    tuned_split.config.update(BLOCK_K=128, SPLIT_K=2)
    tuned_tiles = fake_gemm(128, 128, 4, 4, 128, 131_072, True)
    no_tma = fake_gemm(64, 64, 4, 3, 90, 100_000, False)
    no_tma.config["SPLIT_K"] = 3
    entries = {}
    saved = kernels.variants, kernels.tuned_entries
    kernels.variants = lambda kernel, dtype, device: (
        [rule] if kernel == "gemm_split_k" else [tuned_tiles])
    kernels.tuned_entries = lambda kernel, dtype, device, values, valid=None: (
        [entries[kernel]] if kernel in entries else [])
    try:
        def plan(m, n, k=4096):
            p = _matmul._plan("bf16", "cuda", m, n, k, (k, 1), (1, k), True, True, 132, None,
                              None)
            c = p.variant.config
            return c["BLOCK_M"], c["BLOCK_N"], p.splits
        assert plan(16, 4096) == (64, 128, 4)  # no entry: the rule's tile and slices
        entries["gemm_split_k"] = (tuned_split, {"ms": 0.012, "twin": "nna"})
        assert plan(16, 4096) == (64, 64, 2)
        assert plan(256, 4096) == (64, 64, 2)  # also where the rule would not split
        entries["gemm_block_ptr"] = (tuned_tiles, {"ms": 0.010, "twin": "nna"})
        assert plan(16, 4096) == (128, 128, 0)  # the faster entry
        entries["gemm_block_ptr"] = (tuned_tiles, {"ms": 0.020, "twin": "nna"})
        assert plan(16, 4096) == (64, 64, 2)
        del entries["gemm_split_k"]
        assert plan(16, 4096) == (64, 128, 4)
        assert plan(256, 4096) == (128, 128, 0)
        entries["gemm_split_k"] = (no_tma, {"ms": 0.001})
        assert plan(16, 4096) == (64, 128, 4)
        # An entry timed through another file (the variant itself, another layout's twin) is
        # not this call's; a cache without key twins names the twin in `launched`.
        for other in ({"launched": tuned_split.name}, {"twin": "nt"}, {}):
            entries["gemm_split_k"] = (tuned_split, dict(ms=0.012, variant=tuned_split.name,
                                                         **other))
            assert plan(16, 4096) == (64, 128, 4), other
        entries["gemm_split_k"] = (tuned_split, {"ms": 0.012, "variant": tuned_split.name,
                                                 "launched": tuned_split.name + "__nna"})
        assert plan(16, 4096) == (64, 64, 2)
        # The rule honours a variant's own SPLIT_K (a tuning directory's variant).
        rule.config["SPLIT_K"] = 3
        del entries["gemm_split_k"]
        assert plan(16, 4096) == (64, 128, 3)
    finally:
        kernels.variants, kernels.tuned_entries = saved
        rule.config.pop("SPLIT_K", None)


@test
def matmul_plan_takes_the_persistent_entry_when_fastest():
    # gemm_persistent's entry runs on one program per SM (the plan's programs) where it is the
    # fastest entry of the shape; alone, only where split-K's rule does not apply; a slower one
    # leaves the others' choice as it was.
    rule = fake_gemm(64, 128, 4, 6, 90, 150_000, True, 0)
    tiles = fake_gemm(128, 256, 8, 3, 168, 147_456, True)
    persistent = fake_gemm(128, 256, 8, 2, 168, 229_376, True)
    persistent.kernel = "gemm_persistent"
    entries = {}

    def plan(m, n):
        p = bf16_plan(m, n)
        return p.variant.kernel, p.splits, p.programs
    with stubbed_kernels(lambda kernel, dtype, device: [rule] if kernel == "gemm_split_k" else [],
                         lambda kernel, dtype, device, values, valid=None:
                         [entries[kernel]] if kernel in entries else []):
        entries["gemm_block_ptr"] = (tiles, {"ms": 0.40, "twin": "nna"})
        assert plan(8192, 4096) == ("gemm_block_ptr", 0, 0)
        entries["gemm_persistent"] = (persistent, {"ms": 0.38, "twin": "nna"})
        assert plan(8192, 4096) == ("gemm_persistent", 0, 132)
        entries["gemm_persistent"] = (persistent, {"ms": 0.42, "twin": "nna"})
        assert plan(8192, 4096) == ("gemm_block_ptr", 0, 0)
        del entries["gemm_block_ptr"]
        assert plan(8192, 4096) == ("gemm_persistent", 0, 132)  # alone, split-K's rule is out
        assert plan(16, 4096) == ("gemm_block_ptr", 4, 0)  # alone, but a decode row: the rule


@test
def matmul_runs_a_persistent_variant_on_the_interpreter():
    # A gemm_persistent variant given to the op runs on 3 programs over the tiles (the harness's
    # interpreter count): every tile is computed once, odd sizes included.
    from tessel import _matmul, kernels
    import numpy as np
    v = kernels.choose("gemm_persistent", "f32", "cpu", prefer=lambda c: c["BLOCK_N"])
    assert (v.config["BLOCK_M"], v.config["BLOCK_N"]) == (128, 128)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((300, 45), dtype=np.float32)  # 3 x 3 tiles, 3 on each program
    b = rng.standard_normal((45, 270), dtype=np.float32)
    plan = _matmul._plan("f32", "cpu", 300, 270, 45, (45, 1), (270, 1), True, True, 0, v, None)
    assert plan.programs == 3
    c = _matmul._matmul(a, b, variant=v)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert np.linalg.norm(c - ref) / np.linalg.norm(ref) < 1e-5


@test
def matmul_plan_swaps_decode_to_the_faster_entry():
    # A decode product (M <= 64) runs transposed, c^T = b^T a^T, when gemm_split_k's entry for
    # the (N, M, K) product, timed through the twin that the transposed launch's strides pick
    # (c^T column-major), is faster than every entry of the product as written; never for M > 64.
    from tessel import _matmul
    rule = fake_gemm(64, 128, 4, 6, 90, 150_000, True, 0)
    swap = fake_gemm(64, 16, 4, 16, 90, 170_000, True)
    swap.config.update(SPLIT_K=4)
    # Its twin reads a^T along K and stores c^T along M.
    swap.twins[0].args = swap.twins[0].args + [
        {"name": "stride_cm", "kind": "scalar", "type": "i32", "equal_to": 1}]
    straight = fake_gemm(64, 64, 4, 4, 90, 100_000, True)
    straight.config.update(SPLIT_K=2)
    entries = {}

    def plan(m, n):
        p = bf16_plan(m, n)
        return p.variant.config["BLOCK_N"], p.splits, p.swap
    with stubbed_kernels(lambda kernel, dtype, device: [rule] if kernel == "gemm_split_k" else [],
                         lambda kernel, dtype, device, values, valid=None:
                         [entries[(kernel, values["M"])]] if (kernel, values["M"]) in entries
                         else []):
        assert plan(1, 4096) == (128, 4, False)  # no entry: the rule
        entries[("gemm_split_k", 4096)] = (swap, {"ms": 0.010, "twin": "nna"})
        assert plan(1, 4096) == (16, 4, True)
        assert not bf16_plan(100, 4096).swap  # not a decode product
        entries[("gemm_split_k", 1)] = (straight, {"ms": 0.009, "twin": "nna"})
        assert plan(1, 4096) == (64, 2, False)  # the product as written is faster
        entries[("gemm_split_k", 1)] = (straight, {"ms": 0.011, "twin": "nna"})
        assert plan(1, 4096) == (16, 4, True)
        # The transposed launch's c^T is column-major: a twin promising stride_cm = 1 is only
        # launched by it, so the product as written never takes this entry.
        assert _matmul._launched(swap, _matmul._scalars(1, 4096, 4096, (4096, 1), (1, 4096))) \
            is swap


@test
def matmul_swapped_launch_numpy():
    # The transposed launch's wiring (operands exchanged, strides reversed, c written
    # column-major) on the interpreter, through a plain variant, at decode-like odd shapes with
    # b in both layouts and strided rows.
    from tessel import _matmul, kernels
    for dt in ("float32", "float16"):
        v = kernels.choose("gemm_block_ptr", dt.replace("float", "f"), "cpu",
                           valid=_matmul._plain, key="plain")
        for m, n, k in ((1, 37, 29), (5, 64, 100), (13, 7, 257)):
            a, b, w = randn(m, k, dtype=dt), randn(k, n, dtype=dt), randn(n, k, dtype=dt)
            wide = randn(m, 2 * k, dtype=dt)[:, ::2]
            for aa, bb, what in ((a, b, "b"), (a, w.T, "W.T"), (wide, w.T, "strided a")):
                ad = _matmul._float(aa, "a", "matmul")
                bd = _matmul._float(bb, "b", "matmul")
                p = _matmul._Plan(False, False, True, tuple(ad.strides), tuple(bd.strides), v, 0,
                                  True)
                c = _matmul._run(p, aa, bb, m, n, k, dt.replace("float", "f"))
                close(c, aa.astype(np.float64) @ bb.astype(np.float64), TOL[dt],
                      f"swapped matmul {dt} {m}x{n}x{k} {what}")
            # Both operands copied first (rows padded to 8 elements), then swapped.
            b_rows = bb.strides[0] != bb.itemsize
            p = _matmul._plan(dt.replace("float", "f"), "cpu", m, n, k, tuple(ad.strides),
                              tuple(bd.strides), True, True, 0, v, True)._replace(swap=True)
            assert p.copy_a and p.copy_b and p.b_rows == b_rows
            c = _matmul._run(p, aa, bb, m, n, k, dt.replace("float", "f"))
            close(c, aa.astype(np.float64) @ bb.astype(np.float64), TOL[dt],
                  f"swapped matmul {dt} {m}x{n}x{k}, copied")


@test
def flce_gemm_takes_the_tuned_entry():
    # Fused linear cross-entropy's products take the tuning cache's entry for their (M, N, K)
    # when its variant has a twin for the product's layout; else the tile rule. A tuned
    # gemm_split_k runs its own SPLIT_K.
    from tessel import _linear_cross_entropy as lce, kernels
    big = fake_gemm(128, 256, 8, 3, 168, 180_000, True)
    tuned = fake_gemm(64, 128, 4, 6, 90, 150_000, True)
    seen, entries = [], {}
    saved = kernels.variants, kernels.tuned_entry
    kernels.variants = lambda kernel, dtype, device: [big, tuned]

    def entry(kernel, dtype, device, values, valid=None, twin=""):
        seen.append((kernel, values))
        hit = entries.get(kernel)
        return hit if hit and kernels.entry_twin(hit[1]) == twin else None
    kernels.tuned_entry = entry
    try:
        pick = lambda layout: lce._pick_gemm(("gemm_block_ptr",), "bf16", "cuda", layout, 256,
                                             4096, 128256, 132)
        assert pick("nna") is big  # no entry: the largest tile with the layout's twin
        entries["gemm_block_ptr"] = (tuned, {"ms": 0.3, "twin": "nna"})
        assert pick("nna") is tuned
        assert seen[-1] == ("gemm_block_ptr", {"M": 256, "N": 4096, "K": 128256})
        assert pick("tn") is not tuned  # no twin for that layout: the rule's (any twin first)
        entries["gemm_block_ptr"] = (tuned, {"ms": 0.3, "variant": tuned.name,
                                             "launched": tuned.name + "__nt"})
        assert pick("nna") is big  # timed in another layout
        entries["gemm_block_ptr"] = (tuned, {"ms": 0.3, "variant": tuned.name,
                                             "launched": tuned.name + "__nna"})
        assert pick("nna") is tuned
        tuned.config["SPLIT_K"] = 3
        sk = lce._SplitK(tuned, np.zeros(1, np.float32), 256, 4096, 128256, 132)
        assert sk.splits == 3
        tuned.config["SPLIT_K"] = 0
        assert lce._SplitK(tuned, np.zeros(1, np.float32), 256, 4096, 128256, 264).splits == 2
    finally:
        kernels.variants, kernels.tuned_entry = saved
        tuned.config.pop("SPLIT_K", None)


def raises(exc, fn, *words):
    try:
        fn()
    except exc as e:
        for w in words:
            assert w in str(e), f"{exc.__name__} message {str(e)!r} does not name {w!r}"
        return
    raise AssertionError(f"expected {exc.__name__} naming {words}")


@test
def errors_name_the_argument():
    x, w = randn(4, 64), np.ones(64, np.float32)
    raises(TypeError, lambda: ops.rms_norm(x.astype(np.float64), w), "x", "f64")
    raises(TypeError, lambda: ops.rms_norm(x, w.astype(np.float16)), "weight")
    raises(ValueError, lambda: ops.rms_norm(x, np.ones(63, np.float32)), "weight", "(64,)")
    raises(ValueError, lambda: ops.rms_norm(x, w, residual=randn(4, 65)), "residual")
    raises(TypeError, lambda: ops.rms_norm([1.0, 2.0], w), "x")
    raises(ValueError, lambda: ops.swiglu(randn(3, 4), randn(4, 3)), "gate", "up")
    raises(ValueError,
           lambda: ops.rms_norm_backward(randn(4, 63), x, w, np.ones(4, np.float32)), "dy")
    raises(TypeError, lambda: ops.cross_entropy(x, np.zeros(4, np.int32)), "target", "int64")
    raises(ValueError, lambda: ops.cross_entropy(x, np.zeros(5, np.int64)), "target", "(4,)")
    raises(ValueError, lambda: ops.cross_entropy(x, np.zeros(4, np.int64), "avg"), "reduction")


@test
def launch_checks_the_signature():
    v = tessel.kernels.choose("swiglu", "f32", "cpu")
    a = np.zeros(8, np.float32)
    raises(TypeError, lambda: tessel.launch(v, 1, a, a, a), "takes 4 arguments")
    raises(TypeError, lambda: tessel.launch(v, 1, a, a, a.astype(np.float16), 8), "up", "f32")
    raises(TypeError, lambda: tessel.launch(v, 1, a, a, a, 8.0), "n")
    raises(TypeError, lambda: tessel.launch(v, 1, 3, a, a, 8), "out", "pointer")
    # The interpreter stops an access outside the arrays (n larger than they are).
    raises(tessel.TesselError, lambda: tessel.launch(v, 1, a, a, a, 9), "out-of-bounds")
    tessel.launch(v, 1, a, a, a, 8)


@test
def missing_variants_say_how_to_compile():
    raises(LookupError, lambda: tessel.kernels.choose("no_such_kernel", "f32", "cpu"),
           "tesselc", "TESSEL_KERNEL_PATH")


# ------------------------------------------------------------------ torch CPU tensors


def torch_test(fn):
    fn.needs_torch = True
    return test(fn)


@torch_test
def torch_cpu_forward_and_autograd():
    for dt, tol in ((torch.float32, 1e-5), (torch.bfloat16, 1e-2)):
        x = torch.randn(3, 5, 1000, dtype=dt, requires_grad=True)
        w = (torch.rand(1000) + 0.5).to(dt).requires_grad_()
        y = ops.rms_norm(x, w)
        dy = torch.randn_like(y)
        y.backward(dy)
        xn, wn, dyn = (t.detach().float().numpy() for t in (x, w, dy))
        close(y.detach().float().numpy(), rms_ref(xn, wn), tol, f"torch rms_norm {dt}")
        rdx, rdw = rms_bwd_ref(dyn, xn, wn)
        close(x.grad.float().numpy(), rdx, tol, f"torch rms_norm dx {dt}")
        close(w.grad.float().numpy(), rdw, tol, f"torch rms_norm dw {dt}")

        g = torch.randn(7, 4097, dtype=dt, requires_grad=True)
        u = torch.randn(7, 4097, dtype=dt, requires_grad=True)
        o = ops.swiglu(g, u)
        d = torch.randn_like(o)
        o.backward(d)
        gn, un, dn = (t.detach().float().numpy() for t in (g, u, d))
        close(o.detach().float().numpy(), swiglu_ref(gn, un), tol, f"torch swiglu {dt}")
        rg, ru = swiglu_bwd_ref(dn, gn, un)
        close(g.grad.float().numpy(), rg, tol, f"torch swiglu dgate {dt}")
        close(u.grad.float().numpy(), ru, tol, f"torch swiglu dup {dt}")

    for approximate in ("none", "tanh"):
        g = torch.randn(5, 999, requires_grad=True)
        u = torch.randn(5, 999, requires_grad=True)
        o = ops.geglu(g, u, approximate)
        o.backward(torch.ones_like(o))
        gd, ud = (t.detach().double().requires_grad_() for t in (g, u))
        od = torch.nn.functional.gelu(gd, approximate=approximate) * ud
        od.backward(torch.ones_like(od))
        close(o.detach().numpy(), od.detach().numpy(), 1e-5, f"torch geglu {approximate}")
        close(g.grad.numpy(), gd.grad.numpy(), 1e-5, f"torch geglu dgate {approximate}")
        close(u.grad.numpy(), ud.grad.numpy(), 1e-5, f"torch geglu dup {approximate}")

    logits = torch.randn(6, 500, requires_grad=True)
    target = torch.randint(0, 500, (6,))
    target[0] = -100
    loss = ops.cross_entropy(logits, target)
    loss.backward()
    ref = torch.nn.functional.cross_entropy(logits.detach().double(), target)
    close(loss.detach().numpy(), ref.numpy(), 1e-5, "torch cross_entropy")
    lg = logits.detach().double().requires_grad_()
    torch.nn.functional.cross_entropy(lg, target).backward()
    close(logits.grad.numpy(), lg.grad.numpy(), 1e-5, "torch cross_entropy grad")


@torch_test
def torch_layer_norm_autograd():
    x = (torch.randn(3, 5, 1000) * 2 + 1).requires_grad_()
    w = (torch.rand(1000) + 0.5).requires_grad_()
    b = torch.randn(1000, requires_grad=True)
    y = ops.layer_norm(x, w, b)
    dy = torch.randn_like(y)
    y.backward(dy)
    xd, wd, bd = (t.detach().double().requires_grad_() for t in (x, w, b))
    torch.nn.functional.layer_norm(xd, (1000,), wd, bd, 1e-5).backward(dy.double())
    for got, want, what in ((x.grad, xd.grad, "dx"), (w.grad, wd.grad, "dw"),
                            (b.grad, bd.grad, "db")):
        close(got.numpy(), want.numpy(), 1e-5, f"torch layer_norm {what}")


@torch_test
def torch_residual_autograd():
    x = torch.randn(4, 300, requires_grad=True)
    r = torch.randn(4, 300, requires_grad=True)
    w = (torch.rand(300) + 0.5).requires_grad_()
    y, s = ops.rms_norm(x, w, residual=r)
    (y * 2 + s * 3).sum().backward()
    xd, rd, wd = (t.detach().double().requires_grad_() for t in (x, r, w))
    sd = xd + rd
    yd = sd / torch.sqrt((sd * sd).mean(-1, keepdim=True) + 1e-6) * wd
    (yd * 2 + sd * 3).sum().backward()
    for got, want, what in ((x.grad, xd.grad, "dx"), (r.grad, rd.grad, "dresidual"),
                            (w.grad, wd.grad, "dw")):
        close(got.numpy(), want.numpy(), 1e-5, f"add rms_norm {what}")


@torch_test
def torch_rope_autograd():
    q = torch.randn(2, 4, 6, 64, requires_grad=True)
    k = torch.randn(2, 1, 6, 64, requires_grad=True)
    cos, sin = torch.randn(1, 6, 64), torch.randn(1, 6, 64)
    rq, rk = ops.rope(q, k, cos, sin)
    (rq * 1.5).sum().backward(retain_graph=True)
    (rk * rk).sum().backward()
    qd, kd = (a.detach().double().requires_grad_() for a in (q, k))
    rot = lambda x: torch.cat([-x[..., 32:], x[..., :32]], -1)
    c, s = cos.double()[:, None], sin.double()[:, None]
    rqd, rkd = qd * c + rot(qd) * s, kd * c + rot(kd) * s
    ((rqd * 1.5).sum() + (rkd * rkd).sum()).backward()
    close(rq.detach().numpy(), rqd.detach().numpy(), 1e-5, "torch rope q")
    close(q.grad.numpy(), qd.grad.numpy(), 1e-5, "torch rope dq")
    close(k.grad.numpy(), kd.grad.numpy(), 1e-5, "torch rope dk")


@torch_test
def torch_rope_tables_converted_once_until_written():
    # Tables in another dtype than q's (f16 for bf16 q; rope_flat takes them only in q's) are
    # converted to f32 once for the layers that share them; writing to one (its version counter
    # moves) or passing another makes a new conversion.
    from tessel import _rope
    q, k = torch.randn(1, 2, 5, 64).bfloat16(), torch.randn(1, 1, 5, 64).bfloat16()
    cos, sin = torch.randn(1, 5, 64).half(), torch.randn(1, 5, 64).half()
    rot = lambda x: torch.cat([-x[..., 32:], x[..., :32]], -1)

    def check(what):
        rq, _ = ops.rope(q, k, cos, sin)
        c, s = cos.double()[:, None], sin.double()[:, None]
        ref = q.double() * c + rot(q.double()) * s
        close(rq.double().numpy(), ref.numpy(), 1e-2, f"rope {what}")

    check("first call")
    first = _rope._tables[("cos", False)][2]
    check("second call")
    assert _rope._tables[("cos", False)][2] is first, "the same cos table was converted again"
    cos.mul_(-0.5)
    check("after cos was written")
    assert _rope._tables[("cos", False)][2] is not first, "a written table was not converted"
    cos = torch.randn(1, 5, 64).half()
    check("another cos")


@torch_test
def torch_fused_linear_cross_entropy_autograd():
    # Against torch's cross_entropy(x @ w.T) in float64, with an upstream gradient of 2.5 (the
    # custom op scales the gradients it computed with the loss); bf16 at bf16's tolerance.
    for dt, tol in ((torch.float32, 1e-5), (torch.bfloat16, 2e-2)):
        x = torch.randn(2, 7, 32, dtype=dt, requires_grad=True)
        w = (torch.randn(301, 32) * 0.3).to(dt).requires_grad_()
        t = torch.randint(0, 301, (2, 7))
        t[0, 3] = -100
        loss = ops.fused_linear_cross_entropy(x, w, t, chunk_rows=4)
        (loss * 2.5).backward()
        xd, wd = (a.detach().double().requires_grad_() for a in (x, w))
        ref = torch.nn.functional.cross_entropy((xd @ wd.T).reshape(-1, 301), t.reshape(-1))
        (ref * 2.5).backward()
        close(loss.detach().numpy(), ref.detach().numpy(), tol, f"torch flce loss {dt}")
        close(x.grad.float().numpy(), xd.grad.numpy(), tol, f"torch flce grad_x {dt}")
        close(w.grad.float().numpy(), wd.grad.numpy(), tol, f"torch flce grad_w {dt}")
    # loss.backward() (an upstream gradient of exactly 1): the gradients are used unscaled.
    x = torch.randn(9, 32, requires_grad=True)
    w = (torch.randn(130, 32) * 0.3).requires_grad_()
    t = torch.randint(0, 130, (9,))
    ops.fused_linear_cross_entropy(x, w, t, reduction="sum").backward()
    xd, wd = (a.detach().double().requires_grad_() for a in (x, w))
    torch.nn.functional.cross_entropy(xd @ wd.T, t, reduction="sum").backward()
    close(x.grad.numpy(), xd.grad.numpy(), 1e-5, "torch flce grad_x, upstream 1")
    close(w.grad.numpy(), wd.grad.numpy(), 1e-5, "torch flce grad_w, upstream 1")
    # The gradients are scaled in place, so a second backward must refuse, not double them.
    x = torch.randn(5, 32, requires_grad=True)
    loss = ops.fused_linear_cross_entropy(x, torch.randn(40, 32, requires_grad=True),
                                          torch.randint(0, 40, (5,)))
    loss.backward(retain_graph=True)
    raises(RuntimeError, lambda: loss.backward(), "once per forward")
    # Under torch.compile (no graph break), with an upstream gradient of 3.
    x0, w0 = torch.randn(6, 32), torch.randn(40, 32) * 0.3
    t = torch.randint(0, 40, (6,))
    grads = []
    for f in (lambda x, w: ops.fused_linear_cross_entropy(x, w, t) * 3,
              torch.compile(lambda x, w: ops.fused_linear_cross_entropy(x, w, t) * 3,
                            fullgraph=True, backend="aot_eager")):
        x, w = x0.clone().requires_grad_(), w0.clone().requires_grad_()
        f(x, w).backward()
        grads.append((x.grad.numpy(), w.grad.numpy()))
    close(grads[1][0], grads[0][0], 1e-6, "compiled flce grad_x")
    close(grads[1][1], grads[0][1], 1e-6, "compiled flce grad_w")


def torch_ce_ref(logits, target, reduction, eps, z):
    """torch's F.cross_entropy(label_smoothing=eps) plus z * lse**2 per non-ignored row,
    reduced as the loss is (the mean over the non-ignored rows)."""
    loss = torch.nn.functional.cross_entropy(logits, target, reduction=reduction,
                                             label_smoothing=eps)
    valid = target != -100
    zl = torch.where(valid, z * torch.logsumexp(logits, -1) ** 2, 0.0)
    if reduction == "none":
        return loss + zl
    return loss + (zl.sum() / valid.sum() if reduction == "mean" else zl.sum())


@torch_test
def torch_cross_entropy_label_smoothing_and_z_loss():
    # Against torch in float64 on the same (rounded) logits, forward and autograd, f32 and bf16,
    # every reduction, with ignored rows; z = 0 is F.cross_entropy(label_smoothing=eps) itself.
    for dt, tol in ((torch.float32, 1e-5), (torch.bfloat16, 1e-2)):
        for eps, z in ((0.1, 0.0), (0.1, 1e-4), (0.0, 1e-4)):
            for red in ("mean", "sum", "none"):
                logits = (torch.randn(7, 1000) * 3).to(dt).requires_grad_()
                target = torch.randint(0, 1000, (7,))
                target[1] = target[4] = -100
                loss = ops.cross_entropy(logits, target, red, label_smoothing=eps, z_loss=z)
                up = torch.rand(loss.shape) + 0.5
                loss.backward(up)
                lg = logits.detach().double().requires_grad_()
                ref = torch_ce_ref(lg, target, red, eps, z)
                ref.backward(up.double())
                what = f"{dt} {red} eps={eps} z={z}"
                close(loss.detach().float().numpy(), ref.detach().numpy(), tol,
                      f"torch cross_entropy {what}")
                close(logits.grad.float().numpy(), lg.grad.numpy(), tol,
                      f"torch cross_entropy grad {what}")


@torch_test
def torch_cross_entropy_gradient_from_the_forward():
    # Eager mean and sum keep the forward's gradient (ops.cross_entropy_forward_backward) and
    # scale it in the backward: an upstream gradient of 1 and of 0.3, and one backward per
    # forward.
    logits0 = torch.randn(6, 500) * 3
    target = torch.randint(0, 500, (6,))
    target[2] = -100
    for red in ("mean", "sum"):
        for scale in (1.0, 0.3):
            logits = logits0.clone().requires_grad_()
            (ops.cross_entropy(logits, target, red) * scale).backward()
            lg = logits0.double().requires_grad_()
            (torch.nn.functional.cross_entropy(lg, target, reduction=red) * scale).backward()
            close(logits.grad.numpy(), lg.grad.numpy(), 1e-5, f"torch ce grad {red} x{scale}")
    logits = logits0.clone().requires_grad_()
    loss = ops.cross_entropy(logits, target)
    loss.backward(retain_graph=True)
    raises(RuntimeError, lambda: loss.backward(), "once per forward")


@torch_test
def torch_gradcheck_f64_rejected_and_devices():
    # The kernels have no f64 variants: a clear TypeError, not a wrong answer.
    raises(TypeError, lambda: ops.swiglu(torch.randn(3, dtype=torch.float64),
                                         torch.randn(3, dtype=torch.float64)), "gate")
    raises(TypeError, lambda: ops.swiglu(torch.randn(3), torch.randn(3).half()), "up")
    if torch.cuda.is_available():
        raises(ValueError, lambda: ops.swiglu(torch.randn(3), torch.randn(3, device="cuda")),
               "up", "cuda")


@torch_test
def torch_compile_keeps_the_custom_ops():
    from tessel import torch_ops  # noqa: F401  (registers tessel::*)
    x = torch.randn(4, 64)
    w = torch.ones(64)
    torch.library.opcheck(torch.ops.tessel.rms_norm.default, (x, w, 1e-6),
                          test_utils=("test_schema", "test_faketensor"))
    torch.library.opcheck(torch.ops.tessel.rope.default,
                          (torch.randn(1, 2, 3, 64), torch.randn(1, 1, 3, 64),
                           torch.randn(1, 3, 64), torch.randn(1, 3, 64)),
                          test_utils=("test_schema", "test_faketensor"))
    logits, target = torch.randn(4, 100), torch.tensor([3, -100, 0, 99])
    for args in ((logits, target, "mean", -100), (logits, target, "none", -100, 0.1, 1e-4)):
        torch.library.opcheck(torch.ops.tessel.cross_entropy.default, args,
                              test_utils=("test_schema", "test_faketensor"))
    torch.library.opcheck(torch.ops.tessel.cross_entropy_backward.default,
                          (torch.tensor(1.0), logits, target, "sum", -100, 0.1, 1e-4),
                          test_utils=("test_schema", "test_faketensor"))
    torch.library.opcheck(torch.ops.tessel.fused_linear_cross_entropy.default,
                          (x, torch.randn(100, 64), torch.randint(0, 100, (4,)), -100, "mean",
                           2), test_utils=("test_schema", "test_faketensor"))

    # fullgraph: no graph break, forward and backward through the fake implementations.
    def block(x, r, w, g, u, t):
        h, s = ops.rms_norm(x, w, residual=r)
        h = ops.layer_norm(h, w)
        return (ops.swiglu(h * g, u).sum() + s.sum() + ops.cross_entropy(h, t)
                + ops.cross_entropy(h, t, "sum", label_smoothing=0.1, z_loss=1e-4))
    t = torch.randint(0, 48, (8,))
    args = [torch.randn(8, 48), torch.randn(8, 48), torch.rand(48) + 0.5, torch.randn(8, 48),
            torch.randn(8, 48)]
    a1 = [a.clone().requires_grad_() for a in args]
    a2 = [a.clone().requires_grad_() for a in args]
    out = torch.compile(block, fullgraph=True, backend="aot_eager")(*a1, t)
    out.backward()
    ref = block(*a2, t)
    ref.backward()
    close(out.detach().numpy(), ref.detach().numpy(), 1e-6, "compiled block")
    for p, q in zip(a1, a2):
        close(p.grad.numpy(), q.grad.numpy(), 1e-6, "compiled block gradients")


@torch_test
def torch_eager_calls_skip_the_dispatcher():
    """Outside torch.compile the ops record their own autograd.Function (no custom-op
    dispatch, whose host time the eager path saves), with the same gradients."""
    from tessel import torch_ops
    x, w, r = torch.randn(4, 64), torch.rand(64) + 0.5, torch.randn(4, 64)
    g, u = torch.randn(4, 64), torch.randn(4, 64)
    logits, t = torch.randn(4, 100), torch.tensor([3, -100, 0, 99])
    q, k, cos, sin = (torch.randn(1, 2, 3, 64), torch.randn(1, 1, 3, 64), torch.randn(1, 3, 64),
                      torch.randn(1, 3, 64))
    calls = {
        "RMSNorm": lambda a: ops.rms_norm(a[0], a[1]), "AddRMSNorm":
        lambda a: ops.rms_norm(a[0], a[1], residual=a[2])[0], "LayerNorm":
        lambda a: ops.layer_norm(a[0], a[1]), "SwiGLU": lambda a: ops.swiglu(a[3], a[4]),
        "GeGLU": lambda a: ops.geglu(a[3], a[4]), "CrossEntropy":
        lambda a: ops.cross_entropy(a[5], t), "RoPE": lambda a: ops.rope(a[6], a[7], cos, sin)[0]}
    for name, fn in calls.items():
        a1 = [v.clone().requires_grad_() for v in (x, w, r, g, u, logits, q, k)]
        y = fn(a1)
        if type(y.grad_fn).__name__ != name + "Backward":
            raise AssertionError(f"{name}: eager grad_fn is {type(y.grad_fn).__name__}")
        y.sum().backward()
        # The same op through its custom op (what torch.compile records): the same gradients.
        a2 = [v.clone().requires_grad_() for v in (x, w, r, g, u, logits, q, k)]
        is_compiling = torch.compiler.is_compiling
        torch.compiler.is_compiling = lambda: True
        try:
            y2 = fn(a2)
        finally:
            torch.compiler.is_compiling = is_compiling
        if type(y2.grad_fn).__name__ == name + "Backward":
            raise AssertionError(f"{name}: the custom-op path recorded the eager Function")
        y2.sum().backward()
        for p1, p2 in zip(a1, a2):
            if (p1.grad is None) != (p2.grad is None):
                raise AssertionError(f"{name}: gradients differ in which inputs get one")
            if p1.grad is not None:
                close(p1.grad.numpy(), p2.grad.numpy(), 0.0, f"{name} eager gradients")
    del torch_ops


@torch_test
def torch_cuda_launch_fast_path_matches_the_full_path():
    """launch()'s prepared CUDA path (kernels._CudaLaunch) passes the C API what the full path
    passes, and every call it does not take (wrong dtype, device, alignment, scalar kind,
    argument count) gets the full path's error. CPU tensors stand for CUDA ones here: is_cuda,
    get_device and data_ptr are patched, and the C calls record their arguments."""
    import ctypes
    from tessel import _capi, kernels
    base = kernels.choose("rmsnorm", "bf16", "cpu", key=("fast path test",))
    meta = dict(base.meta, target="cuda:sm_90a", artifacts={"cubin": "none.cubin"})
    v = kernels.Variant("/nonexistent/rmsnorm.json", meta)
    v.twins = [kernels.Variant("/nonexistent/rmsnorm__div8.json",
                               dict(meta, variant=meta["variant"] + "__div8"))]
    calls = []
    on_cpu, on_1, shifted = set(), set(), set()

    def full(handle, twins, grid, args, stream):
        calls.append((handle.value, list(twins), tuple(grid), bytes(args), stream))

    def prepared(handle, twins, ntwins, grid, args, nargs, stream, err, errlen):
        assert ntwins.value == len(twins) and nargs.value == len(args)
        assert errlen.value == len(err)
        calls.append((handle.value, list(twins), tuple(grid), bytes(args), stream.value or 0))
        if args[4].i == 13:  # a launch the C API refuses
            err.value = b"tessel: refused"
            return 1
        return 0

    T = torch.Tensor
    saved = (T.is_cuda, T.get_device, T.data_ptr, _capi.cuda_load, _capi.cuda_launch,
             _capi.cuda_launch_function, kernels._raw_stream)
    data_ptr = T.data_ptr
    T.is_cuda = property(lambda t: id(t) not in on_cpu)
    T.get_device = lambda t: -1 if id(t) in on_cpu else (1 if id(t) in on_1 else 0)
    T.data_ptr = lambda t: data_ptr(t) + (1 if id(t) in shifted else 0)
    handles = iter(range(0x1000, 0x2000, 0x10))
    _capi.cuda_load = lambda path: ctypes.c_void_p(next(handles))
    _capi.cuda_launch = full
    _capi.cuda_launch_function = lambda: prepared
    kernels._raw_stream = lambda index: 0x5000 + index
    try:
        x = torch.randn(4, 64, dtype=torch.bfloat16)
        w, out = torch.ones(64, dtype=torch.bfloat16), torch.empty(4, 64, dtype=torch.bfloat16)
        p = torch.nn.Parameter(w.clone())

        def same(grid, *args):
            """The full path's C arguments (no prepared launch free), then the fast path's."""
            pool, v._cuda_launches = v._cuda_launches, []
            kernels.launch(v, grid, *args)
            v._cuda_launches = pool or v._cuda_launches
            kernels.launch(v, grid, *args)
            assert len(v._cuda_launches) == 1
            assert calls[-1] == calls[-2], f"fast path passes {calls[-1]}, full {calls[-2]}"

        same(4, out, x, w, 64, 64, 1e-6)
        same((4, 2), out, x, p, 64, 64, 1)  # a Parameter; an int for a float scalar
        same([3], out, x, w, -5, 2**40, 0.5)  # a list grid (the full path's own)
        same((2, 3, 4), out, x[1:], w, 64, 64, float("inf"))

        class Sub(torch.Tensor):
            pass
        same(4, out, x.as_subclass(Sub), w, 64, 64, 1e-6)  # a subclass: the full path's own
        bad = [  # (exception, words, args): every check after a fast launch made the pool
            (TypeError, ["takes 6 arguments (out, in, w, stride, n_cols, eps), got 5"],
             (out, x, w, 64, 64)),
            (TypeError, ["argument in must hold bf16, got f32"], (out, x.float(), w, 64, 64, 1.0)),
            (TypeError, ["argument w is a pointer to bf16: pass an array, not int"],
             (out, x, 7, 64, 64, 1.0)),
            (TypeError, ["argument stride is an i64 scalar, got bool"],
             (out, x, w, True, 64, 1.0)),
            (TypeError, ["argument n_cols is an i64 scalar, got float"],
             (out, x, w, 64, 64.0, 1.0)),
            (TypeError, ["argument eps is a f32 scalar, got str"], (out, x, w, 64, 64, "1")),
            (TypeError, ["argument eps is a f32 scalar, got bool"], (out, x, w, 64, 64, False)),
        ]
        for exc, words, args in bad:
            raises(exc, lambda: kernels.launch(v, 4, *args), *words)
        x2 = x.clone()
        shifted.add(id(x2))
        raises(ValueError, lambda: kernels.launch(v, 4, out, x2, w, 64, 64, 1.0),
               "argument in is not aligned to its element size")
        x1 = x.clone()
        on_1.add(id(x1))
        raises(ValueError, lambda: kernels.launch(v, 4, out, x1, w, 64, 64, 1.0),
               "arguments are on different devices (out on cuda:0, in on cuda:1, w on cuda:0)")
        o1, w1 = out.clone(), w.clone()
        on_1.update((id(o1), id(w1)))
        raises(ValueError, lambda: kernels.launch(v, 4, o1, x1, w1, 64, 64, 1.0),
               "tensors are on cuda:1; Tessel launches on device 0")
        xc = x.clone()
        on_cpu.add(id(xc))
        raises(ValueError, lambda: kernels.launch(v, 4, out, xc, w, 64, 64, 1.0),
               "(out on cuda:0, in on cpu:0, w on cuda:0)")
        n = len(calls)
        raises(_capi.TesselError, lambda: kernels.launch(v, 4, out, x, w, 64, 13, 1.0),
               "tessel: refused")
        assert len(calls) == n + 1 and len(v._cuda_launches) == 1
    finally:
        (T.is_cuda, T.get_device, T.data_ptr, _capi.cuda_load, _capi.cuda_launch,
         _capi.cuda_launch_function, kernels._raw_stream) = saved


@torch_test
def torch_norm_and_glu_errors_on_tensors():
    """The norms' and GLUs' checks on torch tensors (their inputs read in a few calls when every
    check passes: _common._torch_norm_inputs, _torch_alike) say what they say on NumPy
    arrays."""
    x, w = torch.randn(4, 64), torch.ones(64)
    raises(TypeError, lambda: ops.rms_norm(x.double(), w), "rms_norm: x must be float32")
    raises(TypeError, lambda: ops.rms_norm(x, w.half()), "weight is f16 but x is f32")
    raises(ValueError, lambda: ops.rms_norm(x, torch.ones(63)), "weight has shape (63,)")
    raises(ValueError, lambda: ops.rms_norm(torch.tensor(1.0), w), "at least one dimension")
    raises(ValueError, lambda: ops.rms_norm_backward(torch.randn(4, 63), x, w, torch.ones(4)),
           "dy has shape (4, 63) but x has (4, 64)")
    _, mean, rstd = ops.layer_norm_forward(x, w)
    raises(TypeError, lambda: ops.layer_norm_backward(x.half(), x, w, mean, rstd),
           "dy is f16 but x is f32")
    raises(TypeError, lambda: ops.layer_norm_backward(x, x, w, mean.half(), rstd),
           "mean must be float32 (the forward's), got f16")
    raises(ValueError, lambda: ops.layer_norm_backward(x, x, w, mean, rstd[:3]),
           "rstd has shape (3,), expected (4,)")
    raises(TypeError, lambda: ops.rms_norm_backward(x, x, w.half(), torch.ones(4)),
           "weight is f16 but x is f32")
    g, u = torch.randn(3, 4), torch.randn(3, 4)
    raises(ValueError, lambda: ops.swiglu(g, u.t()), "gate has shape (3, 4) but up has (4, 3)")
    raises(ValueError, lambda: ops.swiglu_backward(torch.randn(3, 5), g, u),
           "dout has shape (3, 5) but gate has (3, 4)")
    raises(TypeError, lambda: ops.geglu_backward(g.half(), g, u), "dout is f16 but gate is f32")
    close(ops.swiglu(g.t(), u.t()).numpy(), ops.swiglu(g, u).t().numpy(), 0.0,
          "non-contiguous swiglu")
    # Copies (non-contiguous, unaligned) and 3-D rows give the same values as contiguous rows.
    x3 = torch.randn(2, 3, 64)
    ref = ops.rms_norm(x3.reshape(6, 64).clone(), w).reshape(2, 3, 64)
    close(ops.rms_norm(x3, w).numpy(), ref.numpy(), 0.0, "3-D rms_norm")
    close(ops.rms_norm(x3.transpose(0, 1).contiguous().transpose(0, 1), w).numpy(), ref.numpy(),
          0.0, "non-contiguous rms_norm")
    dy = torch.randn(2, 3, 64)
    rstd = ops.rms_norm_forward(x3, w)[1]
    assert rstd.shape == (2, 3), rstd.shape
    dx, dw = ops.rms_norm_backward(dy, x3, w, rstd)
    dx2, dw2 = ops.rms_norm_backward(dy.reshape(6, 64), x3.reshape(6, 64), w, rstd.reshape(6))
    close(dx.reshape(6, 64).numpy(), dx2.numpy(), 0.0, "3-D rms_norm_backward dx")
    close(dw.numpy(), dw2.numpy(), 0.0, "3-D rms_norm_backward dw")
    assert dx.shape == x3.shape and dx.is_contiguous()


def main():
    passed = failed = skipped = 0
    for fn in TESTS:
        if getattr(fn, "needs_torch", False) and torch is None:
            print(f"SKIP {fn.__name__}: torch is not installed")
            skipped += 1
            continue
        try:
            fn()
            print(f"PASS {fn.__name__}")
            passed += 1
        except Exception:
            print(f"FAIL {fn.__name__}")
            traceback.print_exc(file=sys.stdout)
            failed += 1
    print(f"python ops: {passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
