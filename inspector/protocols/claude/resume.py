"""Resumed Claude Code sessions: a marker where the resume begins, and repeated records shown once.

``claude --resume`` (and ``--continue``) starts a new session file that first repeats the records
of the session it continues, unchanged (same ``uuid``, the earlier ``sessionId``), then goes on
under its own ``sessionId``. Read alone, such a file shows everything, with a marker row where its
own records begin. Read with the earlier file (both opened, or a folder holding both), a record
already read from one file is skipped in the other, so each call shows once.

A record is skipped so only when it repeats the one shown: its content (the message's text, tool_use ids
and inputs, tool_result ids, contents and errors; a system record's content, a summary) is compared with
the owning file's record, read again from that file (only for a uuid another file holds, so a file read
alone, and the owning files, cost nothing more). What legitimately differs in a real copy is left out:
``sessionId``, ``timestamp``, ``parentUuid``, ``isCompactSummary``, and a user message's text written as a
string in one and as one text block in the other. A record whose uuid repeats but whose content differs
is shown from both files (its calls are real: the store shows a call id met twice as a duplicate), under
a marker saying so, once per pair of files.

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

import inspector.protocols.common.reread as _reread
from inspector.model import values
from inspector.model.events import Marker, RawRef
from inspector.protocols.claude.rewrite import same_block

_BLOCK_KEYS = ("type", "id", "name", "input", "tool_use_id", "content", "is_error")


class Together:
    """Session files opened together: which file each record (by ``uuid``) was first read from."""

    def __init__(self, paths: list[str]) -> None:
        self.names = [os.path.basename(path) for path in paths]
        self.first: dict[str, int] = {}
        # uuid -> the record first holding it, to compare a repeat with (only when several files are read)
        self.places: dict[str, RawRef] | None = {} if len(paths) > 1 else None
        self.clashes: dict[tuple[int, int], tuple[Marker, int]] = {}  # (owner, reader) -> marker, records
        self.agent_files: set[str] = set()  # subagent files already read by a file of the set
        self.calls: dict[str, tuple[int, RawRef]] = {}  # call id -> the file and record first requesting it
        self.answers: dict[str, tuple[int, RawRef]] = {}  # call id -> the file and record first answering it

    def owner(self, uuid: str, index: int, raw: RawRef | None = None) -> int:
        """The file that holds ``uuid`` first (``index`` itself when no other file read it before);
        ``raw``, the record read, is kept for a repeat to be compared with when it is the first."""
        owner = self.first.setdefault(uuid, index)
        if owner == index and raw is not None and self.places is not None:
            self.places.setdefault(uuid, raw)
        return owner

    def repeats(self, uuid: str, record: dict[str, Any]) -> bool:
        """Whether ``record`` says what the record first holding ``uuid`` said (see :func:`essence`); a
        record that cannot be read again (its file changed, gone) is taken as repeating, as before."""
        first = None if self.places is None else self.places.get(uuid)
        if first is None:
            return True
        try:
            value, problem = values.loads_json(_reread.reread(first))
        except OSError:
            return True
        if problem is not None or not isinstance(value, dict):
            return True
        return essence(value) == essence(record)

    def clash(self, owner: int, index: int, group: str, raw: RawRef, ts: float | None) -> Marker | None:
        """One more record of file ``index`` sharing a uuid with file ``owner`` but differing: the
        marker saying so when it is the first of the pair (later ones count in its body), else None."""
        known = self.clashes.get((owner, index))
        mine, theirs = self.names[index], self.names[owner]
        if known is None:
            text = f"records of {mine} share a uuid with {theirs} but differ: shown from both"
            marker, count = Marker("uuid-clash", text, group, ts, "system", raw, None), 1
        else:
            marker, count = known[0], known[1] + 1
        self.clashes[(owner, index)] = (marker, count)
        marker.body = (
            f"{count} record(s) of {mine} carry the uuid of a record of {theirs} (as a resumed "
            "session's copy would) but say something else (another text, call or result): they are no "
            "copy, and are shown from both files. A call id met in both files is shown twice."
        )
        return marker if known is None else None


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
    ) -> tuple[tuple[Marker, ...], bool]:
        """``(markers, skip)`` for one record: a marker before it when a new session id begins after
        another, and whether it repeats a record another file of the set already showed (a marker
        when it shares that record's uuid but differs, see :meth:`elsewhere`). ``time_of`` reads the
        record's timestamp, only for a marker (most records need none)."""
        marker = None
        sid = record.get("sessionId")
        if isinstance(sid, str) and sid and sid not in self.known:
            self.known.add(sid)
            if self.groups:
                marker = self._marker(sid, raw, time_of(record.get("timestamp")))
            self.groups.append(sid)
        markers = (marker,) if marker is not None else _NONE
        uuid = record.get("uuid")
        if self.together is not None and isinstance(uuid, str):
            clash, skip = self.elsewhere(uuid, record, raw, time_of)
            return (*markers, *clash) if clash else markers, skip
        return markers, False

    def elsewhere(
        self, uuid: str, record: dict[str, Any], raw: RawRef, time_of: Callable[[Any], float | None]
    ) -> tuple[tuple[Marker, ...], bool]:
        """``(markers, skip)`` for a record (``uuid`` not empty) of a file read with others: skipped when
        another file of the set holds the uuid and says the same; shown, after a marker the first time
        for this pair of files, when it says something else."""
        together = self.together
        if together is None:
            return _NONE, False
        owner = together.owner(uuid, self.index, raw)
        if owner == self.index:
            return _NONE, False
        if together.repeats(uuid, record):
            self.repeated[owner] = self.repeated.get(owner, 0) + 1
            return _NONE, True
        sid = record.get("sessionId")
        group = sid if isinstance(sid, str) and sid else (self.groups[-1] if self.groups else "")
        clash = together.clash(owner, self.index, group, raw, time_of(record.get("timestamp")))
        return ((clash,) if clash is not None else _NONE), False

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


_NONE: tuple[Marker, ...] = ()


def essence(record: dict[str, Any]) -> tuple[Any, ...]:
    """What a record says, as the inspector shows it, without what a resumed session's copy of it may
    change: its type, its message's text, tool_use (id, name, input) and tool_result (id, content,
    error) blocks (a text as a string or as one text block alike), a system record's content and kind,
    a summary; a progress copy of a subagent's message says what that message says."""
    data = record.get("data")
    rest = data if record.get("type") == "progress" else None  # a progress record of another kind: its data
    if rest is not None and isinstance(data, dict) and isinstance(data.get("message"), dict):
        record, rest = data["message"], None
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    blocks: Any = content
    if isinstance(content, str):
        blocks = [("text", content)]
    elif isinstance(content, list):
        blocks = [
            ("text", block.get("text"))
            if isinstance(block, dict) and block.get("type") == "text"
            else tuple(block.get(key) for key in _BLOCK_KEYS)
            if isinstance(block, dict)
            else block
            for block in content
        ]
    return (
        record.get("type"),
        blocks,
        record.get("content"),
        record.get("subtype"),
        record.get("summary"),
        rest,
    )
