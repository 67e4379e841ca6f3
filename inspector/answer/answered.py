"""The requests answered from this machine, shared by every inspector on it: one answer per request.

An answer to a LiveKit request goes to the requesting participant alone, so a second inspector in the
same room never sees the first one's answer and its own auto-responder (or its user) would answer the
same request again: the agent would get two ToolUseResults. Before an answer goes out, the inspector
takes the request's key here, under a file lock (``answered.json`` beside ``stanzas.json`` in the data
directory); a key already taken, and not yet expired, refuses the answer and names who sent it. An
answer that then fails to go out gives its key back.

Keys expire (ten minutes past the request's deadline, a day without one), so the file stays small and a
request id used again much later (a test script's) is not refused. Inspectors on other machines share
nothing: this cannot stop them.
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from inspector.answer import statefile
from inspector.answer.stanzas import data_dir
from inspector.userpath import open_text

STATE_FILE = "answered.json"
AFTER_DEADLINE = 600.0
"""Seconds a key is kept past its request's deadline (an answer later than that is not expected)."""
WITHOUT_DEADLINE = 86_400.0
"""Seconds a key is kept for a request with no deadline."""


def keep_until(deadline: float | None, now: float) -> float:
    """When a key taken at ``now`` for a request due at ``deadline`` (None: no timeout) expires."""
    if deadline is None or not math.isfinite(deadline):
        return now + WITHOUT_DEADLINE
    return max(deadline, now) + AFTER_DEADLINE


class AnswerLedger:
    """Take and give back the keys of requests answered from this machine (see the module's text)."""

    def __init__(self, now: Callable[[], float], folder: Path | None = None) -> None:
        self._now = now
        self._folder = folder

    @property
    def path(self) -> Path:
        return (self._folder or data_dir()) / STATE_FILE

    def take(self, key: str, *, who: str, until: float) -> str | None:
        """Take ``key`` for an answer ``who`` is about to send; None when taken, else the one who holds it
        (``who`` itself for a second answer of the same inspector). A ledger that cannot be read or
        written (a read-only data folder) takes it: answering is not stopped for want of a file."""
        try:
            with self._locked() as state:
                held = state.get(key)
                if held is not None:
                    return str(held[1]) or "an inspector"
                state[key] = [until, who]
        except OSError:
            return None
        return None

    def give_back(self, key: str) -> None:
        """The answer for ``key`` did not go out: another may be sent."""
        with contextlib.suppress(OSError), self._locked() as state:
            state.pop(key, None)

    def _locked(self) -> contextlib.AbstractContextManager[dict[str, Any]]:
        """Read, change and write the file under an exclusive lock; expired keys are dropped on the way."""
        return statefile.locked(self.path, self._read)

    def _read(self) -> dict[str, list[Any]]:
        try:
            with open_text(str(self.path)) as fh:
                value = json.load(fh)
        except (OSError, ValueError):
            return {}
        now = self._now()
        if not isinstance(value, dict):
            return {}
        kept: dict[str, list[Any]] = {}
        for key, entry in value.items():
            if (
                isinstance(key, str)
                and isinstance(entry, list)
                and len(entry) == 2
                and isinstance(entry[0], (int, float))
                and not isinstance(entry[0], bool)
                and isinstance(entry[1], str)
                and entry[0] > now
            ):
                kept[key] = entry
        return kept
