"""Short human durations, shared by the headless text, the detail pane and the call list."""

from __future__ import annotations

import math
import time


def duration(seconds: float) -> str:
    """``850ms``, ``4.2s``, ``12s``, ``3m05s``, ``2h10m``, ``21d``; negative values get a ``-``."""
    if seconds < 0:
        return "-" + duration(-seconds)
    if seconds < 1:
        return f"{seconds * 1000:.0f}ms"
    if seconds < 10:
        return f"{seconds:.1f}s"
    if seconds < 60:
        return f"{seconds:.0f}s"
    minutes, secs = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes}m{secs:02d}s"
    hours = minutes // 60
    return f"{hours}h{minutes % 60:02d}m" if hours < 48 else f"{hours // 24}d"


def deadline_words(remaining: float, at_end: bool) -> str:
    """How an unanswered call stands against its deadline, ``remaining`` seconds away (negative: past).

    Live: ``12s left`` / ``overdue by 4.2s``. At the end of a finished recording the figure is frozen and
    says so: ``no result by the end of the recording, 4.2s past its deadline``.
    """
    if not at_end:
        return f"{duration(remaining)} left" if remaining > 0 else f"overdue by {duration(-remaining)}"
    if remaining > 0:
        return f"no result by the end of the recording, {duration(remaining)} before its deadline"
    return f"no result by the end of the recording, {duration(-remaining)} past its deadline"


def clock_text(ts: float | None) -> str:
    """The local time of day, ``14:03:07``; ``--:--:--`` for no time or one no clock can show."""
    if ts is None or not math.isfinite(ts):
        return "--:--:--"
    try:
        return time.strftime("%H:%M:%S", time.localtime(ts))
    except (OverflowError, OSError, ValueError):
        return "--:--:--"


def iso8601(ts: float | None) -> str:
    """Epoch seconds as ISO 8601 in UTC with milliseconds (``2025-06-01T10:00:01.500Z``); ``-`` for none."""
    from datetime import datetime, timezone

    if ts is None or isinstance(ts, bool) or not isinstance(ts, (int, float)):
        return "-"
    try:
        moment = datetime.fromtimestamp(ts, timezone.utc)
    except (OverflowError, OSError, ValueError):
        return "-"
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
