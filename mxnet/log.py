"""Logging helpers (``mx.log.get_logger``) with MXNet's coloured level prefix."""

from __future__ import annotations

import logging
import sys

CRITICAL, ERROR, WARNING, INFO, DEBUG, NOTSET = (logging.CRITICAL, logging.ERROR,
                                                 logging.WARNING, logging.INFO, logging.DEBUG,
                                                 logging.NOTSET)
__all__ = ["get_logger", "getLogger", "CRITICAL", "ERROR", "WARNING", "INFO", "DEBUG", "NOTSET"]


class _Formatter(logging.Formatter):
    _LABELS = {logging.WARNING: "W", logging.ERROR: "E", logging.CRITICAL: "C",
               logging.INFO: "I", logging.DEBUG: "D"}

    def __init__(self, colored: bool = True):
        super().__init__(datefmt="%H:%M:%S")
        self._colored = colored

    def format(self, record):
        label = self._LABELS.get(record.levelno, "U")
        head = f"{label}{self.formatTime(record, '%m%d %H:%M:%S')} {record.process} " \
               f"{record.pathname.split('/')[-1]}:{record.funcName}:{record.lineno}]"
        if self._colored:
            color = {"W": "\x1b[33m", "E": "\x1b[31m", "C": "\x1b[35m"}.get(label, "\x1b[32m")
            head = f"{color}{head}\x1b[0m"
        return f"{head} {record.getMessage()}"


def get_logger(name=None, filename=None, filemode=None, level=WARNING):
    """A logger with MXNet's format, to the console or to ``filename``.

    Examples
    --------
    >>> log = mx.log.get_logger('train', level=mx.log.INFO)
    """
    logger = logging.getLogger(name)
    if name is not None and not getattr(logger, "_mx_init", False):
        logger._mx_init = True
        if filename:
            handler = logging.FileHandler(filename, filemode or "a")
            handler.setFormatter(_Formatter(colored=False))
        else:
            handler = logging.StreamHandler(sys.stderr)
            handler.setFormatter(_Formatter(colored=sys.stderr.isatty()))
        logger.addHandler(handler)
        logger.setLevel(level)
    return logger


getLogger = get_logger
