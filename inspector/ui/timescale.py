"""Timeline math without a UI: time to cells with collapsed idle gaps, zoom, pan, ticks, eighth-block bars."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from operator import itemgetter

GAP_CELLS = 5
"""Cells a collapsed idle gap takes on screen (room for its length: ``≈17m``)."""

LEFT_EIGHTHS = " ▏▎▍▌▋▊▉█"
"""``LEFT_EIGHTHS[n]`` fills the left n eighths of a cell."""

STEPS = (
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5,
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800,
    3600, 7200, 10800, 21600, 43200, 86400,
)  # fmt: skip
"""Tick steps (seconds) the axis may use: ms, s, min, h."""

MIN_PER_CELL, MAX_PER_CELL = 0.0001, 86400.0

_START, _END = itemgetter(0), itemgetter(1)


@dataclass(frozen=True)
class Gap:
    """An idle stretch (no call running) from ``start`` to ``end``."""

    start: float
    end: float


def idle_gaps(spans: Iterable[tuple[float, float]], min_gap: float) -> list[Gap]:
    """Stretches longer than ``min_gap`` seconds covered by no span (spans need not be sorted)."""
    ordered = sorted((a, max(a, b)) for a, b in spans if math.isfinite(a) and math.isfinite(b))
    gaps: list[Gap] = []
    reach = -math.inf
    for start, end in ordered:
        if reach > -math.inf and start - reach > min_gap:
            gaps.append(Gap(reach, start))
        reach = max(reach, end)
    return gaps


class Spans:
    """The extent of spans added one by one and the idle gaps (over ``min_gap``) between them.

    Adding a span costs a bisection, whatever the order spans come in: a live session's new calls, or a
    call whose result arrived, extend what is known without going over every row again.
    """

    def __init__(self, min_gap: float) -> None:
        self.min_gap = min_gap
        self.first = math.inf
        self.reach = -math.inf
        self.gaps: list[Gap] = []

    @property
    def extent(self) -> tuple[float, float] | None:
        return (self.first, self.reach) if self.first <= self.reach else None

    def add(self, start: float, end: float) -> None:
        if not (math.isfinite(start) and math.isfinite(end)):
            return
        if end < start:
            end = start
        if self.first > self.reach:  # the first span
            self.first, self.reach = start, end
        elif start > self.reach:
            if start - self.reach > self.min_gap:
                self.gaps.append(Gap(self.reach, start))
            self.reach = end
        elif end < self.first:
            if self.first - end > self.min_gap:
                self.gaps.insert(0, Gap(end, self.first))
            self.first = start
        else:
            if self.gaps and start < self.gaps[-1].end:  # else no gap can overlap: all end before it
                self._cut(start, end)
            if start < self.first:
                self.first = start
            if end > self.reach:
                self.reach = end

    @classmethod
    def of(cls, spans: Sequence[tuple[float, float]], min_gap: float) -> Spans:
        """What adding each (start, end) of ``spans`` one by one gives, from the sorted starts and ends (a
        few passes in C, not a step a span); every time finite, each end at or after its start.

        A gap lies only before a start ``starts[k + 1]`` more than ``min_gap`` after the start before it
        (in time order). The k + 1 spans that start earlier leave it open if all end more than
        ``min_gap`` before it: then ``ends[k]`` (sorted) is the latest of their ends, and opens it (if
        one ends at or after that start, so does ``ends[k]``). Spans added in any order find the same
        gaps, so this is what ``add`` gives (``min_gap`` is not negative).
        """
        index = cls(min_gap)
        if not spans:
            return index
        starts = sorted(map(_START, spans))
        index.first, index.reach = starts[0], max(map(_END, spans))
        wide = _wide_steps(starts, min_gap)
        if wide:
            ends = sorted(map(_END, spans))
            for k in wide:
                start = starts[k + 1]
                if start - ends[k] > min_gap:
                    index.gaps.append(Gap(ends[k], start))
        return index

    def _cut(self, start: float, end: float) -> None:
        """The gaps that ``start``..``end`` overlaps keep only their parts outside it (if still long)."""
        gaps = self.gaps
        index = self._index(start)
        pieces: list[Gap] = []
        stop = index
        while stop < len(gaps) and gaps[stop].start < end:
            gap = gaps[stop]
            if start - gap.start > self.min_gap:
                pieces.append(Gap(gap.start, min(start, gap.end)))
            if gap.end - end > self.min_gap:
                pieces.append(Gap(max(end, gap.start), gap.end))
            stop += 1
        if stop > index:
            gaps[index:stop] = pieces

    def _index(self, t: float) -> int:
        """The first gap ending after ``t`` (gaps are sorted and disjoint)."""
        lo, hi = 0, len(self.gaps)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.gaps[mid].end <= t:
                lo = mid + 1
            else:
                hi = mid
        return lo


def _wide_steps(starts: list[float], min_gap: float) -> list[int]:
    """The k where ``starts[k + 1]`` may come more than ``min_gap`` after ``starts[k]`` (sorted starts): a
    bisection skips each run of starts closer together than that, so a busy session costs a few steps
    an idle gap long (a hair under ``min_gap``: rounding never hides a wider step)."""
    found: list[int] = []
    within = min_gap * 0.99
    k, last = 0, len(starts) - 1
    while k < last:
        j = bisect.bisect_right(starts, starts[k] + within, k + 1) - 1
        if j == k:
            found.append(k)
            k += 1
        else:
            k = j
    return found


@dataclass(frozen=True)
class Scale:
    """Maps time to (fractional) cells: ``start`` is at x=0, ``per_cell`` seconds a cell, gaps squeezed."""

    start: float
    per_cell: float
    gaps: tuple[Gap, ...] = ()

    def __post_init__(self) -> None:
        keep = GAP_CELLS * self.per_cell
        starts, removed, total = [], [], 0.0
        for gap in self.gaps:
            starts.append(gap.start)
            removed.append(total)
            total += max(0.0, (gap.end - gap.start) - keep)
        object.__setattr__(self, "_starts", starts)
        object.__setattr__(self, "_removed", removed)

    def _squeeze(self, t: float) -> float:
        """``t`` on a time line where each gap lasts at most GAP_CELLS cells."""
        index = bisect.bisect_right(self._starts, t) - 1  # type: ignore[attr-defined]
        if index < 0:
            return t
        gap = self.gaps[index]
        before = self._removed[index]  # type: ignore[attr-defined]
        length = gap.end - gap.start
        keep = min(length, GAP_CELLS * self.per_cell)
        if t >= gap.end:
            return t - before - (length - keep)
        inside = t - gap.start
        return t - before - (inside - inside * keep / length if length > 0 else 0.0)

    def _unsqueeze(self, s: float) -> float:
        lo, hi = -1e18, 1e18
        if self.gaps:
            lo, hi = min(s, self.gaps[0].start) - 1, max(s, self.gaps[-1].end) + abs(s) + 1
            hi += sum(g.end - g.start for g in self.gaps)
        else:
            return s
        for _ in range(80):  # bisection: _squeeze is monotonic
            mid = (lo + hi) / 2
            if self._squeeze(mid) < s:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    def x(self, t: float) -> float:
        """The cell position of time ``t``."""
        return (self._squeeze(t) - self._squeeze(self.start)) / self.per_cell

    def time_at(self, x: float) -> float:
        """The time at cell position ``x``."""
        return self._unsqueeze(self._squeeze(self.start) + x * self.per_cell)

    def in_gap(self, t: float) -> bool:
        index = bisect.bisect_right(self._starts, t) - 1  # type: ignore[attr-defined]
        return index >= 0 and t < self.gaps[index].end

    # -- moving --------------------------------------------------------------------------------
    def zoomed(self, factor: float, anchor_x: float = 0.0) -> Scale:
        """``factor`` > 1 zooms in; the time under ``anchor_x`` stays where it is."""
        anchor = self.time_at(anchor_x)
        per_cell = min(MAX_PER_CELL, max(MIN_PER_CELL, self.per_cell / factor))
        return replace(self, per_cell=per_cell).at(anchor, anchor_x)

    def at(self, t: float, x: float) -> Scale:
        """The same zoom, moved so that time ``t`` is at cell ``x``."""
        probe = replace(self, start=t)
        return replace(self, start=probe.time_at(-x))

    def panned(self, cells: float) -> Scale:
        """Moved right (positive) or left by ``cells``."""
        return replace(self, start=self.time_at(cells))

    def with_gaps(self, gaps: Iterable[Gap]) -> Scale:
        return replace(self, gaps=tuple(gaps))

    @classmethod
    def fit(cls, first: float, last: float, width: int, gaps: Iterable[Gap] = ()) -> Scale:
        """A scale showing ``first``..``last`` across ``width`` cells (gaps squeezed)."""
        gaps = tuple(gaps)
        width = max(1, width)
        span = max(last - first, MIN_PER_CELL * width)
        per_cell = min(MAX_PER_CELL, max(MIN_PER_CELL, span / width))
        for _ in range(20):  # squeezing gaps shortens the span: settle the zoom
            scale = cls(first, per_cell, gaps)
            shown = scale.x(last)
            if shown <= 0 or abs(shown - width) < 0.5:
                break
            per_cell = min(MAX_PER_CELL, max(MIN_PER_CELL, per_cell * shown / width))
        return cls(first, per_cell, gaps)

    def following(self, now: float, width: int) -> Scale:
        """Moved so that ``now`` stands at nine tenths of the width."""
        return self.at(now, width * 0.9)


# -- ticks ------------------------------------------------------------------------------------
def tick_step(per_cell: float, min_cells: int = 10) -> float:
    """The smallest readable step at least ``min_cells`` cells apart."""
    for step in STEPS:
        if step / per_cell >= min_cells:
            return step
    return STEPS[-1] * math.ceil(per_cell * min_cells / STEPS[-1])


def tick_label(offset: float, step: float) -> str:
    """``offset`` seconds from the origin, as precise as the step needs: 250ms, 1.5s, 3m30s, 2h05m, 72h00m30s.

    A label never drops a unit the step moves (an hour into a session, ticks 30 s apart read
    ``1h00m30s``, ``1h01m``, not ``1h``, ``1h``)."""
    offset = round(offset / step) * step
    sign = "-" if offset < 0 else ""
    value = abs(offset)
    if value < step / 2:
        return "0"
    decimals = 0 if step >= 1 else min(3, max(0, math.ceil(-math.log10(step) - 1e-9)))
    if step < 1 and value < 1:
        return f"{sign}{value * 1000:.0f}ms"
    if value < 60:
        return f"{sign}{value:.{decimals}f}s"
    whole = math.floor(value + 1e-9)
    fraction = value - whole
    hours, rest = divmod(whole, 3600)
    minutes, seconds = divmod(rest, 60)
    width = 2 + (decimals + 1 if decimals else 0)
    secs = f"{seconds + fraction:0{width}.{decimals}f}s" if step < 60 and (seconds or fraction > 1e-9) else ""
    if not hours:
        return f"{sign}{minutes}m{secs}"
    mins = f"{minutes:02d}m" if minutes or secs else ""
    return f"{sign}{hours}h{mins}{secs}"


def ticks(scale: Scale, width: int, origin: float, min_cells: int = 10) -> list[tuple[int, str]]:
    """(cell, label) of the ticks between cell 0 and ``width``, labels relative to ``origin``, none in gaps."""
    step = tick_step(scale.per_cell, min_cells)
    t = scale.start
    end = scale.time_at(width)
    longest = max(len(tick_label(end - origin, step)), len(tick_label(t - origin, step)))
    if longest + 2 > min_cells:  # long labels (an hour in, ticks seconds apart): space the ticks wider
        min_cells = longest + 2
        step = tick_step(scale.per_cell, min_cells)
    found: list[tuple[int, str]] = []
    last_x = -min_cells
    while t < end and len(found) < width:
        k = math.ceil((t - origin) / step - 1e-9)
        tick = origin + k * step
        if scale.in_gap(tick):
            index = bisect.bisect_right(scale._starts, tick) - 1  # type: ignore[attr-defined]
            t = scale.gaps[index].end
            continue
        x = scale.x(tick)
        if x >= width:
            break
        cell = math.floor(x + 1e-6)
        if cell - last_x >= min_cells // 2 and cell >= 0:
            found.append((cell, tick_label(tick - origin, step)))
            last_x = cell
        t = tick + step / 2
    return found


def gap_cells(scale: Scale, width: int) -> list[tuple[int, Gap]]:
    """(first cell, gap) of each collapsed gap on screen."""
    cells = []
    for gap in scale.gaps:
        if (gap.end - gap.start) <= GAP_CELLS * scale.per_cell:
            continue
        x = math.floor(scale.x(gap.start))
        if 0 <= x < width:
            cells.append((x, gap))
    return cells


def gap_label(seconds: float) -> str:
    """How long a collapsed gap lasted, in at most five cells: ``≈45s``, ``≈17m``, ``≈2h``, ``≈3d``."""
    for unit, size in (("s", 1), ("m", 60), ("h", 3600)):
        if seconds < size * 59.5:
            return f"≈{round(seconds / size)}{unit}"
    return f"≈{min(999, round(seconds / 86400))}d" if seconds >= 86400 else f"≈{round(seconds / 3600)}h"


# -- bars ---------------------------------------------------------------------------------------
def bar_cells(x0: float, x1: float, width: int) -> list[tuple[int, str, bool]]:
    """The cells of a bar from ``x0`` to ``x1`` clipped to ``0..width``: (cell, character, inverted).

    Eighth blocks give the bar's end to an eighth of a cell. A start inside a cell is drawn with the
    character of the part *before* it in inverted colours (terminals have left-aligned eighths only).
    A bar shorter than an eighth still shows one eighth.
    """
    if not (math.isfinite(x0) and math.isfinite(x1)) or width <= 0:
        return []
    x1 = max(x0, x1)
    if x1 < 0 or x0 >= width:
        return []
    e0 = max(0, round(x0 * 8))
    e1 = min(width * 8, round(x1 * 8))
    if e1 <= e0:
        if e0 >= width * 8:
            return []
        e1 = e0 + 1
    first, last = e0 // 8, (e1 - 1) // 8
    f0, f1 = e0 - first * 8, e1 - last * 8
    if first == last:
        if f0 == 0:
            return [(first, LEFT_EIGHTHS[f1], False)]
        if f1 == 8:
            return [(first, LEFT_EIGHTHS[f0], True)]
        return [(first, LEFT_EIGHTHS[max(1, f1 - f0)], False)]
    cells = [(first, LEFT_EIGHTHS[f0], True) if f0 else (first, "█", False)]
    cells += [(cell, "█", False) for cell in range(first + 1, last)]
    cells.append((last, LEFT_EIGHTHS[f1], False))
    return cells
