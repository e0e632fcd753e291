"""``mx.profiler``: MXNet's profiler interface over ``torch.profiler``.

``set_config(filename=...)``, ``set_state('run')`` ... ``set_state('stop')`` and ``dump()``
write a Chrome ``trace_event`` JSON file (open it in chrome://tracing or Perfetto);
``dumps()`` returns the aggregate table.
"""

from __future__ import annotations

import contextlib
import os

from .base import MXNetError

__all__ = ["set_config", "set_state", "dump", "dumps", "pause", "resume", "scope", "Domain",
           "Task", "Frame", "Event", "Counter", "Marker", "profiler_set_config",
           "profiler_set_state", "dump_profile"]

_config = {"filename": "profile.json", "aggregate_stats": False}
_prof = None
_state = "stop"


def set_config(**kwargs) -> None:
    """Set profiler options (``filename``, ``profile_all``, ``aggregate_stats``...)."""
    known = {"filename", "profile_all", "profile_symbolic", "profile_imperative",
             "profile_memory", "profile_api", "contiguous_dump", "dump_period",
             "aggregate_stats", "profile_process", "continuous_dump"}
    for k in kwargs:
        if k not in known:
            raise MXNetError(f"profiler.set_config: unknown option '{k}'")
    _config.update(kwargs)


def set_state(state: str = "stop", profile_process: str = "worker") -> None:
    """Start (``'run'``) or stop (``'stop'``) profiling."""
    global _prof, _state
    if state not in ("run", "stop"):
        raise MXNetError(f"profiler.set_state: state must be 'run' or 'stop', got {state!r}")
    import torch.profiler as tp

    if state == "run" and _state != "run":
        acts = [tp.ProfilerActivity.CPU]
        import torch

        if torch.cuda.is_available():
            acts.append(tp.ProfilerActivity.CUDA)
        _prof = tp.profile(activities=acts,
                           profile_memory=bool(_config.get("profile_memory", False)),
                           record_shapes=True)
        _prof.__enter__()
    elif state == "stop" and _state == "run":
        _prof.__exit__(None, None, None)
    _state = state


def dump(finished: bool = True, profile_process: str = "worker") -> None:
    """Write the collected trace to the configured file (Chrome trace_event JSON)."""
    if _prof is None:
        raise MXNetError("profiler.dump: nothing was profiled (call set_state('run') first)")
    if _state == "run":
        set_state("stop")
    fname = _config["filename"]
    tmp = f"{fname}.tmp{os.getpid()}"
    _prof.export_chrome_trace(tmp)
    os.replace(tmp, fname)


def dumps(reset: bool = False, format: str = "table", sort_by: str = "total",
          ascending: bool = False) -> str:
    """Return aggregate statistics of the profiled operators as a table."""
    if _prof is None:
        return ""
    key = {"total": "cpu_time_total", "avg": "cpu_time", "min": "cpu_time",
           "max": "cpu_time", "count": "count"}.get(sort_by, "cpu_time_total")
    return _prof.key_averages().table(sort_by=key)


def pause(profile_process: str = "worker") -> None:
    set_state("stop")


def resume(profile_process: str = "worker") -> None:
    set_state("run")


profiler_set_config = set_config
profiler_set_state = set_state
dump_profile = dump


class Domain:
    """A named group of profiling objects."""

    def __init__(self, name: str):
        self.name = name

    def __str__(self):
        return self.name

    def new_task(self, name):
        return Task(self, name)

    def new_frame(self, name):
        return Frame(self, name)

    def new_counter(self, name, value=None):
        return Counter(self, name, value)

    def new_marker(self, name):
        return Marker(self, name)


class _Range:
    def __init__(self, domain, name):
        self.domain = domain
        self.name = name
        self._rf = None

    def start(self):
        import torch

        self._rf = torch.autograd.profiler.record_function(f"{self.domain}::{self.name}")
        self._rf.__enter__()

    def stop(self):
        if self._rf is not None:
            self._rf.__exit__(None, None, None)
            self._rf = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def __str__(self):
        return self.name


class Task(_Range):
    """A named duration in a domain."""


class Frame(_Range):
    """A named frame duration in a domain."""


class Event(_Range):
    """A named duration without a domain."""

    def __init__(self, name):
        super().__init__("event", name)


class Counter:
    """A named integer counter."""

    def __init__(self, domain, name, value=None):
        self.domain, self.name, self.value = domain, name, value or 0

    def set_value(self, value):
        self.value = value

    def increment(self, delta=1):
        self.value += delta

    def decrement(self, delta=1):
        self.value -= delta

    def __iadd__(self, v):
        self.increment(v)
        return self

    def __isub__(self, v):
        self.decrement(v)
        return self

    def __str__(self):
        return self.name


class Marker:
    """An instant marker."""

    def __init__(self, domain, name):
        self.domain, self.name = domain, name

    def mark(self, scope="process"):
        import torch

        with torch.autograd.profiler.record_function(f"{self.domain}::{self.name}"):
            pass


@contextlib.contextmanager
def scope(name="<unk>:", append_mode=False):
    """Name the operators run inside this scope (shown in the trace)."""
    import torch

    with torch.autograd.profiler.record_function(name):
        yield
