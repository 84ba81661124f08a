"""torch.library custom ops with autograd for the Tessel ops (imported only with torch).

tessel::rms_norm, tessel::add_rms_norm, tessel::layer_norm, tessel::swiglu, tessel::geglu,
tessel::rope, tessel::cross_entropy and tessel::fused_linear_cross_entropy are
torch.library.custom_op operators with a fake (meta) implementation, so torch.compile keeps
them in its graph, and a backward registered with register_autograd that runs the backward
kernels (dsl/kernels/{rmsnorm,layernorm,swiglu}_backward.cpp (GeGLU's too), cross_entropy.cpp).
Outside torch.compile the public functions run the same forward, setup and backward as a plain
torch.autograd.Function (_eager), without the dispatcher's host time; fused linear
cross-entropy always goes through its custom op.
"""

import torch

from . import ops as _ops


def _pick(ctx, op, direct):
    """A backward kernel's entry: its custom op where torch.compile traces the backward
    (AOTAutograd needs the fake implementation), the plain function in eager autograd."""
    return direct if getattr(ctx, "eager", False) else op


def _eager(name, forward, setup, backward, returned=None):
    """An autograd.Function with the custom op's forward, setup and backward, for calls outside
    torch.compile: in eager mode the torch.library dispatcher (custom op, autograd wrapper and
    the backward's custom op) costs about 125 us of host time per forward + backward on the
    H200 machine (benchmarks/gpu/host_overhead.py), which small and host-bound calls pay. The
    forward takes ctx itself: a separate setup_context would make every call bind the forward's
    signature (inspect.signature). `returned` picks what the Function returns from the
    forward's result (all of it by default): outputs that only the backward reads (LayerNorm's
    mean and rstd) are saved, not returned, so that the autograd engine has no gradient to
    route for them."""
    def forward_with_ctx(ctx, *inputs):
        output = forward(*inputs)
        ctx.eager = True
        setup(ctx, inputs, output)
        return output if returned is None else returned(output)
    return type(name, (torch.autograd.Function,), {
        "forward": staticmethod(forward_with_ctx), "backward": staticmethod(backward)}).apply


def _call(op, eager, *args):
    """The custom op under torch.compile (so that it stays in the graph), else the eager
    autograd.Function."""
    return op(*args) if torch.compiler.is_compiling() else eager(*args)


