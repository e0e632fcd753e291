"""Embedding has no gradient for its indices: MXNet 1.9.1 raises at backward when one is
requested (the indices carry ``attach_grad`` or come from a parameter)."""

import numpy as np
import pytest

import mxnet as mx


def test_embedding_backward_refuses_index_gradient():
    w = mx.nd.ones((5, 3))
    w.attach_grad()
    d = mx.nd.array([1, 2])
    d.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Embedding(d, w, input_dim=5, output_dim=3)
    with pytest.raises(mx.MXNetError, match="Embedding layer doesn't support calculate data"):
        y.backward()


def test_embedding_weight_gradient_without_index_gradient():
    w = mx.nd.ones((5, 3))
    w.attach_grad()
    with mx.autograd.record():
        y = mx.nd.Embedding(mx.nd.array([1, 2, 1]), w, input_dim=5, output_dim=3)
    y.backward()
    np.testing.assert_array_equal(w.grad.asnumpy()[:, 0], [0, 2, 1, 0, 0])
