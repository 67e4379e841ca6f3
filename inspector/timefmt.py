"""Short human durations, shared by the headless text, the detail pane and the call list."""

from __future__ import annotations


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
