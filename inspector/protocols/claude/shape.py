"""A Claude Code line decoded to the keys its reader asks for: msgspec types of a record, its message
and its content blocks.

Most of a line is never read: uuids, versions, the branch, each message's model, role and usage
figures, thinking text and its signature, a pasted image's base64. msgspec passes over a key these types
do not name without building its value; what is kept is what the whole parse gives for it (the same
dicts, lists and strings; a key absent when the line lacks it, so ``record.get`` reads as before), and
a value typed ``Any`` (a call's input, a result's content, ``toolUseResult``, a progress record's
``data``) is decoded whole. A line of another shape (a ``message`` that is no object, a block that is
none, anything not JSON) is refused, and its reader parses it whole, which says what is wrong.

msgspec checks that what it passes over is JSON, not that it is UTF-8: a line is decoded here only when
it is ASCII (the reader checks), so that a byte that is not UTF-8 is read and said wherever it stands.

The fields are named in the order Claude Code writes them: msgspec looks for a key's field from the one
after the last found, so a record's keys each cost one comparison.
"""

from __future__ import annotations

from typing import Any, TypedDict, cast, get_type_hints

from msgspec.json import Decoder


class Block(TypedDict, total=False):
    """A content block: text, tool_use (or server_tool_use), tool_result (or ``*_tool_result``), image..."""

    type: Any
    id: Any
    name: Any
    input: Any
    tool_use_id: Any
    content: Any
    is_error: Any
    text: Any


class Message(TypedDict, total=False):
    """The ``message`` of a user or an assistant record."""

    id: Any
    content: str | list[Block]


class Record(TypedDict, total=False):
    """Every key a record of any type is read for (records.py, marks.py, resume.py, the reader)."""

    parentUuid: Any
    isSidechain: Any
    agentId: Any
    cwd: Any
    sessionId: Any
    type: Any
    message: Message
    isMeta: Any
    isCompactSummary: Any
    uuid: Any
    timestamp: Any
    toolUseResult: Any
    data: Any  # progress
    parentToolUseID: Any
    toolUseID: Any
    subtype: Any  # system
    content: Any
    compactMetadata: Any
    microcompactMetadata: Any
    summary: Any  # summary


decode = Decoder(Record).decode
"""One line's bytes as a :class:`Record`; raises ValueError (msgspec's DecodeError and ValidationError),
TypeError or RecursionError for a line it refuses."""


class ResultFacts(TypedDict, total=False):
    """What a read without details asks of an object ``toolUseResult``: whether it is a patch with hunks
    (details.has_diff), the agent or the workflow run it names (the planner's links). The files' contents,
    outputs and texts it holds (a third of a transcript's bytes) are passed over."""

    type: Any
    filePath: Any
    oldString: Any
    structuredPatch: Any
    agentId: Any
    runId: Any


_FACTS_OR_VALUE = ResultFacts | str | list[Any] | int | float | bool | None
BareRecord: Any = cast(Any, TypedDict)(
    "BareRecord", get_type_hints(Record) | {"toolUseResult": _FACTS_OR_VALUE}, total=False
)
"""A :class:`Record` for a read without details (``ReadState`` neither ``details`` nor ``saved``): its
``toolUseResult`` as :class:`ResultFacts` when it is an object (any other value whole, as before)."""

decode_bare = Decoder(BareRecord).decode
""":func:`decode` for a read without details."""

KEYS = frozenset(Record.__annotations__)
"""The record keys kept (tests: the readers ask for no other)."""
