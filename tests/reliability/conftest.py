"""Prints the reliability measurements (fuzz cases, faults, memory trends) after the run."""

from __future__ import annotations

from tests.reliability import _stats


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not (_stats.FUZZ or _stats.FAULTS or _stats.MEMORY):
        return
    tr = terminalreporter
    tr.section("reliability")
    for name, st in sorted(_stats.FUZZ.items()):
        tr.write_line(f"fuzz {name:<28} cases={st['cases']:<5} rejected={st['rejected']:<5} "
                      f"loaded={st['accepted']}")
    for name, what in sorted(_stats.FAULTS.items()):
        tr.write_line(f"fault {name:<27} {what}")
    for name, (first, last, iters) in sorted(_stats.MEMORY.items()):
        tr.write_line(f"memory {name:<26} rss {first:.1f} -> {last:.1f} MiB over {iters} "
                      "iterations after warm-up")
