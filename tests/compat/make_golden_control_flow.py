"""Run ONCE under the oracle (real MXNet 1.9.1): writes tests/compat/golden/control_flow/."""

import os

import numpy as np

import mxnet as mx

OUT = os.path.join(os.path.dirname(__file__), "golden", "control_flow")


def main():
    os.makedirs(OUT, exist_ok=True)

    def body(d, s):
        out = d * s[0] + mx.sym.var("w")
        return out, [out * 2]

    outs, states = mx.sym.contrib.foreach(body, mx.sym.var("data"), [mx.sym.var("init")])
    g = mx.sym.Group([outs] + states)
    g.save(os.path.join(OUT, "foreach-symbol.json"))
    args = {"data": mx.nd.arange(6).reshape((3, 2)), "init": mx.nd.ones((2,)),
            "w": mx.nd.ones((2,))}
    res = g.bind(mx.cpu(), args).forward()
    np.savez(os.path.join(OUT, "foreach.npz"), out0=res[0].asnumpy(), out1=res[1].asnumpy())

    i, s, w = mx.sym.var("i"), mx.sym.var("s"), mx.sym.var("w")
    outs, vars_ = mx.sym.contrib.while_loop(
        lambda i, s: i < 3, lambda i, s: ([i * w, s], [i + 1, s + i]), [i, s],
        max_iterations=5)
    g = mx.sym.Group(outs + vars_)
    g.save(os.path.join(OUT, "while-symbol.json"))
    res = g.bind(mx.cpu(), {"i": mx.nd.array([0]), "s": mx.nd.array([1]),
                            "w": mx.nd.array([2])}).forward()
    # rows past the last iteration are uninitialised memory in MXNet: keep the first 3
    np.savez(os.path.join(OUT, "while.npz"), out0=res[0].asnumpy()[:3],
             out1=res[1].asnumpy()[:3], out2=res[2].asnumpy(), out3=res[3].asnumpy())
    a, b = mx.sym.var("a"), mx.sym.var("b")
    r = mx.sym.contrib.cond(a > b, lambda: a * w, lambda: [b - a])
    r.save(os.path.join(OUT, "cond-symbol.json"))
    vals = []
    for av in (1, 4):
        ex = r.bind(mx.cpu(), {"a": mx.nd.array([av]), "b": mx.nd.array([3]),
                               "w": mx.nd.array([5])})
        vals.append(ex.forward()[0].asnumpy())
    np.savez(os.path.join(OUT, "cond.npz"), small=vals[0], big=vals[1])


if __name__ == "__main__":
    main()
