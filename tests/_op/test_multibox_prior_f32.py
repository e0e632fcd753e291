"""MultiBoxPrior computes anchors in float32 step by step as MXNet 1.9.1 (bit-exact).

mxnet-ssd trains with MultiBoxTarget, whose bipartite matching picks the anchor of largest
IoU: an anchor one ulp off flips IoU ties and with them the class targets of a batch.
Golden values from MXNet 1.9.1.
"""

import numpy as np

import mxnet as mx


def test_prior_ratio_anchors_bit_exact():
    out = mx.nd.contrib.MultiBoxPrior(
        mx.nd.zeros((1, 1, 1, 1)), sizes=(0.54, 0.619), ratios=(1, 2, 0.5)
    ).asnumpy()[0]
    want = np.array(
        [
            [0.22999998927116394, 0.22999998927116394, 0.7699999809265137, 0.7699999809265137],
            [0.19049999117851257, 0.19049999117851257, 0.809499979019165, 0.809499979019165],
            [0.11816233396530151, 0.30908113718032837, 0.8818376660346985, 0.6909188628196716],
            [0.30908116698265076, 0.11816230416297913, 0.6909188032150269, 0.8818377256393433],
        ],
        dtype=np.float32,
    )
    assert (out == want).all()


def test_prior_steps_offsets_first_ratio_bit_exact():
    out = mx.nd.contrib.MultiBoxPrior(
        mx.nd.zeros((1, 1, 3, 5)),
        sizes=(0.2,),
        ratios=(0.7, 1.3),
        steps=(0.07, 0.11),
        offsets=(0.3, 0.6),
    ).asnumpy()[0]
    assert out.shape == (30, 4)
    want = np.array(
        [
            [0.015800397843122482, -0.0985228568315506, 0.11619959771633148, 0.14052286744117737],
            [-0.0024105310440063477, -0.06670579314231873, 0.1344105303287506, 0.1087058037519455],
            [0.12580040097236633, -0.0985228568315506, 0.22619959712028503, 0.14052286744117737],
            [0.1075894683599472, -0.06670579314231873, 0.24441052973270416, 0.1087058037519455],
            [0.2358003854751587, -0.0985228568315506, 0.3361995816230774, 0.14052286744117737],
            [0.21758945286273956, -0.06670579314231873, 0.3544105291366577, 0.1087058037519455],
        ],
        dtype=np.float32,
    )
    assert (out[:6] == want).all()
