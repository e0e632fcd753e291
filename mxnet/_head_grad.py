"""Which executor outputs need a head gradient in ``backward()`` (MXNet's rule).

MXNet 1.9.1 raises when ``Executor.backward`` gets no gradient for an output whose operator
reads its head (output) gradient on the way to some argument that wants a gradient. Loss
outputs (``SoftmaxOutput``, ``MakeLoss``...) return the gradient of their implied loss and
zero-gradient operators (``BlockGrad``, comparisons, rounding...) read none, so a graph
ending in them needs no head gradient.

Examples
--------
>>> import mxnet as mx
>>> x = mx.sym.Variable('x')
>>> head_grad_needed(x * 2, ['x'], ['write'], 0)
True
>>> head_grad_needed(mx.sym.make_loss(x * 2), ['x'], ['write'], 0)
False
"""

from __future__ import annotations

from .base import MXNetError

__all__ = ["HEAD_GRAD_REQUIRED", "head_grad_needed", "check_differentiable"]

HEAD_GRAD_REQUIRED = (
    "Check failed: i < head_grads.size() && !head_grads[i].is_none(): Because the last "
    "operator is not Loss function, head_gradient is required when calling backward. If you "
    "are attempting to minimize the output as an objective, please modify your network and "
    "pass it through the make_loss symbol."
)

# operators whose gradient never reads the output (head) gradient: loss outputs, which return
# the gradient of their implied loss, and operators with zero or no gradient
_IGNORE_HEAD_GRAD = frozenset(
    {
        "SoftmaxOutput",
        "Softmax",
        "LinearRegressionOutput",
        "LogisticRegressionOutput",
        "MAERegressionOutput",
        "SVMOutput",
        "MakeLoss",
        "make_loss",
        "BlockGrad",
        "stop_gradient",
        "zeros_like",
        "ones_like",
        "argmax",
        "argmin",
        "argmax_channel",
        "argsort",
        "floor",
        "ceil",
        "round",
        "rint",
        "fix",
        "trunc",
        "shape_array",
        "size_array",
        "logical_not",
        "one_hot",
        "_equal",
        "_not_equal",
        "_greater",
        "_greater_equal",
        "_lesser",
        "_lesser_equal",
        "_logical_and",
        "_logical_or",
        "_logical_xor",
        "_equal_scalar",
        "_not_equal_scalar",
        "_greater_scalar",
        "_greater_equal_scalar",
        "_lesser_scalar",
        "_lesser_equal_scalar",
        "_logical_and_scalar",
        "_logical_or_scalar",
        "_logical_xor_scalar",
        "broadcast_equal",
        "broadcast_not_equal",
        "broadcast_greater",
        "broadcast_greater_equal",
        "broadcast_lesser",
        "broadcast_lesser_equal",
        "broadcast_logical_and",
        "broadcast_logical_or",
        "broadcast_logical_xor",
    }
)


def _uses_head_grad(node) -> bool:
    name = node.op.name
    if name in ("SoftmaxOutput", "Softmax"):  # out_grad=True multiplies by the head gradient
        return str(node.attrs.get("out_grad", "False")).lower() in ("true", "1")
    if name == "Custom":  # a CustomOpProp(need_top_grad=False) is a loss layer
        try:
            return bool(getattr(node.parsed.get("_prop"), "need_top_grad_", True))
        except MXNetError:
            return False
    if name == "topk":  # the indices (default) have no gradient
        return str(node.attrs.get("ret_typ", "indices")).strip("'\"") in ("value", "both")
    return name not in _IGNORE_HEAD_GRAD


def head_grad_needed(symbol, arg_names, grad_req, k: int) -> bool:
    """Whether output ``k`` of ``symbol`` needs a head gradient: some argument with a
    gradient (``grad_req`` not 'null') is reached through head-gradient-reading operators."""
    wants = {n for n, r in zip(arg_names, grad_req) if r != "null"}
    outputs = symbol._outputs
    stack = [outputs[k][0]] if k < len(outputs) else []
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if node.op is None:
            if node.name in wants:
                return True
        elif _uses_head_grad(node):
            stack.extend(src for src, _ in node.inputs)
    return False


# operators MXNet 1.9.1 registers without a gradient (found by binding each one for training)
_NON_DIFFERENTIABLE = frozenset(
    {
        "batch_take",
        "_shuffle",
        "argmax_channel",
        "_histogram",
        "khatri_rao",
        "all_finite",
        "multi_all_finite",
        "_contrib_allclose",
        "_contrib_getnnz",
        "_contrib_edge_id",
        "_contrib_dgl_adjacency",
        "_contrib_calibrate_entropy",
        "_grad_add",
        "preloaded_multi_sgd_update",
        "preloaded_multi_sgd_mom_update",
        "preloaded_multi_mp_sgd_update",
        "preloaded_multi_mp_sgd_mom_update",
    }
)
_LOSS_OUTPUTS = frozenset(
    {
        "SoftmaxOutput",
        "Softmax",
        "LinearRegressionOutput",
        "LogisticRegressionOutput",
        "MAERegressionOutput",
        "SVMOutput",
        "MakeLoss",
        "make_loss",
    }
)


def check_differentiable(symbol, grad_req) -> None:
    """Raise as MXNet's gradient pass does when a gradient reaches a non-differentiable
    operator (binding for training; zero-gradient operators such as ``BlockGrad`` stop it).

    Examples
    --------
    >>> x, i = mx.sym.Variable('x'), mx.sym.Variable('i')
    >>> check_differentiable(mx.sym.BlockGrad(mx.sym.batch_take(x, i)), ['write', 'null'])
    >>> check_differentiable(mx.sym.batch_take(x, i), ['write', 'null'])
    Traceback (most recent call last):
    ...
    mxnet.base.MXNetError: Operator batch_take is non-differentiable because it didn't \
register FGradient attribute.
    """
    if all(r == "null" for r in grad_req):
        return
    stack = [n for n, _ in symbol._outputs]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if id(node) in seen or node.op is None:
            continue
        seen.add(id(node))
        name = node.op.name
        if name in _NON_DIFFERENTIABLE:
            raise MXNetError(
                f"Operator {name} is non-differentiable because it didn't register "
                "FGradient attribute."
            )
        if name in _LOSS_OUTPUTS or _uses_head_grad(node):
            stack.extend(src for src, _ in node.inputs)
