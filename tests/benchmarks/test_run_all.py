"""The comparison suite's plumbing (no timings): ratios, the Markdown table, the PNG chart,
and the model driver that runs the tool's networks under any MXNet."""

import json
import os
import sys

import cv2
import pytest
import torch

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "benchmarks"))

import bench_models  # noqa: E402
import run_all  # noqa: E402

ROWS = [
    {"row": "`a+b` (1x1)", "unit": "us", "mxnet-ng": 10.0, "MXNet 1.9.1": 30.0,
     "PyTorch": 2.0, "vs MXNet": 3.0, "vs PyTorch": 0.2},
    {"row": "LeNet", "unit": "img/s", "mxnet-ng": 100.0, "MXNet 1.9.1": None,
     "PyTorch": 400.0, "vs MXNet": None, "vs PyTorch": 0.25},
]


def test_speedup_direction():
    assert run_all.speedup("us", 10.0, 30.0) == 3.0  # latency: peer/ng
    assert run_all.speedup("img/s", 100.0, 400.0) == 0.25  # rate: ng/peer
    assert run_all.speedup("us", None, 3.0) is None
    assert run_all.speedup("img/s", 5.0, 0.0) is None


def test_markdown_and_chart(tmp_path):
    meta = {"date": "2026-01-01 00:00 UTC", "machine": "test box", "command": "x",
            "threads": 1, "torch": torch.__version__, "elapsed": 1.0, "log": ["a note"]}
    md = tmp_path / "latest.md"
    run_all.write_markdown(str(md), ROWS, meta)
    text = md.read_text()
    assert "| `a+b` (1x1) | us | 10.0 | 30.0 | 2.0 | 3.00x | 0.20x |" in text
    assert "| LeNet | img/s | 100.0 | n/a | 400.0 | n/a | 0.25x |" in text
    assert "- a note" in text
    png = tmp_path / "latest.png"
    run_all.draw_chart(str(png), ROWS, "title")
    img = cv2.imread(str(png))
    assert img is not None and img.shape[0] > 100 and img.shape[1] > 500


def test_model_driver_json(capsys):
    n = torch.get_num_threads()
    try:
        rc = bench_models.main(["--json", "--threads", "1", "--model", "sensor_net",
                                "--batch_size", "2", "--num_batches", "1",
                                "--num_warmup_batches", "0"])
    finally:
        torch.set_num_threads(n)
    out = capsys.readouterr().out.strip().splitlines()
    assert rc == 0 and len(out) == 1
    s = json.loads(out[0])
    assert s["model"] == "sensor_net" and s["mxnet"].startswith(REPO)


def test_unknown_group(capsys):
    with pytest.raises(SystemExit) as e:
        run_all.main(["--only", "nd,nope"])
    assert e.value.code == 2 and "unknown --only group(s) nope" in capsys.readouterr().err
