"""``amp.convert_symbol`` / ``convert_model`` / ``convert_hybrid_block`` (private module)."""

from __future__ import annotations

from ..._dtype import CODE_TO_NAME, bfloat16
from ...context import gpu
from ._convert import reduce_precision

__all__ = ["convert_symbol", "convert_model", "convert_hybrid_block", "convert_bucketing_module"]


def _check(cond: bool, msg: str) -> None:
    if not cond:
        raise AssertionError(msg)


def _lists():
    from . import amp

    return amp


def convert_symbol(
    sym,
    target_dtype="float16",
    target_dtype_ops=None,
    fp32_ops=None,
    conditional_fp32_ops=None,
    excluded_sym_names=None,
    data_names=None,
    cast_optional_params=False,
):
    """Mixed-precision copy of a float32 symbol, with ``amp_cast``/``amp_multicast`` nodes.

    Parameters
    ----------
    sym : Symbol
        The float32 network.
    target_dtype : {'float16', 'bfloat16'}
        The low-precision type.
    target_dtype_ops, fp32_ops : list of str, optional
        Operators run in ``target_dtype`` / float32 (default: AMP's lists).
    conditional_fp32_ops : list of (str, str, list of str), optional
        ``(operator, parameter, values)`` run in float32 when the parameter is in values.
    excluded_sym_names : list of str, optional
        Node names kept in float32.
    data_names : list of str, optional
        The data inputs (default: the inputs without a ``__dtype__`` attribute).
    cast_optional_params : bool
        Whether parameters may be stored in the low-precision type when that saves a cast.

    Examples
    --------
    >>> import mxnet as mx
    >>> from mxnet.contrib import amp
    >>> fc = mx.sym.FullyConnected(mx.sym.var('x'), num_hidden=2, name='fc')
    >>> amp.convert_symbol(fc).get_internals().list_outputs()[:2]
    ['x', 'x_amp_cast_float16_output']
    """
    from ...symbol.symbol import Symbol

    amp = _lists()
    _check(isinstance(sym, Symbol), "First argument to convert_symbol should be Symbol")
    _check(
        target_dtype in ["float16", "bfloat16"],
        "Only target_dtype float16 and bfloat16 are supported currently",
    )
    target = bfloat16 if target_dtype == "bfloat16" else target_dtype
    if target_dtype_ops is not None:
        _check(isinstance(target_dtype_ops, list), "target_dtype_ops should be a list of strs")
    else:
        target_dtype_ops = amp.list_lp16_ops(target)
    if fp32_ops is not None:
        _check(isinstance(fp32_ops, list), "fp32_ops should be a list of strs")
    else:
        fp32_ops = amp.list_fp32_ops(target)
    if conditional_fp32_ops is not None:
        _check(isinstance(conditional_fp32_ops, list), "conditional_fp32_ops should be a list")
    else:
        conditional_fp32_ops = amp.list_conditional_fp32_ops(target)
    conditional: dict[str, dict[str, list[str]]] = {}
    cond_names = []
    for item in conditional_fp32_ops:
        _check(
            isinstance(item[0], str) and isinstance(item[1], str) and isinstance(item[2], list),
            "conditional_fp32_ops should be a list of (str, str, list of str)",
        )
        conditional.setdefault(item[0], {}).setdefault(item[1], []).extend(item[2])
        cond_names.append(item[0])
    if excluded_sym_names is not None:
        _check(isinstance(excluded_sym_names, list), "excluded_sym_names should be a list of strs")
    else:
        excluded_sym_names = []
    original_cond = [c[0] for c in amp.list_conditional_fp32_ops(target)]
    for a, b, what in (
        (target_dtype_ops, fp32_ops, "target_dtype_ops and fp32_ops"),
        (target_dtype_ops, cond_names, "target_dtype_ops and conditional_fp32_ops"),
        (cond_names, fp32_ops, "fp32_ops and conditional_fp32_ops"),
    ):
        common = set(a) & set(b)
        _check(not common, f"Ops cannot be in two or more lists. Common ops in {what} {common}")
    combined = set(list(target_dtype_ops) + list(fp32_ops) + cond_names)
    allowed = set(
        amp.list_lp16_ops(target)
        + amp.list_fp32_ops(target)
        + amp.list_lp16_fp32_ops(target)
        + original_cond
    )
    illegal = combined - allowed
    _check(
        not illegal,
        f"""Can only choose ops from one of the three lists
                            for lp16_ops and fp32_ops
                            1. amp.list_lp16_ops(target_dtype)
                            2. amp.list_fp32_ops(target_dtype)
                            3. amp.list_lp16_fp32_ops(target_dtype)
                            4. amp.list_conditional_fp32_ops(target_dtype)
                            Op {illegal} not in any of them""",
    )
    widest = amp.list_widest_type_cast(target)
    attr_dict = sym.attr_dict()
    inputs = sym.list_inputs()
    if data_names is None:
        data_names = [n for n in inputs if "__dtype__" not in attr_dict.get(n, {})]
    model_params = set(inputs) - set(data_names)
    return reduce_precision(
        sym,
        target_dtype,
        target_dtype_ops,
        fp32_ops,
        widest,
        conditional,
        excluded_sym_names,
        list(data_names),
        model_params,
        bool(cast_optional_params),
    )


