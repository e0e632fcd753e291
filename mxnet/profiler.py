"""``mx.profiler``: MXNet's profiler interface.

While the profiler runs (``set_state('run')``), imperative operators, tasks, frames, events,
counters and markers are recorded. ``dump()`` writes them as a Chrome ``trace_event`` JSON
file (chrome://tracing, Perfetto); with ``aggregate_stats=True`` ``dumps()`` returns the
per-domain statistics as a table or JSON (times in ms).
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import threading
import time
import warnings

from .base import MXNetError

__all__ = [
    "set_config",
    "set_state",
    "dump",
    "dumps",
    "pause",
    "resume",
    "scope",
    "Domain",
    "Task",
    "Frame",
    "Event",
    "Counter",
    "Marker",
    "profiler_set_config",
    "profiler_set_state",
    "dump_profile",
]

_KNOWN = (
    "profile_all",
    "profile_symbolic",
    "profile_imperative",
    "profile_memory",
    "profile_api",
    "filename",
    "continuous_dump",
    "dump_period",
    "aggregate_stats",
    "profile_process",
    "contiguous_dump",
)
_SORT_KEYS = {"total": "Total", "avg": "Avg", "min": "Min", "max": "Max", "count": "Count"}

_config: dict = {"filename": "profile.json", "aggregate_stats": False}
_state = "stop"
_paused = False
_events: list = []
_stats: dict = {}  # domain -> name -> [count, total_ms, min_ms, max_ms]
_lock = threading.Lock()
_t0 = time.perf_counter()
_exit_dump = [False, False]  # [exit handler registered, a final dump() happened]


def _active() -> bool:
    return _state == "run" and not _paused


def _now_us() -> float:
    return (time.perf_counter() - _t0) * 1e6


def _record(
    domain: str, name: str, start_us: float, end_us: float, kind: str = "X", value=None
) -> None:
    """Store one duration (``X``), instant marker (``n``, ``value`` = scope letter) or counter
    value (``C``) in the trace and the aggregate statistics."""
    if not _active():
        return
    with _lock:
        ev = {
            "name": name,
            "cat": domain,
            "ph": kind,
            "ts": start_us,
            "pid": os.getpid(),
            "tid": threading.get_ident() % (1 << 31),
        }
        if kind == "X":
            ev["dur"] = end_us - start_us
        elif kind == "C":
            ev["args"] = {name: value}
        elif kind == "n":
            ev["s"] = value
        _events.append(ev)
        if _config.get("aggregate_stats"):
            dom = _stats.setdefault(domain, {})
            if kind == "n":
                return
            if kind == "C":  # MXNet: Total is the current value, Min/Max over the values
                ms = value / 1000.0
            else:
                ms = round(end_us - start_us) / 1000.0  # MXNet keeps whole microseconds
            s = dom.get(name)
            if s is None:
                dom[name] = [1, ms, ms, ms]
            else:
                s[0] += 1
                s[1] = ms if kind == "C" else s[1] + ms
                s[2] = min(s[2], ms)
                s[3] = max(s[3], ms)


_custom_scope = threading.local()  # name of the Custom operator whose Python code runs


@contextlib.contextmanager
def _operator_span(name: str):
    scope = getattr(_custom_scope, "name", None)
    if name == "Custom" and scope is None:  # MXNet times it as "<op_type>::pure_python"
        yield
        return
    start = _now_us()
    try:
        yield
    finally:
        if scope is None:
            _record("operator", name, start, _now_us())
        else:  # operators run inside a CustomOp's forward/backward
            _record("Custom Operator", f"{scope}::{name}", start, _now_us())


@contextlib.contextmanager
def _custom_op_span(name: str):
    """Time the Python code of a CustomOp (``MySigmoid`` / ``_backward_MySigmoid``) in the
    ``Custom Operator`` domain; operators it calls are recorded as ``<name>::<op>``."""
    outer = getattr(_custom_scope, "name", None)
    _custom_scope.name = name
    start = _now_us()
    try:
        yield
    finally:
        _custom_scope.name = outer
        _record("Custom Operator", f"{name}::pure_python", start, _now_us())


def _install_hook() -> None:
    from .ndarray import _invoke

    on = _active() and (_config.get("profile_imperative") or _config.get("profile_all"))
    _invoke._profile_hook = _operator_span if on else None


def set_config(**kwargs) -> None:
    """Set profiler options: ``filename``, ``profile_all``, ``profile_symbolic``,
    ``profile_imperative``, ``profile_memory``, ``profile_api``, ``continuous_dump``,
    ``aggregate_stats``...

    Examples
    --------
    >>> mx.profiler.set_config(profile_all=True, filename='trace.json')
    """
    for k in kwargs:
        if k not in _KNOWN:
            raise MXNetError(f"Cannot find argument '{k}', Possible Arguments: {', '.join(_KNOWN)}")
    _config.update(kwargs)
    _install_hook()


def set_state(state: str = "stop", profile_process: str = "worker") -> None:
    """Start (``'run'``) or stop (``'stop'``) profiling.

    Examples
    --------
    >>> mx.profiler.set_state('run')
    """
    global _state, _paused
    {"run": 1, "stop": 0}[state]  # KeyError for anything else, like MXNet
    if state == "run" and _state == "stop":
        _paused = False  # MXNet: a new run records again after pause() and stop
    _state = state
    if state == "run" and not _exit_dump[0]:
        _exit_dump[0] = True  # MXNet writes an undumped trace when the process ends
        atexit.register(_dump_at_exit)
    _install_hook()


def pause(profile_process: str = "worker") -> None:
    """Stop recording until :func:`resume` (the profiler stays configured)."""
    global _paused
    _paused = True
    _install_hook()


def resume(profile_process: str = "worker") -> None:
    """Resume recording after :func:`pause`."""
    global _paused
    _paused = False
    _install_hook()


def dump(finished: bool = True, profile_process: str = "worker") -> None:
    """Write the recorded trace to the configured file (Chrome trace_event JSON).

    With ``finished=False`` (continuous dumping) later calls rewrite the file with
    everything recorded so far.

    Examples
    --------
    >>> mx.profiler.dump()
    """
    fname = _config.get("filename", "profile.json")
    if finished:
        _exit_dump[1] = True
    with _lock:
        payload = {"traceEvents": list(_events), "displayTimeUnit": "ms"}
    tmp = f"{fname}.tmp{os.getpid()}"
    with open(tmp, "w") as f:
        json.dump(payload, f)
    os.replace(tmp, fname)


def _dump_at_exit() -> None:
    """At exit, write the trace if the profiler ran and no final ``dump()`` came (MXNet's
    profiler dumps itself when the process ends)."""
    if _exit_dump[1] or not _events:
        return
    with contextlib.suppress(OSError):
        dump()


def _rows(domain_stats: dict, sort_by: str, ascending: bool) -> list:
    rows = []
    for name, (count, total, mn, mx_) in domain_stats.items():
        rows.append(
            (
                name,
                {
                    "Count": count,
                    "Total": round(total, 4),
                    "Min": round(mn, 4),
                    "Max": round(mx_, 4),
                    "Avg": round(total / count, 4),
                },
            )
        )
    key = _SORT_KEYS[sort_by]
    rows.sort(key=lambda r: r[1][key], reverse=not ascending)
    return rows


def dumps(
    reset: bool = False, format: str = "table", sort_by: str = "total", ascending: bool = False
) -> str:
    """Aggregate statistics (``aggregate_stats=True``) as a table or a JSON string.

    Examples
    --------
    >>> stats = json.loads(mx.profiler.dumps(format='json'))  # doctest: +SKIP
    >>> sorted(stats)  # doctest: +SKIP
    ['Memory', 'Time', 'Unit']
    """
    assert format in ("table", "json"), (
        f"Invalid value provided for format: {format}. Support: 'table', 'json'"
    )
    assert sort_by in _SORT_KEYS, (
        f"Invalid value provided for sort_by: {sort_by}. "
        "Support: 'total', 'avg', 'min', 'max', 'count'"
    )
    with _lock:
        domains = {d: _rows(s, sort_by, ascending) for d, s in sorted(_stats.items())}
        if reset:
            _stats.clear()
    if format == "json":
        out = {
            "Time": {d: dict(rows) for d, rows in domains.items()},
            "Memory": {},
            "Unit": {"Time": "ms", "Memory": "kB"},
        }
        return json.dumps(out, indent=4)
    lines = ["", "Profile Statistics:", "\tNote the difference in units for different entries."]
    heads = ("Name", "Total Count", "Time (ms)", "Min Time (ms)", "Max Time (ms)", "Avg Time (ms)")
    for d, rows in domains.items():
        lines += [
            d,
            "=================",
            f"{heads[0]:<30}{heads[1]:>11}" + "".join(f"{h:>17}" for h in heads[2:]),
            f"{'----':<30}{'-' * 11:>11}" + "".join(f"{'-' * len(h):>17}" for h in heads[2:]),
        ]
        for name, s in rows:
            lines.append(
                f"{name:<30}{s['Count']:>11}"
                + "".join(f"{s[k]:>17.4f}" for k in ("Total", "Min", "Max", "Avg"))
            )
        lines.append("")
    return "\n".join(lines) + "\n"


def profiler_set_config(mode: str = "symbolic", filename: str = "profile.json") -> None:
    """Deprecated: use :func:`set_config` (``mode`` is ``'symbolic'`` or ``'all'``)."""
    warnings.warn(
        "profiler.profiler_set_config() is deprecated. Please use profiler.set_config() instead",
        stacklevel=2,
    )
    set_config(profile_symbolic=True, profile_all=mode == "all", filename=filename)


def profiler_set_state(state: str = "stop") -> None:
    """Deprecated: use :func:`set_state`."""
    warnings.warn(
        "profiler.profiler_set_state() is deprecated. Please use profiler.set_state() instead",
        stacklevel=2,
    )
    set_state(state)


def dump_profile() -> None:
    """Deprecated: use :func:`dump`."""
    warnings.warn(
        "profiler.dump_profile() is deprecated. Please use profiler.dump() instead", stacklevel=2
    )
    dump(True)


class Domain:
    """A named group of profiling objects.

    Examples
    --------
    >>> task = mx.profiler.Domain('mine').new_task('step')
    """

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
    """A start/stop duration recorded in ``domain``."""

    def __init__(self, domain, name):
        self.domain = domain
        self.name = name
        self._start = None

    def start(self):
        self._start = _now_us()

    def stop(self):
        if self._start is not None:
            _record(str(self.domain), self.name, self._start, _now_us())
            self._start = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *exc):
        self.stop()

    def __str__(self):
        return self.name


class Task(_Range):
    """A named duration in a domain.

    Examples
    --------
    >>> t = mx.profiler.Task(mx.profiler.Domain('d'), 'work'); t.start(); t.stop()
    """


class Frame(_Range):
    """A named frame (e.g. one iteration) in a domain.

    Examples
    --------
    >>> f = mx.profiler.Frame(mx.profiler.Domain('d'), 'iter'); f.start(); f.stop()
    """


class Event(_Range):
    """A named duration in the ``event`` domain.

    Examples
    --------
    >>> e = mx.profiler.Event('load'); e.start(); e.stop()
    """

    def __init__(self, name):
        super().__init__("event", name)


class Counter:
    """A named integer counter; each change is recorded.

    Examples
    --------
    >>> c = mx.profiler.Counter(mx.profiler.Domain('d'), 'items', 0); c += 2
    """

    def __init__(self, domain, name, value=None):
        self.domain, self.name = domain, name
        self.value = 0
        if value is not None:
            self.set_value(value)

    def _mark(self):
        now = _now_us()
        _record(str(self.domain), self.name, now, now, kind="C", value=self.value)

    def set_value(self, value):
        self.value = value
        self._mark()

    def increment(self, delta=1):
        self.value += delta
        self._mark()

    def decrement(self, delta=1):
        self.value -= delta
        self._mark()

    def __iadd__(self, v):
        self.increment(v)
        return self

    def __isub__(self, v):
        self.decrement(v)
        return self

    def __str__(self):
        return self.name


class Marker:
    """An instant marker (``scope``: 'global', 'process', 'thread', 'task' or 'marker').

    Examples
    --------
    >>> mx.profiler.Marker(mx.profiler.Domain('d'), 'here').mark('process')
    """

    def __init__(self, domain, name):
        self.domain, self.name = domain, name

    def mark(self, scope="process"):
        now = _now_us()
        _record(
            f"{self.domain},instant_marker", self.name, now, now, kind="n", value=str(scope)[:1]
        )


@contextlib.contextmanager
def scope(name="<unk>:", append_mode=False):
    """Record the block as a task named ``name`` in the ``scope`` domain.

    Examples
    --------
    >>> with mx.profiler.scope('load'):
    ...     pass
    """
    start = _now_us()
    try:
        yield
    finally:
        _record("scope", name, start, _now_us())
