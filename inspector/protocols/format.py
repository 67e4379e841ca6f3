"""The Format seam: what every wire or file format offers the rest of the inspector.

A format module ends with ``FORMAT = Format(...)`` naming its functions, so that the type checker
verifies each one against the signatures below, and the registry (:mod:`inspector.protocols`) hands
out typed ``Format`` values instead of modules probed with ``getattr``. Capabilities a format may
lack (reading files that know of each other as a set, a raw-record view) are ``None``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from inspector.model.events import Event, RawRef

if TYPE_CHECKING:
    from inspector.protocols.raw_record import RawRecord

Sniff = Callable[[str, bytes], int]
"""``sniff(path, head)``: 0 when the content is not this format, higher when surer."""
Read = Callable[[str], Iterator[Event]]
"""``read(path)``: every event of the file; bad records are ``Malformed`` events, only an unusable file raises OSError."""
Redecode = Callable[[RawRef], list[Event]]
"""``redecode(raw)``: one stored record decoded again (the detail view, ``dump --json``)."""
DecodeLine = Callable[[bytes, RawRef], list[Event]]
"""``decode_line(line, raw)``: one appended line (following a file)."""
ReadSet = Callable[[list[str]], list[Iterator[Event]]]
"""``read_set(paths)``: files of this format opened together that know of each other, one iterator each."""
DescribeRaw = Callable[[bytes], "RawRecord"]
"""``raw_record(data)``: how one stored record reads in the raw view."""


@dataclass(frozen=True)
class Format:
    """One format: its name, how to recognise it, and how to read it."""

    name: str
    description: str
    sniff: Sniff
    read: Read
    redecode: Redecode
    decode_line: DecodeLine | None = None
    read_set: ReadSet | None = None
    raw_record: DescribeRaw | None = None
    read_bare: Read | None = None
    """``read`` leaving out what a store that drops payloads would drop (each result's detail); None: no
    such reading, ``read`` serves."""
    read_set_bare: ReadSet | None = None
    """``read_set`` leaving out the same."""
    read_lean: Read | None = None
    """``read`` for a store that keeps payloads but shows no detail (``dump --json``): each result's
    detail left out but for what the JSON carries (a saved output's place); None: ``read`` serves."""
    read_set_lean: ReadSet | None = None
    """``read_set`` leaving out the same."""

    def reader(self, details: bool = True, lean: bool = False) -> Read:
        """``read``, or ``read_bare`` when details are not wanted and the format has it (``read_lean``
        when ``lean`` and it has that)."""
        if lean and self.read_lean is not None:
            return self.read_lean
        return self.read if details or self.read_bare is None else self.read_bare

    def set_reader(self, details: bool = True, lean: bool = False) -> ReadSet | None:
        """``read_set`` (or ``read_set_bare``, ``read_set_lean``, as :meth:`reader`); None when the
        format reads no sets."""
        if lean and self.read_set_lean is not None:
            return self.read_set_lean
        return self.read_set if details or self.read_set_bare is None else self.read_set_bare

    @property
    def follows(self) -> bool:
        """True when the format can decode one appended line at a time."""
        return self.decode_line is not None