def _cast_to_attr(sym, name: str, arr, attr_dict):
    code = attr_dict.get(name, {}).get("__dtype__")
    if code is None or code == "-1":
        return arr
    want = CODE_TO_NAME[int(code)]
    if arr.dtype == (bfloat16 if want == "bfloat16" else want):
        return arr
    if want == "bfloat16":
        from ... import ndarray as nd

        return nd.amp_cast(arr, dtype="bfloat16")
    return arr.astype(want)


def convert_model(
    sym,
    arg_params,
    aux_params,
    target_dtype="float16",
    target_dtype_ops=None,
    fp32_ops=None,
    conditional_fp32_ops=None,
    excluded_sym_names=None,
    cast_optional_params=False,
):
    """Mixed-precision copy of a float32 model: ``(symbol, arg_params, aux_params)``.

    Parameters are cast to the dtype the converted symbol gives them (see
    :func:`convert_symbol` for the other arguments). ``arg_params``/``aux_params`` are
    updated in place and returned.

    Examples
    --------
    >>> sym, args, auxs = amp.convert_model(sym, args, auxs,        # doctest: +SKIP
    ...                                     target_dtype='bfloat16')
    """
    from ...symbol.symbol import Symbol

    if excluded_sym_names is None:
        excluded_sym_names = []
    _check(
        target_dtype in ["float16", "bfloat16"],
        "Only target_dtype float16 and bfloat16 are supported currently",
    )
    _check(isinstance(sym, Symbol), "First argument to convert_model should be Symbol")
    _check(
        isinstance(arg_params, dict),
        "Second argument to convert_model should be a dict of name to ndarray",
    )
    _check(
        isinstance(aux_params, dict),
        "Third argument to convert_model should be a dict of name to ndarray",
    )
    param_names = list(arg_params) + list(aux_params)
    data_names = [n for n in sym.list_inputs() if n not in set(param_names)]
    sym = convert_symbol(
        sym,
        target_dtype,
        target_dtype_ops,
        fp32_ops,
        conditional_fp32_ops,
        excluded_sym_names,
        data_names,
        cast_optional_params,
    )
    attr_dict = sym.attr_dict()
    for name in sym.list_arguments():
        if name in arg_params:
            arg_params[name] = _cast_to_attr(sym, name, arg_params[name], attr_dict)
    for name in sym.list_auxiliary_states():
        if name in aux_params:
            aux_params[name] = _cast_to_attr(sym, name, aux_params[name], attr_dict)
    return sym, arg_params, aux_params


