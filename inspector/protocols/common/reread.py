"""A stored record read again for a format's ``redecode`` (the detail, ``dump --json``, a search)."""

from __future__ import annotations

from inspector.model import values
from inspector.model.events import RawRef


def reread(raw: RawRef) -> bytes | str:
    """A stored record's bytes again, for a format's ``redecode``; a huge one as its text with the bytes
    dropped and a BOM taken off, which the stdlib parser reads in 2x the record where orjson needs 3x
    (``inspector dump --json`` of a 200 MB result; bench/bench_huge_record.py)."""
    data = raw.read()
    if len(data) <= values.HUGE_TEXT:
        return data
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data  # the parser says where it is not UTF-8
    del data
    return text[1:] if text.startswith("\ufeff") else text
