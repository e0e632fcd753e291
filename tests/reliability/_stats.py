"""Counters the reliability tests fill and ``conftest.py`` prints at the end of the run."""

from __future__ import annotations

__all__ = ["FUZZ", "FAULTS", "MEMORY"]

# loader name -> {"cases": int, "rejected": int, "accepted": int}
FUZZ: dict[str, dict[str, int]] = {}
# fault name -> "survived" / description
FAULTS: dict[str, str] = {}
# long-run name -> (rss MiB after warm-up, rss MiB at the end, iterations)
MEMORY: dict[str, tuple[float, float, int]] = {}
