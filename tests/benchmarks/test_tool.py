"""The benchmark tool (``python -m mxnet_benchmarks``) at tiny sizes: every model builds,
the small ones train/infer a batch, real-data and bad-input paths work. No timing asserts."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest
import torch

import mxnet as mx
from mxnet import recordio
from mxnet_benchmarks.benchmarks import main
from mxnet_benchmarks.model_factory import MODELS, ModelFactory

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# (model, input size, extra options): run 1 warm-up + 1 timed batch
RUN = [
    ("sensor_net", 0, []),
    ("deep_mnist", 0, ["--forward_only", "true"]),
    ("resnet18", 32, []),
    ("googlenet", 48, []),
    ("alexnet_owt", 68, ["--forward_only", "true", "--batch_size", "1"]),
    ("deep_speech2", 32, []),
    ("resnet50", 32, ["--forward_only", "true"]),
]
# the rest: build the symbol and infer every shape (small inputs where the net allows)
SHAPES = {"acoustic_model": 0, "alexnet": 68, "overfeat": 72, "vgg11": 32, "vgg13": 32,
          "vgg16": 32, "vgg19": 32, "resnet34": 32, "resnet101": 32,
          "resnet152": 32, "resnet200": 32, "resnet269": 32, "inception3": 76,
          "inception4": 76, "inception_resnet_v2": 76}


@pytest.fixture(autouse=True, scope="module")
def one_thread():
    n = torch.get_num_threads()
    torch.set_num_threads(1)  # 2 shared cores: extra threads only spin
    yield
    torch.set_num_threads(n)


def _tool(capsys, *argv):
    rc = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return rc, out, err


def _summary(out):
    lines = out.strip().splitlines()
    assert any(line.startswith("__results.time__=") for line in lines)
    assert any(line.startswith("__results.throughput__=") for line in lines)
    return json.loads(lines[-1])


def test_every_model_is_covered():
    assert set(MODELS) == {m for m, _, _ in RUN} | set(SHAPES)


@pytest.mark.parametrize("model,size,extra", RUN, ids=[r[0] for r in RUN])
def test_model_runs(capsys, model, size, extra):
    argv = ["--model", model, "--batch_size", 2, "--num_batches", 1,
            "--num_warmup_batches", 1] + extra
    if size:
        argv += ["--input_size", size]
    rc, out, err = _tool(capsys, *argv)
    assert rc == 0, err
    s = _summary(out)
    assert s["model"] == model and s["throughput"] > 0 and len(s["time_data"]) == 1
    assert s["phase"] == ("inference" if "--forward_only" in extra else "training")


@pytest.mark.parametrize("model", sorted(SHAPES))
def test_model_shapes(model):
    m = ModelFactory.get_model({"model": model, "phase": "training",
                                "input_size": SHAPES[model]})
    arg, out, aux = m.output.infer_shape(data=(2,) + tuple(m.input_shape),
                                         softmax_label=(2,))
    assert out == [(2, m.num_classes)]
    assert all(s is not None and all(d > 0 for d in s) for s in arg + aux)


def _write_rec(path, n, size=40):
    rng = np.random.RandomState(0)
    rec = recordio.MXIndexedRecordIO(path[:-4] + ".idx", path, "w")
    for i in range(n):
        img = rng.randint(0, 255, (size, size + 4, 3)).astype(np.uint8)
        rec.write_idx(i, recordio.pack_img(recordio.IRHeader(0, float(i % 10), i, 0), img,
                                           img_fmt=".png"))
    rec.close()


def test_data_dir_rec(capsys, tmp_path):
    _write_rec(str(tmp_path / "train.rec"), 6)
    # 4 batches of 2 from 6 images: the reader wraps around
    for where in (tmp_path, tmp_path / "train.rec"):
        rc, out, err = _tool(capsys, "--model", "resnet18", "--input_size", 32, "--batch_size",
                             2, "--num_batches", 3, "--num_warmup_batches", 1,
                             "--data_dir", where, "--preprocess_threads", 1)
        assert rc == 0, err
        assert _summary(out)["input_shape"] == [3, 32, 32]


def test_two_cpu_devices(capsys):
    rc, out, err = _tool(capsys, "--model", "sensor_net", "--num_cpu_devices", 2,
                         "--global_batch_size", 4, "--num_batches", 1, "--num_warmup_batches", 0)
    assert rc == 0, err
    s = _summary(out)
    assert s["num_devices"] == 2 and s["batch_size"] == 4


@pytest.mark.parametrize("argv,msg", [
    (["--model", "resnet7"], "unknown model 'resnet7'"),
    (["--model", "sensor_net", "--num_cpu_devices", 2, "--global_batch_size", 5],
     "does not divide evenly over 2 device(s)"),
    (["--model", "sensor_net", "--batch_size", 0], "--batch_size must be positive"),
    (["--model", "sensor_net", "--num_batches", 0], "--num_batches must be positive"),
    (["--model", "resnet18", "--data_dir", "/nonexistent/dir"], "does not exist"),
    (["--model", "sensor_net", "--device", "gpu", "--num_gpus", 99], "GPUs are visible"),
])
def test_bad_input(capsys, argv, msg):
    rc, out, err = _tool(capsys, *argv)
    assert rc != 0
    assert msg in err and "Traceback" not in err


def test_data_dir_without_rec(capsys, tmp_path):
    (tmp_path / "a.jpg").write_bytes(b"")
    rc, out, err = _tool(capsys, "--model", "resnet18", "--data_dir", tmp_path)
    assert rc == 2 and "contains no .rec files" in err
    _write_rec(str(tmp_path / "x.rec"), 2)
    rc, out, err = _tool(capsys, "--model", "sensor_net", "--data_dir", tmp_path)
    assert rc == 2 and "needs an image model" in err


def test_command_line_exit_status():
    env = dict(os.environ, PYTHONPATH=REPO, OMP_NUM_THREADS="1")
    p = subprocess.run([sys.executable, "-m", "mxnet_benchmarks", "--model", "nope"],
                       capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert p.returncode == 2
    assert "unknown model 'nope'" in p.stderr and "Traceback" not in p.stderr
    assert p.stdout == ""


def test_mxnet_is_ours():
    assert mx.__file__.startswith(os.path.join(REPO, "mxnet"))
