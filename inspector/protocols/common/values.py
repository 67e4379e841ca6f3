"""Values shared by the JSON formats: times in any common spelling and short previews of payloads."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from datetime import datetime, timezone
from typing import Any

Walk = Callable[[Any, int], None]


_EPOCH = datetime(1970, 1, 1)


def parse_time(value: Any) -> float | None:
    """Epoch seconds from an epoch number (seconds or milliseconds) or an ISO 8601 string."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, str):
        if len(value) == 24 and value[23] == "Z" and value[19] == ".":  # the common ``...T..:..:..mmmZ``
            try:  # a naive UTC time minus the epoch: a third of the cost of an aware one's timestamp()
                return (datetime.fromisoformat(value[:23]) - _EPOCH).total_seconds()
            except ValueError:
                pass
        text = value.strip()
        try:
            value = float(text)
        except ValueError:
            return _iso(text)
    if not isinstance(value, (int, float)):
        return None
    try:
        seconds = float(value)
    except OverflowError:
        return None
    if not math.isfinite(seconds):
        return None
    return seconds / 1000.0 if abs(seconds) > 1e11 else seconds


_FRACTION = re.compile(r"(T\d\d:\d\d:\d\d)\.(\d+)")


def _iso(text: str) -> float | None:
    if text.endswith(("Z", "z")):
        text = text[:-1] + "+00:00"
    # Python 3.10 only reads fractions of 3 or 6 digits: pad or cut to microseconds.
    text = _FRACTION.sub(lambda m: f"{m.group(1)}.{(m.group(2) + '000000')[:6]}", text, count=1)
    try:
        moment = datetime.fromisoformat(text)
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
        return moment.timestamp()
    except (ValueError, OverflowError, OSError):
        return None


def preview(value: Any, limit: int = 200) -> str:
    """A short JSON-like rendering of ``value`` that never walks more than it shows."""
    out: list[str] = []
    budget = [limit]

    def emit(piece: str) -> None:
        out.append(piece)
        budget[0] -= len(piece)

    def walk(item: Any, depth: int) -> None:
        if budget[0] <= 0:
            return
        if isinstance(item, dict):
            _walk_pairs(item, depth, emit, walk, budget)
        elif isinstance(item, list):
            _walk_items(item, depth, emit, walk, budget)
        elif isinstance(item, str):
            emit(json.dumps(item[: max(budget[0], 0) + 1], ensure_ascii=False))
        else:
            emit(_scalar(item))

    walk(value, 0)
    return "".join(out)


def _walk_pairs(
    item: dict[Any, Any], depth: int, emit: Callable[[str], None], walk: Walk, budget: list[int]
) -> None:
    if depth >= 4:
        emit("{…}" if item else "{}")
        return
    emit("{")
    for index, (key, child) in enumerate(item.items()):
        if budget[0] <= 0:
            break
        emit(", " if index else "")
        emit(f"{key}: ")
        walk(child, depth + 1)
    emit("}")


def _walk_items(
    item: list[Any], depth: int, emit: Callable[[str], None], walk: Walk, budget: list[int]
) -> None:
    if depth >= 4:
        emit("[…]" if item else "[]")
        return
    emit("[")
    for index, child in enumerate(item):
        if budget[0] <= 0:
            break
        emit(", " if index else "")
        walk(child, depth + 1)
    emit("]")


def _scalar(item: Any) -> str:
    if type(item) is int:  # what json.dumps writes for one, without its encoder's calls
        try:
            return int.__repr__(item)
        except ValueError:  # past the digit limit
            return "<huge number>"
    if item is None or isinstance(item, (bool, int, float)):
        try:
            return json.dumps(item)
        except ValueError:  # an int past the digit limit
            return "<huge number>"
    return str(item)


def arguments_summary(args: Any, limit: int = 200) -> str:
    """``key=value`` pairs for an argument object, a preview for anything else (not yet cleaned)."""
    if not isinstance(args, dict):
        return preview(args, limit)
    parts: list[str] = []
    used = 0
    for key, value in args.items():
        if used >= limit:
            break
        if isinstance(value, str):
            shown = value[:limit]
        elif isinstance(value, (dict, list)):
            shown = preview(value, limit - used)
        else:  # what preview makes of a value that is neither text nor a container (its budget is left)
            shown = _scalar(value)
        parts.append(f"{key}={shown}")
        used += len(parts[-1]) + 1
    return " ".join(parts)
