"""Seeded byte-level mutations and a time-bounded runner for the loader fuzz tests."""

from __future__ import annotations

import os
import random
import signal
import struct
import time
from collections.abc import Callable, Iterator

from tests.reliability import _stats

__all__ = ["mutate", "fuzz", "Hang", "peak_rss_mib"]

_HUGE = [0xFFFFFFFF, 0x7FFFFFFF, 1 << 40, (1 << 63) - 1, (1 << 64) - 1, 1 << 31, 0, 1]


class Hang(BaseException):
    """Raised by the per-case alarm when one input takes too long."""


def _on_alarm(signum, frame):
    raise Hang()


def peak_rss_mib() -> float:
    """Peak resident memory of this process (VmHWM), in MiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024.0
    return 0.0


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One random corruption of ``data``: (description, mutated bytes)."""
    buf = bytearray(data)
    kind = rng.choice(["flip", "flip", "truncate", "length", "length", "byte", "insert",
                       "delete", "splice", "zero"])
    n = len(buf)
    if n == 0:
        return "extend", bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16)))
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(n)
            buf[i] ^= 1 << rng.randrange(8)
    elif kind == "truncate":
        del buf[rng.randrange(n):]
    elif kind == "length":  # a plausible length/count field gets a huge or odd value
        width = rng.choice([4, 8])
        i = rng.randrange(0, max(1, n - width + 1)) & ~(width - 1) if rng.random() < 0.7 \
            else rng.randrange(0, max(1, n - width + 1))
        val = rng.choice(_HUGE) & ((1 << (8 * width)) - 1)
        fmt = rng.choice(["<", ">"]) + ("I" if width == 4 else "Q")
        buf[i:i + width] = struct.pack(fmt, val)[: max(0, min(width, n - i))]
    elif kind == "byte":
        buf[rng.randrange(n)] = rng.choice([0, 0xFF, 0x7F, 0x80, ord("["), ord("{"), ord('"')])
    elif kind == "insert":
        i = rng.randrange(n + 1)
        buf[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 9)))
    elif kind == "delete":
        i = rng.randrange(n)
        del buf[i:i + rng.randint(1, 9)]
    elif kind == "splice":  # copy one chunk over another
        a, b = rng.randrange(n), rng.randrange(n)
        ln = rng.randint(1, 64)
        buf[b:b + ln] = buf[a:a + ln]
    else:
        i = rng.randrange(n)
        buf[i:i + rng.randint(1, 32)] = bytes(min(32, n - i))
    return kind, bytes(buf)


def _cases(seeds: list[bytes], extra: list[tuple[str, bytes]], rng: random.Random,
           mutator) -> Iterator[tuple[str, bytes]]:
    yield from extra
    while True:
        kind, data = mutator(rng.choice(seeds), rng)
        if rng.random() < 0.3:  # stack a second mutation now and then
            kind2, data = mutator(data, rng)
            kind = f"{kind}+{kind2}"
        yield kind, data


def fuzz(name: str, seeds: list[bytes], load: Callable[[bytes], object],
         allowed: tuple[type[BaseException], ...], *, budget_s: float = 2.5,
         case_limit_s: float = 5.0, seed: int = 0, extra: list[tuple[str, bytes]] = (),
         max_rss_growth_mib: float = 300.0,
         mutator: Callable[[bytes, random.Random], tuple[str, bytes]] = mutate
         ) -> dict[str, int]:
    """Feed mutated ``seeds`` to ``load`` for ``budget_s`` seconds.

    Each case must either load or raise one of ``allowed``; any other exception, a case
    running past ``case_limit_s`` or peak memory growing by more than
    ``max_rss_growth_mib`` fails the test with the offending input described.
    """
    for s in seeds:  # the unmutated inputs must load
        load(s)
    # MXNET_FUZZ_SEED / MXNET_FUZZ_SCALE run other or longer campaigns by hand
    rng = random.Random(seed + 1000 * int(os.environ.get("MXNET_FUZZ_SEED", "0")))
    budget_s *= float(os.environ.get("MXNET_FUZZ_SCALE", "1"))
    stats = {"cases": 0, "rejected": 0, "accepted": 0}
    rss0 = peak_rss_mib()
    import torch  # one intra-op thread: on a loaded machine OpenMP spinning can stall tiny ops

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    old = signal.signal(signal.SIGALRM, _on_alarm)
    deadline = time.monotonic() + budget_s
    failures: list[str] = []
    try:
        for kind, data in _cases(list(seeds), list(extra), rng, mutator):
            if time.monotonic() > deadline and stats["cases"] >= len(extra):
                break
            stats["cases"] += 1
            signal.setitimer(signal.ITIMER_REAL, case_limit_s)
            try:
                load(data)
                stats["accepted"] += 1
            except allowed:
                stats["rejected"] += 1
            except Hang:
                failures.append(f"case {stats['cases']} ({kind}, {len(data)} bytes): "
                                f"no answer within {case_limit_s} s")
            except Exception as err:  # noqa: BLE001 - any other exception is the finding
                failures.append(f"case {stats['cases']} ({kind}, {len(data)} bytes): "
                                f"{type(err).__name__}: {str(err)[:200]}")
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            if len(failures) >= 5:
                break
    finally:
        signal.signal(signal.SIGALRM, old)
        torch.set_num_threads(threads)
    grown = peak_rss_mib() - rss0
    if grown > max_rss_growth_mib:
        failures.append(f"peak memory grew by {grown:.0f} MiB while fuzzing")
    _stats.FUZZ[name] = stats
    assert not failures, f"{name}: undocumented failures:\n" + "\n".join(failures)
    return stats
