"""Per-tool figures: count, failures, latency percentiles and a small histogram of the latencies."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field

from inspector.model.call import Call, State

FAILED_STATES = (State.FAILED, State.TIMED_OUT, State.DENIED, State.CANCELED)
"""States counted as failures (``failures`` in the JSON, the ``not ok`` column) in the per-tool figures."""

BUCKET_EDGES_MS = (10.0, 30.0, 100.0, 300.0, 1_000.0, 3_000.0, 10_000.0, 30_000.0, 100_000.0)
"""Upper edges of the latency buckets (ms); a last bucket takes everything above. Log-spaced, so a tool
with calls from 5 ms to 2 minutes still shows its shape."""

SPARKS = " ▁▂▃▄▅▆▇█"


def nearest_rank(sorted_values: list[float], fraction: float) -> float | None:
    """Nearest-rank percentile of an already sorted list (None when empty)."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(fraction * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


def bucket_of(latency_ms: float) -> int:
    """The histogram bucket of one latency: the first whose upper edge is above it (the last for NaN)."""
    return bisect_right(BUCKET_EDGES_MS, latency_ms)


def sparkline(counts: list[int]) -> str:
    """One character per bucket, height by count (an empty bucket is a space, a non-empty one never is)."""
    top = max(counts, default=0)
    if top <= 0:
        return " " * len(counts)
    steps = len(SPARKS) - 1
    return "".join(SPARKS[0] if n <= 0 else SPARKS[max(1, round(n / top * steps))] for n in counts)


@dataclass
class ToolFigures:
    """The figures of one tool."""

    tool: str
    count: int = 0
    failures: int = 0
    latencies: list[float] = field(default_factory=list)

    def sorted_latencies(self) -> list[float]:
        self.latencies.sort()
        return self.latencies

    @property
    def p50_ms(self) -> float | None:
        return nearest_rank(self.sorted_latencies(), 0.5)

    @property
    def p90_ms(self) -> float | None:
        return nearest_rank(self.sorted_latencies(), 0.9)

    @property
    def max_ms(self) -> float | None:
        return max(self.latencies) if self.latencies else None

    def histogram(self) -> list[int]:
        counts = [0] * (len(BUCKET_EDGES_MS) + 1)
        for latency in self.latencies:
            counts[bucket_of(latency)] += 1
        return counts

    def as_json(self) -> dict[str, object]:
        return {
            "count": self.count,
            "failures": self.failures,
            "p50_ms": _round(self.p50_ms),
            "p90_ms": _round(self.p90_ms),
            "max_ms": _round(self.max_ms),
            "histogram": self.histogram(),
        }


def per_tool(calls: Iterable[Call], now: float | None) -> list[ToolFigures]:
    """Figures per tool, the busiest tool first (ties by name)."""
    tools: dict[str, ToolFigures] = {}
    for call in calls:
        figures = tools.get(call.tool)
        if figures is None:
            figures = tools[call.tool] = ToolFigures(call.tool)
        figures.count += 1
        if call.state(now) in FAILED_STATES:
            figures.failures += 1
        latency = call.latency_ms
        if latency is not None and latency >= 0:
            figures.latencies.append(latency)
    return sorted(tools.values(), key=lambda f: (-f.count, f.tool))


def bucket_labels() -> list[str]:
    """Labels of the histogram buckets (for the JSON's readers and the help text)."""
    labels = [f"<{_ms(edge)}" for edge in BUCKET_EDGES_MS]
    return labels + [f">={_ms(BUCKET_EDGES_MS[-1])}"]


def _ms(value: float) -> str:
    return f"{value / 1000:g}s" if value >= 1000 else f"{value:g}ms"


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)
