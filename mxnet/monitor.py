"""``mx.mon.Monitor``: print statistics of executor arrays every ``interval`` batches."""

from __future__ import annotations

import logging
import math
import re

from .base import py_str

__all__ = ["Monitor"]


def _default_stat(x):
    from . import ndarray as nd

    return nd.norm(x) / math.sqrt(x.size)


class Monitor:
    """Collect a statistic of every matching executor array each ``interval`` batches.

    Parameters
    ----------
    interval : int
        Batches between collections.
    stat_func : callable, optional
        ``NDArray -> NDArray`` statistic; default ``norm(x) / sqrt(x.size)``.
    pattern : str
        Regular expression selecting array names.
    sort : bool
        Sort the output by name.

    Examples
    --------
    >>> mon = mx.mon.Monitor(100, pattern='.*weight')   # doctest: +SKIP
    >>> mod.fit(train_iter, monitor=mon, num_epoch=1)   # doctest: +SKIP
    """

    def __init__(self, interval, stat_func=None, pattern=".*", sort=False, monitor_all=False):
        self.stat_func = stat_func or _default_stat
        self.interval = interval
        self.activated = False
        self.queue = []
        self.step = 0
        self.exes = []
        self.re_prog = re.compile(pattern)
        self.sort = sort
        self.monitor_all = monitor_all

    def stat_helper(self, name, array):
        """Executor callback: record the statistic of ``array`` under ``name``."""
        name = py_str(name)
        if not self.activated or not self.re_prog.match(name):
            return
        self.queue.append((self.step, name, self.stat_func(array)))

    def install(self, exe):
        """Attach to an executor."""
        exe.set_monitor_callback(self.stat_helper, self.monitor_all)
        self.exes.append(exe)

    def tic(self):
        """Start collecting for this batch if it is a monitored one."""
        if self.step % self.interval == 0:
            self.queue = []
            self.activated = True
        self.step += 1

    def toc(self):
        """Stop collecting; return ``[(step, name, value_string), ...]``."""
        if not self.activated:
            return []
        for exe in self.exes:
            for name, array in zip(exe._symbol.list_arguments(), exe.arg_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
            for name, array in zip(exe._symbol.list_auxiliary_states(), exe.aux_arrays):
                if self.re_prog.match(name):
                    self.queue.append((self.step, name, self.stat_func(array)))
        self.activated = False
        res = []
        queue = sorted(self.queue, key=lambda x: x[1]) if self.sort else self.queue
        for n, k, v_list in queue:
            vals = v_list if isinstance(v_list, list) else [v_list]
            # MXNet ends every value with a tab (also the last one)
            s = "".join(
                (str(v.asscalar()) if v.shape == (1,) else str(v.asnumpy())) + "\t" for v in vals
            )
            res.append((n, k, s))
        self.queue = []
        return res

    def toc_print(self):
        """Stop collecting and log the results."""
        for n, k, v in self.toc():
            logging.info("Batch: {:7d} {:30s} {:s}".format(n, k, v))
