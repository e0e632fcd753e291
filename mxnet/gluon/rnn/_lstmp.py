"""Fused ``LSTM(projection_size=...)`` (LSTMP) computed step by step with NDArray ops:
the RNN operator here has no projection, so the layer runs the same recurrence as a stack
of ``gluon.contrib.rnn.LSTMPCell`` (gates, cell state, then ``r = W_hr h``)."""

from __future__ import annotations

from ... import ndarray as nd

__all__ = ["lstmp_forward"]


def _run_direction(x_steps, r, c, w, nh, npj):
    outs = []
    for x in x_steps:
        gates = (nd.FullyConnected(x, w["i2h_weight"], w["i2h_bias"], num_hidden=4 * nh)
                 + nd.FullyConnected(r, w["h2h_weight"], w["h2h_bias"], num_hidden=4 * nh))
        i, f, g, o = nd.split(gates, num_outputs=4, axis=1)
        c = nd.sigmoid(f) * c + nd.sigmoid(i) * nd.tanh(g)
        h = nd.sigmoid(o) * nd.tanh(c)
        r = nd.FullyConnected(h, w["h2r_weight"], num_hidden=npj, no_bias=True)
        outs.append(r)
    return outs, r, c


def lstmp_forward(layer, inputs, states, params):
    """``(outputs, [r_states, c_states])`` for a TNC ``inputs`` of an LSTMP layer."""
    nh, npj, dirs = layer._hidden_size, layer._projection_size, layer._dir
    r0, c0 = states
    steps = [inputs[t] for t in range(inputs.shape[0])]
    r_out, c_out = [], []
    for layer_i in range(layer._num_layers):
        results = []
        for d, name in enumerate(["l", "r"][:dirs]):
            k = layer_i * dirs + d
            w = {n: params[f"{name}{layer_i}_{n}"] for n in
                 ("i2h_weight", "h2h_weight", "i2h_bias", "h2h_bias", "h2r_weight")}
            seq = steps if d == 0 else steps[::-1]
            outs, r, c = _run_direction(seq, r0[k], c0[k], w, nh, npj)
            results.append(outs if d == 0 else outs[::-1])
            r_out.append(r)
            c_out.append(c)
        steps = [nd.concat(*parts, dim=1) if dirs == 2 else parts[0]
                 for parts in zip(*results)]
        if layer._dropout and layer_i != layer._num_layers - 1:
            steps = [nd.Dropout(s, p=layer._dropout) for s in steps]
    return nd.stack(*steps, axis=0), [nd.stack(*r_out, axis=0), nd.stack(*c_out, axis=0)]
