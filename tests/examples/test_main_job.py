"""The main job (examples/train_digits.py) runs end to end at a small size, so it cannot rot."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_main_job_trains_exports_and_reloads(tmp_path):
    env = dict(os.environ, PYTHONPATH=ROOT)
    p = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "train_digits.py"),
                        "--epochs", "3", "--lr", "0.01", "--min-acc", "0.5",
                        "--out", str(tmp_path)], env=env, capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    out = p.stdout
    assert "Epoch  3/3" in out and "img/s" in out
    assert "give the same predictions" in out
    assert (tmp_path / "digits-lenet-symbol.json").exists()
    assert (tmp_path / "digits-lenet-0000.params").exists()
    assert (tmp_path / "training_curves.png").stat().st_size > 1000
