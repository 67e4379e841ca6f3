"""What protocol parsers produce: requests, results, conversation messages and malformed records."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Union

from inspector.model.values import MAX_TIME_S, MIN_TIME_S, duration_ms, time_s
from inspector.userpath import open_binary


class Executor(str, enum.Enum):
    """Who executes a tool call (Alicia's ``execution`` field)."""

    SERVER = "server"
    CLIENT = "client"
    EITHER = "either"

    @property
    def client_may_answer(self) -> bool:
        """A client executes (or may execute) it, so a client, or the inspector standing in, answers it."""
        return self is not Executor.SERVER


class Outcome(str, enum.Enum):
    """How one result says the call ended (LM-Kit's taxonomy)."""

    SUCCESS = "success"
    ERROR = "error"
    TIMEOUT = "timeout"
    CANCELED = "canceled"
    DENIED = "denied"


class _NoExtra(dict[str, Any]):
    """An ``extra`` that stays empty: writing to it raises (see :data:`NO_EXTRA`)."""

    __slots__ = ()

    def _refuse(self, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(
            "this event's extra is the shared empty one (NO_EXTRA): give the event a dict of its own"
        )

    __setitem__ = __delitem__ = setdefault = update = pop = popitem = clear = __ior__ = _refuse


NO_EXTRA: dict[str, Any] = _NoExtra()
"""One empty ``extra`` for the events of a reader that never adds to it (a Claude Code transcript's): a
dict of its own per event is 64 bytes, 1 MB for the 17,000 requests and results of a 100 MB transcript.
It is a dict to whoever reads it; a write raises TypeError rather than reaching every event."""


_SPAN_BITS = 40
_SPAN_MASK = (1 << _SPAN_BITS) - 1


_new_place = object.__new__


_ORIGINS: dict[tuple[str, str], tuple[str, str]] = {}
"""One ``(source, protocol)`` pair for every place of a source read as a protocol (see :class:`RawRef`)."""
_ORIGINS_KEPT = 4096


def _origin(source: str, protocol: str) -> tuple[str, str]:
    """The ``(source, protocol)`` pair the places of ``source`` share, as ``intern`` shares strings (the
    map is emptied past ``_ORIGINS_KEPT`` pairs, so a flood of names stays bounded)."""
    origin = (source, protocol)
    found = _ORIGINS.get(origin)
    if found is None:
        if len(_ORIGINS) >= _ORIGINS_KEPT:
            _ORIGINS.clear()
        found = _ORIGINS[origin] = origin
    return found


class RawRef:
    """Where the original record or packet lives: a byte range of a file, or the bytes themselves.

    ``where`` says where for people ("packet 3", "object 2 (call c1)"); a reader of lines passes the
    line's number and ``where`` says "line N" when asked. Equal when they say the same place.

    A line of a file (a number for ``where``, an offset and a length below 2^40, no bytes: nearly every
    place a read keeps) is kept as one integer of the three: a place is a third of what a call keeps, and
    an object with six fields and its three numbers was 176 bytes, 3.2 MB for the 19,000 places of a
    100 MB transcript; 112 bytes so. Anything else keeps a tuple of the four. The source and the
    protocol are one pair shared by every place of the source (``_origin``): a field each was 16 bytes
    more a place (0.3 MB of that transcript's).
    """

    __slots__ = ("_origin", "_at")

    def __init__(
        self,
        source: str,
        where: str | int,
        offset: int = -1,
        length: int = 0,
        data: bytes | None = None,
        protocol: str = "",
    ) -> None:
        self._origin = _origin(source, protocol)
        self._at: int | tuple[str | int, int, int, bytes | None]
        if (
            data is None
            and type(where) is int
            and where >= 0
            and type(offset) is int
            and -1 <= offset < _SPAN_MASK
            and type(length) is int
            and 0 <= length <= _SPAN_MASK
        ):
            self._at = (((where << _SPAN_BITS) | (offset + 1)) << _SPAN_BITS) | length
        else:
            self._at = (where, offset, length, data)

    @classmethod
    def line(cls, source: str, number: int, offset: int, length: int, protocol: str) -> RawRef:
        """``RawRef(source, number, offset, length, None, protocol)`` for a reader of a file's lines,
        whose number and offset are never negative: packed without ``__init__``'s checks of its types
        (every line of a read makes one)."""
        if offset < _SPAN_MASK and length <= _SPAN_MASK:
            place = _new_place(cls)
            place._origin = _origin(source, protocol)
            place._at = (((number << _SPAN_BITS) | (offset + 1)) << _SPAN_BITS) | length
            return place
        return cls(source, number, offset, length, None, protocol)

    @property
    def source(self) -> str:
        return self._origin[0]

    @property
    def protocol(self) -> str:
        return self._origin[1]

    @protocol.setter
    def protocol(self, protocol: str) -> None:  # a place read before its format was known (protocols.empty)
        self._origin = _origin(self._origin[0], protocol)

    @property
    def where(self) -> str:
        at = self._at
        if isinstance(at, int):
            return f"line {at >> (2 * _SPAN_BITS)}"
        where = at[0]
        return where if isinstance(where, str) else f"line {where}"

    @property
    def offset(self) -> int:
        at = self._at
        if isinstance(at, int):
            return ((at >> _SPAN_BITS) & _SPAN_MASK) - 1
        return at[1]

    @property
    def length(self) -> int:
        at = self._at
        if isinstance(at, int):
            return at & _SPAN_MASK
        return at[2]

    def end(self) -> int:
        """Where the bytes end in the file (offset + length), -1 when the place has no offset (one call
        where a file's read asks each event how far it reached)."""
        at = self._at
        if isinstance(at, int):
            offset = ((at >> _SPAN_BITS) & _SPAN_MASK) - 1
            return offset + (at & _SPAN_MASK) if offset >= 0 else -1
        return at[1] + at[2] if at[1] >= 0 else -1

    @property
    def data(self) -> bytes | None:
        at = self._at
        return None if isinstance(at, int) else at[3]

    def _fields(self) -> tuple[str, str, int, int, bytes | None, str]:
        return (self.source, self.where, self.offset, self.length, self.data, self.protocol)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RawRef):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    def __repr__(self) -> str:
        source, where, offset, length, data, protocol = self._fields()
        return (
            f"RawRef(source={source!r}, where={where!r}, offset={offset!r}, length={length!r}, "
            f"data={data!r}, protocol={protocol!r})"
        )

    def read(self) -> bytes:
        """Return the original bytes (read back from the file when only an offset is kept)."""
        if self.data is not None:
            return self.data
        if self.offset < 0:
            return b""
        with open_binary(self.source) as fh:
            fh.seek(self.offset)
            return fh.read(self.length)


@dataclass(slots=True)
class Request:
    """A tool request as a wire format carries it."""

    call_id: str
    tool: str
    group: str = ""
    params: Any = None
    executor: Executor | None = None
    timeout_ms: int | None = None
    ts: float | None = None
    sender: str = ""
    raw: RawRef | None = None
    parent_id: str | None = None
    violation: str | None = None
    summary: str = ""
    message_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # what a decoder read, made finite and within range in one place (model/values.py); a time
        # already a float in range and no timeout (nearly every request) without a call
        ts = self.ts
        if type(ts) is not float or not MIN_TIME_S <= ts <= MAX_TIME_S:
            self.ts = time_s(ts)
        if self.timeout_ms is not None:
            self.timeout_ms = duration_ms(self.timeout_ms)

    @property
    def deadline(self) -> float | None:
        """Epoch seconds when the request expires, if it carries a timeout and a time."""
        if self.timeout_ms is None or self.ts is None:
            return None
        return self.ts + self.timeout_ms / 1000.0


@dataclass(slots=True)
class Result:
    """One result for a call id (there may be several; the first decides)."""

    call_id: str
    outcome: Outcome
    group: str = ""
    data: Any = None
    error_code: str | None = None
    error_message: str | None = None
    ts: float | None = None
    sender: str = ""
    raw: RawRef | None = None
    details: Any = None
    has_diff: bool = False
    tool: str = ""
    answered_by: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ts = self.ts  # as time_s does, its common case without a call
        if type(ts) is not float or not MIN_TIME_S <= ts <= MAX_TIME_S:
            self.ts = time_s(ts)


@dataclass(slots=True)
class Message:
    """A conversation event that is not a tool call: user/assistant text, errors, unknown types."""

    kind: str
    text: str = ""
    group: str = ""
    ts: float | None = None
    sender: str = ""
    raw: RawRef | None = None
    parent_id: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ts = self.ts  # as time_s does, its common case without a call
        if type(ts) is not float or not MIN_TIME_S <= ts <= MAX_TIME_S:
            self.ts = time_s(ts)


@dataclass(slots=True)
class Marker(Message):
    """A boundary in a session, shown as one separator row: context compacted, a resumed session begins.

    ``text`` is the row's one line (so anything that shows a message shows a marker); ``body`` is
    what is folded under it, shown in the detail only (a compaction's summary, the results it
    cleared). ``kind`` names the boundary: ``compaction``, ``microcompaction``, ``resume``.
    """

    body: str = ""


@dataclass(slots=True)
class Malformed:
    """A record that could not be read: what was wrong and where."""

    where: str
    reason: str
    source: str = ""
    raw: RawRef | None = None


def noted(note: str | None, raw: RawRef | None, where: str, events: list[Any]) -> list[Any]:
    """A record's events, after a ``Malformed`` saying what was wrong with bytes it was read from all
    the same (``values.loads_noted``: invalid UTF-8 read as U+FFFD); the events alone without a note."""
    if note is None:
        return events
    return [Malformed(where, note, raw.source if raw is not None else "", raw), *events]


@dataclass(slots=True)
class Skipped:
    """A record of a type the parser does not show (counted per kind, never fatal)."""

    kind: str
    where: str = ""


@dataclass(slots=True)
class Adopt:
    """A call already threaded goes under another one, found to have started it only afterwards (the
    bridge's half of a phone tool call reaching a hub monitor before the agent's half)."""

    group: str
    call_id: str
    parent_id: str


Event = Union[Request, Result, Message, Malformed, Skipped, Adopt]  # noqa: UP007 - a runtime alias (a Marker is a Message)
