"""Claude Code sessions rewritten into their own file: the repeated calls shown once, under one marker.

Claude Code 2.0.29-2.0.31 (seen on Windows, also after an upgrade between the two) may write a resumed
session back into the same file: after line N it repeats lines 1..N, or a part of them, with new
``uuid``s but the same ``message.id``s, the same ``tool_use`` blocks (id and ``input``) and the same
``tool_result``s; the copies keep their original timestamps or all carry one. A tool_use id seen again
with the same input is then the same call, never a new one, a tool_result seen again with the same
content is the same answer, and an assistant text record seen again (the same ``message.id`` and text)
the same message; the marker stands at the first of these. Only a repeated id costs anything: its first record is read back from the
file and compared, so a file without repeats reads as before. A repeat that differs (another input,
another answer) is left to the store, which flags the duplicate.
"""

from __future__ import annotations

from typing import Any

import inspector.protocols.common.reread as _reread
from inspector.model import values
from inspector.model.events import Marker, RawRef, Skipped

_DEPTH = 6  # how deep a record is searched for the block (a progress copy nests it two levels down)


class Rewrite:
    """The rewrite of one session file: its marker (once the first copy is seen) and what it repeated."""

    __slots__ = ("marker", "calls", "results", "texts", "said")

    def __init__(self) -> None:
        self.marker: Marker | None = None
        self.calls = 0
        self.results = 0
        self.texts = 0
        self.said: set[tuple[str, int]] = set()  # (message.id, hash of its texts) of assistant text records

    def said_again(self, message_id: str | None, texts: list[str]) -> bool:
        """True when an assistant record with this ``message.id`` and these texts was read before."""
        if not message_id:
            return False
        key = (message_id, hash(tuple(texts)))
        if key in self.said:
            return True
        self.said.add(key)
        return False

    def repeat(
        self,
        call: bool | None,
        group: str,
        ts: float | None,
        raw: RawRef,
        parent: str | None,
        begun: Marker | None,
    ) -> tuple[Skipped, Marker | None]:
        """A tool_use (``call`` True), tool_result (False) or assistant text (None, the same
        ``message.id`` and text) repeated whole: skipped; the marker when the rewrite begins here
        (``begun``: one an earlier block of the same record began)."""
        marker = self.begin(group, ts, raw, parent)
        self.counted(call)
        kind = "repeated message" if call is None else "repeated call" if call else "repeated result"
        return Skipped(kind, raw.where), marker or begun

    def begin(self, group: str, ts: float | None, raw: RawRef, parent: str | None) -> Marker | None:
        """The marker row when this is the first repeated record of the file, else None."""
        if self.marker is not None:
            return None
        self.marker = Marker(
            "rewrite",
            "session rewritten into its own file: the records from here repeat earlier ones",
            group,
            ts,
            "system",
            raw,
            parent,
        )
        return self.marker

    def counted(self, call: bool | None) -> None:
        """One more repeated tool_use (``call``), tool_result or assistant text, said in the marker's body."""
        if call is None:
            self.texts += 1
        elif call:
            self.calls += 1
        else:
            self.results += 1
        if self.marker is not None:
            self.marker.body = (
                "Claude Code wrote this session into the same file again (as 2.0.29-2.0.31 do on a resume): "
                "from here the records repeat earlier ones with new uuids, the same tool_use ids, inputs "
                f"and results. {self.calls} repeated call(s), {self.results} repeated result(s) and "
                f"{self.texts} repeated assistant text(s) are shown once, where they first appear."
            )


def same_block(first: RawRef, kind: str, key: str, call_id: str, value: Any, error: bool = False) -> bool:
    """True when the record ``first`` points at holds the ``kind`` block of ``call_id`` (under its id
    field ``key``) whose ``input`` (tool_use) or ``content`` and ``is_error`` (tool_result) equal ``value``."""
    try:
        record, problem = values.loads_json(_reread.reread(first))
    except OSError:
        return False
    if problem is not None:
        return False
    block = _find(record, kind, key, call_id, _DEPTH)
    if block is None:
        return False
    if kind == "tool_use":
        return bool(block.get("input") == value)
    return bool(block.get("content") == value and (block.get("is_error") is True) == error)


def _find(value: Any, kind: str, key: str, call_id: str, depth: int) -> dict[str, Any] | None:
    if depth < 0:
        return None
    if isinstance(value, dict):
        if value.get("type") == kind and value.get(key) == call_id:
            return value
        children: Any = value.values()
    elif isinstance(value, list):
        children = value
    else:
        return None
    for child in children:
        if isinstance(child, (dict, list)):
            found = _find(child, kind, key, call_id, depth - 1)
            if found is not None:
                return found
    return None
