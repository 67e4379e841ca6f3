"""Figures about a session: counts per state and tool, orphans, duplicates, latency percentiles."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from inspector.model.call import State
from inspector.model.clock import at_recording_end
from inspector.model.events import Malformed, Message
from inspector.model.store import CallStore
from inspector.model.tool_stats import FAILED_STATES, ToolFigures, bucket_labels
from inspector.model.tool_stats import nearest_rank as percentile

Keep = Callable[[object], bool]
"""Which items count (a filter, one file of several); None counts everything."""


def source_of(item: object) -> str:
    """The file an item was read from ('' when it came from elsewhere)."""
    if isinstance(item, Malformed):
        return item.source or ""
    raw = getattr(getattr(item, "request", None), "raw", None) or getattr(
        getattr(item, "result", None), "raw", None
    )
    raw = raw or getattr(item, "raw", None)
    return getattr(raw, "source", "") or ""


def session_stats(store: CallStore, now: float | None = None, keep: Keep | None = None) -> dict[str, Any]:
    """The figures `inspector stats --json` prints, computed in one pass over the calls (those ``keep``
    accepts, when given)."""
    return session_figures(store, now, keep)[0]


def session_figures(
    store: CallStore, now: float | None = None, keep: Keep | None = None
) -> tuple[dict[str, Any], list[ToolFigures]]:
    """``session_stats`` and the per-tool figures it holds (busiest tool first), from the same one pass:
    each call's state and latency read once for both (the per-tool figures took two more passes)."""
    now = store.clock.now() if now is None else now
    if keep is not None:
        return session_figures(_Subset(store, keep), now)  # type: ignore[arg-type]
    counts = dict.fromkeys(State, 0)  # by the state itself: a state's .value is a call each time
    failed = frozenset(FAILED_STATES)
    by_tool: dict[str, ToolFigures] = {}
    latencies: list[float] = []
    calls = top_level = with_diff = late = violations = unanswered_client = 0
    for call in store.all_calls():
        calls += 1
        if call.parent is None:
            top_level += 1
        state, latency, diff, overdue = call.figures(now)
        counts[state] += 1
        request = call.request
        tool = request.tool
        figures = by_tool.get(tool)
        if figures is None:
            figures = by_tool[tool] = ToolFigures(tool)
        figures.count += 1
        if state in failed:
            figures.failures += 1
        if diff:
            with_diff += 1
        if overdue:
            late += 1
        if request.violation:
            violations += 1
        if request.executor is not None and call.awaits_client_answer:
            unanswered_client += 1
        if latency is not None and latency >= 0:
            latencies.append(latency)
            figures.latencies.append(latency)
    states = {state.value: counts[state] for state in State}
    tools = sorted(by_tool.values(), key=lambda f: (-f.count, f.tool))
    latencies.sort()
    p50, p90, p99 = (percentile(latencies, f) for f in (0.5, 0.9, 0.99))
    unseen = sum(1 for orphan in store.orphans if orphan.unseen_before is not None)
    return {
        "calls": calls,
        "top_level": top_level,
        "nested": calls - top_level,
        "states": states,
        "orphan_results": len(store.orphans),
        # of those, the results whose request may have come before the session listened (a room joined
        # late): only where there are some
        **({"unseen_results": unseen} if unseen else {}),
        "duplicate_results": store.duplicate_results,
        "late_results": late,
        "protocol_violations": violations,
        "unanswered_client_requests": unanswered_client,
        "with_diff": with_diff,
        "malformed": store.malformed_count,
        "messages": store.message_count,
        "skipped": dict(sorted(store.skipped.items())),
        "tools": {f.tool: f.count for f in tools},
        "p50_ms": _round(p50),
        "p90_ms": _round(p90),
        "p99_ms": _round(p99),
        "per_tool": {f.tool: f.as_json() for f in tools},
        "histogram_buckets": bucket_labels(),
    }, tools


class _Subset:
    """The part of a store ``keep`` accepts, with what session_stats and problems read."""

    def __init__(self, store: CallStore, keep: Keep) -> None:
        self._calls = [call for call in store.all_calls() if keep(call)]
        self.orphans = [orphan for orphan in store.orphans if keep(orphan)]
        self.malformed = [bad for bad in store.malformed if keep(bad)]
        self.folded = store.folded
        self.malformed_count = sum(store.malformed_weight(bad) for bad in self.malformed)
        self.malformed_weight = store.malformed_weight
        self.skipped = store.skipped
        self.clock = store.clock
        self.duplicate_results = sum(call.duplicates for call in self._calls)
        self.message_count = sum(1 for item in store.items if _is_message(item) and keep(item))

    def all_calls(self) -> list[Any]:
        return self._calls


def _is_message(item: object) -> bool:
    return isinstance(item, Message)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 1)


def problems(store: CallStore, now: float | None = None) -> list[tuple[str, str]]:
    """What `inspector check` reports: (where, what) for orphans, unanswered client requests,
    protocol violations and malformed records."""
    return [(where, what) for _, where, what in sourced_problems(store, now)]


def sourced_problems(
    store: CallStore, now: float | None = None, keep: Keep | None = None
) -> list[tuple[str, str, str]]:
    """``problems`` with the file each was found in: (source, where, what), of the items ``keep`` accepts."""
    now = store.clock.now() if now is None else now
    if keep is not None:
        store = _Subset(store, keep)  # type: ignore[assignment]
    found: list[tuple[str, str, str]] = []
    for orphan in store.orphans:
        result = orphan.result
        where = result.raw.where if result.raw else "?"
        what = f"orphan result for id {result.call_id!r}: no request has that id"
        if orphan.unseen_before is not None:
            came = "" if orphan.since is None else f"{max(orphan.since - orphan.unseen_before, 0.0):.1f} s "
            what += (
                f" (it came {came}after the inspector began listening: its request may have gone by unseen)"
            )
        found.append((source_of(orphan), where, what))
    for call in store.all_calls():
        where = call.request.raw.where if call.request.raw else "?"
        if call.request.violation:
            found.append(
                (
                    source_of(call),
                    where,
                    f"protocol violation in {call.tool} {call.call_id!r}: {call.request.violation}",
                )
            )
        if call.awaits_client_answer:
            state = call.state(now).value
            by = " by the end of the recording" if at_recording_end(now) else ""
            found.append(
                (
                    source_of(call),
                    where,
                    f"{call.request.executor.value if call.request.executor else 'client'} request {call.tool} {call.call_id!r} "
                    f"never got a result{by} ({state})",
                )
            )
    for bad in store.malformed:
        found.append((source_of(bad), bad.where, f"malformed record: {bad.reason}"))
    return found
