"""Process-wide run state read by kernels: training flag, recording flag, RNG."""

from __future__ import annotations

import threading


class _State(threading.local):
    def __init__(self):
        self.is_train = False
        self.is_recording = False


state = _State()
