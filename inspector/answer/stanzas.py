"""Client stanzaIds that keep rising per conversation, across restarts and between two inspectors.

A spec-following agent drops a client stanza whose id is not above every one it has seen
(``../shared/reference/alicia-protocol/03-envelope-format.md``). The next id for a conversation is
the largest of three floors:

* one above the highest client stanzaId seen in that conversation in the room;
* one above the last id any inspector on this machine sent there (``stanzas.json`` in the data
  directory, updated under a file lock, so a restart or a second inspector never reuses one);
* a time base: quarter seconds since 2025-01-01 UTC, so an inspector on another machine, which
  shares neither, still starts above what an earlier session sent (it fits the spec's Int32 until 2042).
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import platformdirs

from inspector.answer import statefile
from inspector.userpath import open_text

ENV_DATA_DIR = "INSPECTOR_DATA_DIR"
TIME_BASE_EPOCH = 1_735_689_600.0  # 2025-01-01T00:00:00Z
TICKS_PER_SECOND = 4
INT32_MAX = 2**31 - 1
STATE_FILE = "stanzas.json"


def data_dir() -> Path:
    """``$INSPECTOR_DATA_DIR``, else the platform's data folder for the inspector."""
    configured = os.environ.get(ENV_DATA_DIR)
    return Path(configured) if configured else Path(platformdirs.user_data_dir("inspector"))


def time_base(now: float) -> int:
    """The time floor for a stanzaId at ``now`` (epoch seconds)."""
    return max(1, min(INT32_MAX, int((now - TIME_BASE_EPOCH) * TICKS_PER_SECOND)))


class StanzaCounter:
    """Per conversation: the next client stanzaId, and the record of the ones sent."""

    def __init__(self, now: Callable[[], float], folder: Path | None = None, *, persist: bool = True) -> None:
        self._now = now
        self._folder = folder
        self._persist = persist
        self.seen: dict[str, int] = {}
        self.sent: dict[str, int] = {}

    @property
    def path(self) -> Path:
        return (self._folder or data_dir()) / STATE_FILE

    def observe(self, conversation: str, stanza: int) -> None:
        """Note a client stanzaId seen in the room (another client's, or an earlier inspector's)."""
        if stanza > self.seen.get(conversation, 0):
            self.seen[conversation] = stanza

    def peek(self, conversation: str) -> int:
        """The id the next answer in ``conversation`` gets (what the preview shows)."""
        return self._next(conversation, self._stored().get(conversation, 0) if self._persist else 0)

    def reserve(self, conversation: str) -> int:
        """Take the next id for an answer about to go out, under the state file's lock: two inspectors
        on this machine sending at the same moment get two ids, never the same one."""
        if self._persist:
            try:
                with self._locked() as state:
                    stanza = self._next(conversation, state.get(conversation, 0))
                    state[conversation] = stanza
            except OSError:
                stanza = self._next(conversation, 0)
        else:
            stanza = self._next(conversation, 0)
        self.sent[conversation] = max(stanza, self.sent.get(conversation, 0))
        self.observe(conversation, stanza)
        return stanza

    def claim(self, conversation: str, stanza: int) -> bool:
        """Take ``stanza`` (the id a preview showed) for an answer about to go out, under the state
        file's lock; False, taking nothing, when it is no longer above every id seen or sent there
        (another client or inspector used one since): the answer must be previewed again."""
        if self._persist:
            try:
                with self._locked() as state:
                    if stanza <= self._floor(conversation, state.get(conversation, 0)):
                        return False
                    state[conversation] = stanza
            except OSError:
                if stanza <= self._floor(conversation, 0):
                    return False
        elif stanza <= self._floor(conversation, 0):
            return False
        self.sent[conversation] = max(stanza, self.sent.get(conversation, 0))
        self.observe(conversation, stanza)
        return True

    def _floor(self, conversation: str, stored: int) -> int:
        return max(self.seen.get(conversation, 0), self.sent.get(conversation, 0), stored)

    def _next(self, conversation: str, stored: int) -> int:
        return min(INT32_MAX, max(self._floor(conversation, stored) + 1, time_base(self._now())))

    def commit(self, conversation: str, stanza: int) -> None:
        """Record that ``stanza`` went out in ``conversation`` (kept on disk when persisting)."""
        if stanza > self.sent.get(conversation, 0):
            self.sent[conversation] = stanza
        self.observe(conversation, stanza)
        if not self._persist:
            return
        with contextlib.suppress(OSError), self._locked() as state:
            if stanza > state.get(conversation, 0):
                state[conversation] = stanza

    # -- the state file ------------------------------------------------------------------------
    def _stored(self) -> dict[str, int]:
        try:
            with open_text(str(self.path)) as fh:
                return _clean(json.load(fh))
        except (OSError, ValueError):
            return {}

    def _locked(self) -> contextlib.AbstractContextManager[dict[str, Any]]:
        """Read, change and write the state file under an exclusive lock (one writer at a time)."""
        return statefile.locked(self.path, self._stored)


def _clean(value: object) -> dict[str, int]:
    if not isinstance(value, dict):
        return {}
    return {
        k: v
        for k, v in value.items()
        if isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
    }