def convert_hybrid_block(
    block,
    target_dtype="float16",
    target_dtype_ops=None,
    fp32_ops=None,
    conditional_fp32_ops=None,
    excluded_sym_names=None,
    ctx=gpu(0),
    cast_optional_params=False,
):
    """Mixed-precision ``SymbolBlock`` from a hybridized block that has run forward once.

    Parameters
    ----------
    block : HybridBlock
        The float32 block (``hybridize()`` then one forward call first).
    ctx : Context
        Where the new block's parameters live.

    Other arguments are those of :func:`convert_symbol`.

    Examples
    --------
    >>> net.hybridize(); net(x)                                     # doctest: +SKIP
    >>> net16 = amp.convert_hybrid_block(net, 'bfloat16', ctx=mx.cpu())  # doctest: +SKIP
    """
    from ...gluon import HybridBlock, SymbolBlock

    _check(isinstance(block, HybridBlock), "block input should be a HybridBlock")
    graph = getattr(block, "_cached_graph", None)
    if not graph:
        raise RuntimeError(
            "Please first call block.hybridize() and then run forward with "
            "this block at least once before calling export."
        )
    inputs, sym = graph
    converted = convert_symbol(
        sym,
        target_dtype,
        target_dtype_ops,
        fp32_ops,
        conditional_fp32_ops,
        excluded_sym_names,
        data_names=[i.name for i in inputs],
        cast_optional_params=cast_optional_params,
    )
    arg_names = set(converted.list_arguments())
    aux_names = set(converted.list_auxiliary_states())
    attr_dict = converted.attr_dict()
    arrays = {}
    for name, param in block.collect_params().items():
        if name in arg_names:
            arrays["arg:" + name] = _cast_to_attr(converted, name, param._reduce(), attr_dict)
        else:
            _check(name in aux_names, "")
            arrays["aux:" + name] = _cast_to_attr(converted, name, param._reduce(), attr_dict)
    ret = SymbolBlock(converted, inputs)
    for key, param in ret.collect_params().items():
        for kind in ("arg:", "aux:"):
            arr = arrays.get(kind + key)
            if arr is not None and param.dtype != arr.dtype:
                param.cast(arr.dtype)
    ret.collect_params().load_dict(arrays, ctx=ctx)
    return ret


def convert_bucketing_module(
    bucketing_mod,
    target_dtype="float16",
    target_dtype_ops=None,
    fp32_ops=None,
    conditional_fp32_ops=None,
    excluded_sym_names=None,
    cast_optional_params=False,
):
    """Mixed-precision copy of a ``BucketingModule`` (every bucket's symbol converted)."""
    from ...module import BucketingModule

    _check(
        isinstance(bucketing_mod, BucketingModule), "module should be instance of bucketing module"
    )
    _check(len(bucketing_mod._buckets) > 0, "Bucketing Module should not be empty")
    _check(
        bucketing_mod.params_initialized,
        "bucketing_mod params should be initialized for mixed precision conversion",
    )
    arg_params = bucketing_mod._curr_module._arg_params
    aux_params = bucketing_mod._curr_module._aux_params
    sym_dict = {}
    res_args, res_aux = arg_params, aux_params
    for key, val in bucketing_mod._buckets.items():
        sym_dict[key], res_args, res_aux = convert_model(
            val._symbol,
            arg_params,
            aux_params,
            target_dtype=target_dtype,
            target_dtype_ops=target_dtype_ops,
            fp32_ops=fp32_ops,
            conditional_fp32_ops=conditional_fp32_ops,
            excluded_sym_names=excluded_sym_names,
            cast_optional_params=cast_optional_params,
        )
    orig_gen, default_key = bucketing_mod._sym_gen, bucketing_mod._default_bucket_key
    _, data_names, label_names = orig_gen(default_key)

    def sym_gen(key):
        # converted buckets keep the default bucket's input names; new keys stay float32
        if key in sym_dict:
            return sym_dict[key], data_names, label_names
        return orig_gen(key)

    kwargs = dict(getattr(bucketing_mod, "_kwargs", {}))  # Module arguments of every bucket
    kwargs.pop("logger", None)
    return BucketingModule.load_dict(
        sym_dict,
        sym_gen=sym_gen,
        arg_params=res_args,
        aux_params=res_aux,
        default_bucket_key=default_key,
        logger=bucketing_mod.logger,
        **kwargs,
    )
