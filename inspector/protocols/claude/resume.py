"""Resumed Claude Code sessions: a marker where the resume begins, and repeated records shown once.

``claude --resume`` (and ``--continue``) starts a new session file that first repeats the records
of the session it continues, unchanged (same ``uuid``, the earlier ``sessionId``), then goes on
under its own ``sessionId``. Read alone, such a file shows everything, with a marker row where its
own records begin. Read with the earlier file (both opened, or a folder holding both), a record
already read from one file is skipped in the other, so each call shows once.

Claude Code 1.0.89 may instead write the repeated records with new ``uuid``s and the new
``sessionId`` (one timestamp for all, like a session rewritten into its own file): the calls are the
same (same ``tool_use`` id and input, same answer). Read together, a call another file of the set
already requested and answered with the same input is skipped, its answer too when it is the same;
a call the other file left unanswered is shown in both (its answer belongs to this file's copy).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from inspector.model.events import Marker, RawRef
from inspector.protocols.claude.rewrite import same_block


class Together:
    """Session files opened together: which file each record (by ``uuid``) was first read from."""

    def __init__(self, paths: list[str]) -> None:
        self.names = [os.path.basename(path) for path in paths]
        self.first: dict[str, int] = {}
        self.agent_files: set[str] = set()  # subagent files already read by a file of the set
        self.calls: dict[str, tuple[int, RawRef]] = {}  # call id -> the file and record first requesting it
        self.answers: dict[str, tuple[int, RawRef]] = {}  # call id -> the file and record first answering it

    def owner(self, uuid: str, index: int) -> int:
        """The file that holds ``uuid`` first (``index`` itself when no other file read it before)."""
        return self.first.setdefault(uuid, index)


class Resume:
    """What one file's read knows of the sessions its records belong to."""

    __slots__ = ("together", "index", "groups", "known", "repeated")

    def __init__(self, together: Together | None = None, index: int = 0) -> None:
        self.together = together
        self.index = index
        self.groups: list[str] = []  # session ids in the order they appear
        self.known: set[str] = set()  # the same ids, asked of every record (a list scan grew with them)
        self.repeated: dict[int, int] = {}  # file index -> records skipped because it holds them

    def see(
        self, record: dict[str, Any], raw: RawRef, time_of: Callable[[Any], float | None]
    ) -> tuple[Marker | None, bool]:
        """``(marker, skip)`` for one record: a marker before it when a new session id begins after
        another, and whether it repeats a record another file of the set already showed. ``time_of``
        reads the record's timestamp, only for a marker (most records need none)."""
        marker = None
        sid = record.get("sessionId")
        if isinstance(sid, str) and sid and sid not in self.known:
            self.known.add(sid)
            if self.groups:
                marker = self._marker(sid, raw, time_of(record.get("timestamp")))
            self.groups.append(sid)
        uuid = record.get("uuid")
        if self.together is not None and isinstance(uuid, str):
            owner = self.together.owner(uuid, self.index)
            if owner != self.index:
                self.repeated[owner] = self.repeated.get(owner, 0) + 1
                return marker, True
        return marker, False

    def repeats_call(self, call_id: str, raw: RawRef, params: Any) -> bool:
        """Whether this request repeats a call another file of the set requested with the same input and
        answered (the rest of the set's read skips it and its same answer); else it is this file's own
        from now on, for the files read after it."""
        together = self.together
        if together is None:
            return False
        first = together.calls.get(call_id)
        if first is None:
            together.calls[call_id] = (self.index, raw)
            return False
        index, where = first
        answer = together.answers.get(call_id)
        if index == self.index or answer is None or answer[0] != index:
            return False
        if not same_block(where, "tool_use", "id", call_id, params):
            return False
        self.repeated[index] = self.repeated.get(index, 0) + 1
        return True

    def repeats_answer(self, call_id: str, raw: RawRef, content: Any, error: bool, skipped: bool) -> bool:
        """Whether this result repeats, word for word, the answer another file of the set gave a call
        whose request was ``skipped`` here (``repeats_call``); the first answer of a call is noted."""
        together = self.together
        if together is None:
            return False
        first = together.answers.setdefault(call_id, (self.index, raw))
        if not skipped or first[0] == self.index:
            return False
        return same_block(first[1], "tool_result", "tool_use_id", call_id, content, error)

    def shown_elsewhere(self, uuid: Any) -> bool:
        """Whether a subagent record (read from its own file, or from a progress copy of it) was already
        shown by another file of the set: a resumed session's file holds the subagent's progress copies
        while the agent's own file sits under the session it continues, and both were shown."""
        if self.together is None or not isinstance(uuid, str) or not uuid:
            return False
        return self.together.owner(uuid, self.index) != self.index

    def _marker(self, sid: str, raw: RawRef, ts: float | None) -> Marker:
        earlier = self.groups[-1]
        text = f"session resumed: {sid[:8]} continues {earlier[:8]}"
        body = (
            f"Claude Code started session {sid} by resuming {earlier}: the records before this line "
            f"repeat that session (same uuids, its sessionId) and the new session's begin here."
        )
        if self.repeated and self.together is not None:
            shown = ", ".join(
                f"{count} from {self.together.names[index]}" for index, count in sorted(self.repeated.items())
            )
            text += f" ({sum(self.repeated.values())} repeated records shown once, from the earlier file)"
            body += f"\nThe repeated records are shown once, from the file that holds them first: {shown}."
        return Marker("resume", text, sid, ts, "system", raw, None, body=body)
