"""Model zoo: MXNet 1.9.1's parameter names and shapes for every model, its outputs with
deterministic weights for several, and the pretrained-file path."""

import gzip
import hashlib
import json
import os

import numpy as np
import pytest

import mxnet as mx
from mxnet import name as mx_name
from mxnet.gluon.model_zoo import model_store, vision

GOLD = os.path.join(os.path.dirname(__file__), "..", "compat", "golden", "gluon")
with gzip.open(os.path.join(GOLD, "zoo_params.json.gz"), "rt") as _f:
    NAMES = json.load(_f)
OUTS = dict(np.load(os.path.join(GOLD, "zoo_outputs.npz")))
RUN_SIZE = {
    "resnet18_v1": 64,
    "resnet50_v2": 64,
    "mobilenet0.25": 64,
    "mobilenetv2_0.25": 64,
    "squeezenet1.1": 224,
    "densenet121": 224,
    "vgg11_bn": 224,
    "alexnet": 224,
    "inceptionv3": 299,
}
FAST = ["resnet18_v1", "mobilenet0.25", "mobilenetv2_0.25"]
# heavier models: run with MXNET_TEST_SLOW=1 (each takes seconds on a small CPU)
SLOW = sorted(set(RUN_SIZE) - set(FAST))


def zoo_weights(net):
    for i, p in enumerate(net.collect_params().values()):
        n = int(np.prod(p.shape))
        w = np.sin(np.arange(n, dtype=np.float64) * 0.37 + i).reshape(p.shape)
        if p.name.endswith("running_var"):
            w = np.abs(w) + 0.5
        elif p.name.endswith(("gamma", "running_mean", "beta", "bias")):
            w = w * 0.1 + (1.0 if p.name.endswith("gamma") else 0.0)
        else:
            w = w / np.sqrt(max(1, n // p.shape[0]))
        p.set_data(mx.nd.array(w.astype(np.float32)))


@pytest.mark.parametrize("name", sorted(NAMES))
def test_parameter_names_and_shapes(name):
    with mx_name.NameManager():
        net = vision.get_model(name)
    want = NAMES[name]
    assert net.prefix == want["prefix"]
    got = [[k[len(net.prefix) :], list(v.shape)] for k, v in net.collect_params().items()]
    assert got == want["params"]


@pytest.mark.parametrize(
    "name",
    FAST
    + [
        pytest.param(
            n,
            marks=pytest.mark.skipif(
                not os.environ.get("MXNET_TEST_SLOW"), reason="slow: set MXNET_TEST_SLOW=1"
            ),
        )
        for n in SLOW
    ],
)
def test_outputs_match_mxnet(name):
    size = RUN_SIZE[name]
    x = mx.nd.array(np.cos(np.arange(3 * size * size) * 0.01).reshape(1, 3, size, size))
    net = vision.get_model(name)
    net.initialize()
    net(x)
    zoo_weights(net)
    np.testing.assert_allclose(net(x).asnumpy(), OUTS[name], rtol=1e-4, atol=1e-4)
    net.hybridize()
    np.testing.assert_allclose(net(x).asnumpy(), OUTS[name], rtol=1e-4, atol=1e-4)


def test_get_model_errors_and_pretrained_path(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="Model foo is not supported"):
        vision.get_model("foo")
    assert model_store.short_hash("resnet18_v1") == "a0666292"
    with pytest.raises(ValueError, match="Pretrained model for nope is not available"):
        model_store.short_hash("nope")
    # a cached file with the published SHA-1 is used without any download
    net = vision.get_model("mobilenet0.25", classes=4)
    net.initialize()
    net(mx.nd.ones((1, 3, 32, 32)))
    f = tmp_path / "weights.params"
    net.save_parameters(str(f))
    sha1 = hashlib.sha1(f.read_bytes()).hexdigest()
    monkeypatch.setitem(model_store._model_sha1, "mobilenet0.25", sha1)
    os.rename(f, tmp_path / f"mobilenet0.25-{sha1[:8]}.params")
    net2 = vision.get_model("mobilenet0.25", classes=4, pretrained=True, root=str(tmp_path))
    np.testing.assert_array_equal(
        net2.output.weight.data().asnumpy(), net.output.weight.data().asnumpy()
    )
    # otherwise MXNet's download path runs; with no reachable repo it fails clearly
    monkeypatch.setenv("MXNET_GLUON_REPO", "http://127.0.0.1:9/")
    with pytest.raises(OSError, match="/gluon/models/resnet18_v1-a0666292.zip"):
        vision.get_model("resnet18_v1", pretrained=True, root=str(tmp_path / "m"))


def test_model_zoo_defaults_and_messages():
    import inspect

    root = os.path.join(mx.base.data_dir(), "models")
    for fn in (vision.get_resnet, vision.get_vgg, vision.inception_v3, vision.alexnet):
        params = inspect.signature(fn).parameters
        assert params["root"].default == root
        assert params["ctx"].default == mx.cpu()
    assert inspect.signature(model_store.purge).parameters["root"].default == root
    assert not hasattr(vision, "RELU6") and not hasattr(vision, "get_squeezenet")
    with pytest.raises(AssertionError, match=r"Options are dict_keys\(\[18, 34"):
        vision.get_resnet(1, 19)
    with pytest.raises(AssertionError, match="version 2.0:1.0 or 1.1 expected"):
        vision.SqueezeNet("2.0")
