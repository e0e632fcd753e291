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


if __name__ == "__main__":
    main()