# The backward kernels are custom ops too, so that AOTAutograd traces the backward graph
# through their fake implementations instead of into the kernels' launch code.
@torch.library.custom_op("tessel::rms_norm_backward", mutates_args=())
def _rms_norm_backward_op(dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor,
                          rstd: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops.rms_norm_backward(dy, x, weight, rstd)


@_rms_norm_backward_op.register_fake
def _(dy, x, weight, rstd):
    return (torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(weight.shape, dtype=weight.dtype, device=weight.device))


@torch.library.custom_op("tessel::add_rms_norm_backward", mutates_args=())
def _add_rms_norm_backward_op(dy: torch.Tensor, ds: torch.Tensor, x: torch.Tensor,
                              weight: torch.Tensor, rstd: torch.Tensor
                              ) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops.rms_norm_backward(dy, x, weight, rstd, ds)


@_add_rms_norm_backward_op.register_fake
def _(dy, ds, x, weight, rstd):
    return (torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(weight.shape, dtype=weight.dtype, device=weight.device))


def _add_rms_norm_backward_direct(dy, ds, x, weight, rstd):
    return _ops.rms_norm_backward(dy, x, weight, rstd, ds)


@torch.library.custom_op("tessel::layer_norm_backward", mutates_args=())
def _layer_norm_backward_op(dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor,
                            mean: torch.Tensor, rstd: torch.Tensor
                            ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _ops.layer_norm_backward(dy, x, weight, mean, rstd)


@_layer_norm_backward_op.register_fake
def _(dy, x, weight, mean, rstd):
    return (torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(weight.shape, dtype=weight.dtype, device=weight.device),
            torch.empty(weight.shape, dtype=weight.dtype, device=weight.device))


@torch.library.custom_op("tessel::swiglu_backward", mutates_args=())
def _swiglu_backward_op(dout: torch.Tensor, gate: torch.Tensor,
                        up: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops.swiglu_backward(dout, gate, up)


@_swiglu_backward_op.register_fake
def _(dout, gate, up):
    return (torch.empty(gate.shape, dtype=gate.dtype, device=gate.device),
            torch.empty(gate.shape, dtype=gate.dtype, device=gate.device))


@torch.library.custom_op("tessel::geglu_backward", mutates_args=())
def _geglu_backward_op(dout: torch.Tensor, gate: torch.Tensor, up: torch.Tensor,
                       approximate: str) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops.geglu_backward(dout, gate, up, approximate)


@_geglu_backward_op.register_fake
def _(dout, gate, up, approximate):
    return (torch.empty(gate.shape, dtype=gate.dtype, device=gate.device),
            torch.empty(gate.shape, dtype=gate.dtype, device=gate.device))


@torch.library.custom_op("tessel::cross_entropy_backward", mutates_args=())
def _cross_entropy_backward_op(dloss: torch.Tensor, logits: torch.Tensor, target: torch.Tensor,
                               reduction: str, ignore_index: int, label_smoothing: float = 0.0,
                               z_loss: float = 0.0) -> torch.Tensor:
    return _ops.cross_entropy_backward(dloss, logits, target, reduction, ignore_index,
                                       label_smoothing, z_loss)


@_cross_entropy_backward_op.register_fake
def _(dloss, logits, target, reduction, ignore_index, label_smoothing=0.0, z_loss=0.0):
    return torch.empty(logits.shape, dtype=logits.dtype, device=logits.device)


def _rstd_only_for_backward(ctx, *stats):
    """The norms' forward statistics (rstd; LayerNorm's mean) never reach the caller, who gets
    out (and s) alone: in the custom op, no gradient flows into them. (The eager Functions do
    not return them at all, so the autograd engine has nothing to route: returned as outputs,
    it filled two zero gradients per backward, 260 us of host time per LayerNorm step.)"""
    if not getattr(ctx, "eager", False):
        ctx.mark_non_differentiable(*stats)


# The forward returns each row's rstd (f32) beside out, so that the backward reads it instead
# of recomputing it; rms_norm() returns out alone.
@torch.library.custom_op("tessel::rms_norm", mutates_args=())
def _rms_norm_op(x: torch.Tensor, weight: torch.Tensor,
                 eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops.rms_norm_forward(x, weight, eps)


@_rms_norm_op.register_fake
def _(x, weight, eps):
    return (torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(x.shape[:-1], dtype=torch.float32, device=x.device))


def _rms_norm_setup(ctx, inputs, output):
    x, weight, eps = inputs
    ctx.save_for_backward(x, weight, output[1])
    _rstd_only_for_backward(ctx, output[1])


def _rms_norm_backward(ctx, dy, *_rstd_grad):
    x, weight, rstd = ctx.saved_tensors
    dx, dw = _pick(ctx, _rms_norm_backward_op, _ops.rms_norm_backward)(dy, x, weight, rstd)
    return dx, dw, None


_rms_norm_op.register_autograd(_rms_norm_backward, setup_context=_rms_norm_setup)
_rms_norm_eager = _eager("RMSNorm", _ops.rms_norm_forward, _rms_norm_setup, _rms_norm_backward,
                         returned=lambda output: output[0])


# The forward returns the rows' mean and rstd (f32) beside out, as aten's native_layer_norm, so
# that the backward reads them instead of recomputing them; layer_norm() returns out alone.
@torch.library.custom_op("tessel::layer_norm", mutates_args=())
def _layer_norm_op(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor,
                   eps: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _ops.layer_norm_forward(x, weight, bias, eps)


@_layer_norm_op.register_fake
def _(x, weight, bias, eps):
    return (torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(x.shape[:-1], dtype=torch.float32, device=x.device),
            torch.empty(x.shape[:-1], dtype=torch.float32, device=x.device))


def _layer_norm_setup(ctx, inputs, output):
    x, weight, bias, eps = inputs
    _, mean, rstd = output
    ctx.save_for_backward(x, weight, mean, rstd)
    _rstd_only_for_backward(ctx, mean, rstd)


def _layer_norm_backward(ctx, dy, *_stats_grads):
    x, weight, mean, rstd = ctx.saved_tensors
    dx, dw, db = _pick(ctx, _layer_norm_backward_op, _ops.layer_norm_backward)(dy, x, weight,
                                                                            mean, rstd)
    return dx, dw, db, None


_layer_norm_op.register_autograd(_layer_norm_backward, setup_context=_layer_norm_setup)
_layer_norm_eager = _eager("LayerNorm", _ops.layer_norm_forward, _layer_norm_setup,
                           _layer_norm_backward, returned=lambda output: output[0])


@torch.library.custom_op("tessel::add_rms_norm", mutates_args=())
def _add_rms_norm_op(x: torch.Tensor, residual: torch.Tensor, weight: torch.Tensor,
                     eps: float) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    return _ops.rms_norm_forward(x, weight, eps, residual)


@_add_rms_norm_op.register_fake
def _(x, residual, weight, eps):
    return (torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(x.shape, dtype=x.dtype, device=x.device),
            torch.empty(x.shape[:-1], dtype=torch.float32, device=x.device))


def _add_rms_norm_setup(ctx, inputs, output):
    ctx.save_for_backward(output[1], inputs[2], output[2])
    _rstd_only_for_backward(ctx, output[2])


def _add_rms_norm_backward(ctx, dy, ds, *_rstd_grad):
    # s = x + residual feeds both outputs: ds (the residual stream's gradient) adds to the
    # norm's dx inside the backward kernel (a separate dx + ds pass would read and write three
    # row tensors more), and x and residual both receive the sum.
    s, weight, rstd = ctx.saved_tensors
    if ds is None:
        dx, dw = _pick(ctx, _rms_norm_backward_op, _ops.rms_norm_backward)(dy, s, weight, rstd)
    else:
        dx, dw = _pick(ctx, _add_rms_norm_backward_op, _add_rms_norm_backward_direct)(
            dy, ds, s, weight, rstd)
    return dx, dx, dw, None


_add_rms_norm_op.register_autograd(_add_rms_norm_backward, setup_context=_add_rms_norm_setup)
_add_rms_norm_eager = _eager("AddRMSNorm",
                             lambda x, res, w, eps: _ops.rms_norm_forward(x, w, eps, res),
                             _add_rms_norm_setup, _add_rms_norm_backward,
                             returned=lambda output: output[:2])


@torch.library.custom_op("tessel::swiglu", mutates_args=())
def _swiglu_op(gate: torch.Tensor, up: torch.Tensor) -> torch.Tensor:
    return _ops._swiglu(gate, up)


@_swiglu_op.register_fake
def _(gate, up):
    return torch.empty(gate.shape, dtype=gate.dtype, device=gate.device)


def _swiglu_setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _swiglu_backward(ctx, dout):
    gate, up = ctx.saved_tensors
    return _pick(ctx, _swiglu_backward_op, _ops.swiglu_backward)(dout, gate, up)


_swiglu_op.register_autograd(_swiglu_backward, setup_context=_swiglu_setup)
_swiglu_eager = _eager("SwiGLU", _ops._swiglu, _swiglu_setup, _swiglu_backward)


@torch.library.custom_op("tessel::geglu", mutates_args=())
def _geglu_op(gate: torch.Tensor, up: torch.Tensor, approximate: str) -> torch.Tensor:
    return _ops._geglu(gate, up, approximate)


@_geglu_op.register_fake
def _(gate, up, approximate):
    return torch.empty(gate.shape, dtype=gate.dtype, device=gate.device)


def _geglu_setup(ctx, inputs, output):
    gate, up, approximate = inputs
    ctx.save_for_backward(gate, up)
    ctx.approximate = approximate


def _geglu_backward(ctx, dout):
    gate, up = ctx.saved_tensors
    dgate, dup = _pick(ctx, _geglu_backward_op, _ops.geglu_backward)(dout, gate, up,
                                                                     ctx.approximate)
    return dgate, dup, None


_geglu_op.register_autograd(_geglu_backward, setup_context=_geglu_setup)
_geglu_eager = _eager("GeGLU", _ops._geglu, _geglu_setup, _geglu_backward)


def _cross_entropy_forward(logits, target, reduction, ignore_index, label_smoothing, z_loss):
    out = _ops._cross_entropy(logits, target, reduction, ignore_index, label_smoothing, z_loss)
    return out if reduction == "none" else out.reshape(())


@torch.library.custom_op("tessel::cross_entropy", mutates_args=())
def _cross_entropy_op(logits: torch.Tensor, target: torch.Tensor, reduction: str,
                      ignore_index: int, label_smoothing: float = 0.0,
                      z_loss: float = 0.0) -> torch.Tensor:
    return _cross_entropy_forward(logits, target, reduction, ignore_index, label_smoothing,
                                  z_loss)


@_cross_entropy_op.register_fake
def _(logits, target, reduction, ignore_index, label_smoothing=0.0, z_loss=0.0):
    if reduction == "none":
        return torch.empty(target.shape, dtype=torch.float32, device=logits.device)
    return torch.empty((), dtype=logits.dtype, device=logits.device)


def _cross_entropy_setup(ctx, inputs, output):
    logits, target, reduction, ignore_index, label_smoothing, z_loss = inputs
    ctx.save_for_backward(logits, target)
    ctx.reduction, ctx.ignore_index = reduction, ignore_index
    ctx.label_smoothing, ctx.z_loss = label_smoothing, z_loss


def _cross_entropy_backward(ctx, dloss):
    logits, target = ctx.saved_tensors
    d = _pick(ctx, _cross_entropy_backward_op, _ops.cross_entropy_backward)(
        dloss, logits, target, ctx.reduction, ctx.ignore_index, ctx.label_smoothing, ctx.z_loss)
    return d, None, None, None, None, None


_cross_entropy_op.register_autograd(_cross_entropy_backward, setup_context=_cross_entropy_setup)
_cross_entropy_eager = _eager("CrossEntropy", _cross_entropy_forward, _cross_entropy_setup,
                              _cross_entropy_backward)


def _is_one(dloss):
    """Whether the upstream gradient `dloss` (0-d) is exactly 1, asked of the device; False
    while torch.compile traces: under Dynamo (is_compiling) and while AOTAutograd traces a
    custom op's backward with fake tensors, where is_compiling() is False (torch 2.11) and the
    test would be a guard on data."""
    from torch._subclasses.fake_tensor import is_fake
    if torch.compiler.is_compiling() or is_fake(dloss):
        return False
    return bool(dloss == 1)


def _ce_with_grad_forward(ctx, logits, target, reduction, ignore_index, label_smoothing,
                          z_loss):
    loss, dlogits = _ops.cross_entropy_forward_backward(
        logits, target, reduction, ignore_index, label_smoothing, z_loss)
    ctx.save_for_backward(dlogits)
    ctx.state = {"scaled": False}
    return loss


def _ce_with_grad_backward(ctx, dloss):
    if ctx.state["scaled"]:
        raise RuntimeError("tessel.ops.cross_entropy: its backward runs once per forward (the "
                           "gradient is scaled in place); run the forward again instead of "
                           "backward(retain_graph=True)")
    ctx.state["scaled"] = True
    (dlogits,) = ctx.saved_tensors
    # An upstream gradient of exactly 1 (loss.backward()) needs no pass over dlogits; the test
    # waits for the device, as fused_linear_cross_entropy's and Liger-Kernel's.
    if not _is_one(dloss):
        dlogits.mul_(dloss.to(dlogits.dtype))
    return dlogits, None, None, None, None, None


# Eager cross_entropy for reduction mean or sum: the forward computes the gradient with the loss
# (ops.cross_entropy_forward_backward, one pass over the logits where a forward and a backward
# kernel take two; Liger-Kernel's does the same) and keeps it instead of the logits; the
# backward scales it in place, as fused_linear_cross_entropy's, so it runs once per forward.
# Under torch.compile the custom ops run instead (the loss, then the backward kernel).
_cross_entropy_with_grad = type("CrossEntropy", (torch.autograd.Function,), {
    "forward": staticmethod(_ce_with_grad_forward),
    "backward": staticmethod(_ce_with_grad_backward)}).apply


@torch.library.custom_op("tessel::rope", mutates_args=())
def _rope_op(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor,
             sin: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops._rope(q, k, cos, sin)


@_rope_op.register_fake
def _(q, k, cos, sin):
    return torch.empty_like(q, memory_format=torch.contiguous_format), \
        torch.empty_like(k, memory_format=torch.contiguous_format)


@torch.library.custom_op("tessel::rope_backward", mutates_args=())
def _rope_backward_op(dq: torch.Tensor, dk: torch.Tensor, cos: torch.Tensor,
                      sin: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    return _ops.rope_backward(dq, dk, cos, sin)


@_rope_backward_op.register_fake
def _(dq, dk, cos, sin):
    return torch.empty_like(dq, memory_format=torch.contiguous_format), \
        torch.empty_like(dk, memory_format=torch.contiguous_format)


def _rope_setup(ctx, inputs, output):
    ctx.save_for_backward(inputs[2], inputs[3])


def _rope_grad(ctx, dq, dk):
    cos, sin = ctx.saved_tensors
    gq, gk = _pick(ctx, _rope_backward_op, _ops.rope_backward)(dq, dk, cos, sin)
    return gq, gk, None, None


_rope_op.register_autograd(_rope_grad, setup_context=_rope_setup)
_rope_eager = _eager("RoPE", _ops._rope, _rope_setup, _rope_grad)


@torch.library.custom_op("tessel::fused_linear_cross_entropy", mutates_args=())
def _flce_op(x: torch.Tensor, weight: torch.Tensor, target: torch.Tensor, ignore_index: int,
             reduction: str, chunk_rows: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    loss, gx, gw = _ops.fused_linear_cross_entropy_forward_backward(
        x, weight, target, ignore_index, reduction, chunk_rows or None)
    return loss.reshape(()).to(torch.float32), gx, gw


@_flce_op.register_fake
def _(x, weight, target, ignore_index, reduction, chunk_rows):
    return (torch.empty((), dtype=torch.float32, device=x.device), torch.empty_like(x),
            torch.empty_like(weight))


def _flce_setup(ctx, inputs, output):
    ctx.save_for_backward(output[1], output[2])
    # The gradient outputs get no upstream gradient: without this, autograd would fill a
    # zero tensor of grad_weight's size (1 GiB at V = 128256, H = 4096) for the backward.
    ctx.set_materialize_grads(False)
    ctx.state = {"scaled": False}  # attributes set in the backward itself do not persist


def _flce_backward(ctx, dloss, _dgx, _dgw):
    # The gradients for an upstream gradient of 1, computed with the loss, are scaled here in
    # place (as Liger-Kernel's): a copy of grad_weight would double the peak memory. So the
    # backward can run only once per forward.
    if ctx.state["scaled"]:
        raise RuntimeError("tessel::fused_linear_cross_entropy: its backward runs once per "
                           "forward (the gradients are scaled in place); run the forward again "
                           "instead of backward(retain_graph=True)")
    ctx.state["scaled"] = True
    gx, gw = ctx.saved_tensors
    # An upstream gradient of exactly 1 (loss.backward()) needs no scaling, which reads and
    # writes all of grad_weight (1.6 ms at V = 128256, H = 4096, bf16, H100). The test waits
    # for the device, so only in eager mode (Liger-Kernel's check), not while torch.compile
    # traces.
    if _is_one(dloss):
        return gx, gw, None, None, None, None
    return (gx.mul_(dloss.to(gx.dtype)), gw.mul_(dloss.to(gw.dtype)), None, None, None, None)


_flce_op.register_autograd(_flce_backward, setup_context=_flce_setup)


def rope(q, k, cos, sin):
    """tessel.ops.rope with autograd (with respect to q and k; cos and sin are constants)."""
    return _call(_rope_op, _rope_eager, q, k, cos, sin)


def fused_linear_cross_entropy(x, weight, target, ignore_index=-100, reduction="mean",
                               chunk_rows=None):
    """tessel.ops.fused_linear_cross_entropy with autograd (with respect to x and weight): the
    loss, 0-d f32."""
    return _flce_op(x, weight, target, int(ignore_index), reduction, int(chunk_rows or 0))[0]


def rms_norm(x, weight, eps=1e-6, residual=None):
    """tessel.ops.rms_norm with autograd: out, or (out, x + residual) with a residual."""
    if residual is None:
        if torch.compiler.is_compiling():
            return _rms_norm_op(x, weight, float(eps))[0]
        return _rms_norm_eager(x, weight, float(eps))
    if torch.compiler.is_compiling():
        return _add_rms_norm_op(x, residual, weight, float(eps))[:2]
    return _add_rms_norm_eager(x, residual, weight, float(eps))


def layer_norm(x, weight, bias=None, eps=1e-5):
    """tessel.ops.layer_norm with autograd (bias None: zeros, and no gradient for it)."""
    if bias is None:
        bias = torch.zeros(weight.shape, dtype=weight.dtype, device=weight.device)
    if torch.compiler.is_compiling():
        return _layer_norm_op(x, weight, bias, float(eps))[0]
    return _layer_norm_eager(x, weight, bias, float(eps))


def swiglu(gate, up):
    """tessel.ops.swiglu with autograd."""
    return _call(_swiglu_op, _swiglu_eager, gate, up)


def geglu(gate, up, approximate="none"):
    """tessel.ops.geglu with autograd."""
    return _call(_geglu_op, _geglu_eager, gate, up, approximate)


def cross_entropy(logits, target, reduction="mean", ignore_index=-100, label_smoothing=0.0,
                  z_loss=0.0):
    """tessel.ops.cross_entropy with autograd (with respect to the logits): label smoothing eps
    and z-loss scale z as there, (1 - eps) * nll + eps * the uniform target's cross-entropy
    + z * lse**2 per row."""
    eps, z = _ops._ce_terms("cross_entropy", label_smoothing, z_loss)
    if reduction in ("mean", "sum") and not torch.compiler.is_compiling():
        return _cross_entropy_with_grad(logits, target, reduction, int(ignore_index), eps,
                                        z)
    return _call(_cross_entropy_op, _cross_entropy_eager, logits, target, reduction,
                 int(ignore_index), eps, z)
