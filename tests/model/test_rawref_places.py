"""A record's place says what it was given, however it is kept (a line's as one number, others whole)."""

from __future__ import annotations

import itertools

from inspector.model import RawRef

EDGE = 2**40


def test_every_place_reads_back_what_it_was_given() -> None:
    wheres = [0, 1, 26_000, 2**31, 10**15, -1, True, "packet 3", "object 2 (call c1)", ""]
    offsets = [-1, 0, 1, 99_000_000, EDGE - 2, EDGE - 1, EDGE, 2**63, -5]
    lengths = [0, 1, 255, 256, 100_000, EDGE - 1, EDGE, 2**50, -1]
    for where, offset, length, data in itertools.product(wheres, offsets, lengths, [None, b"", b"\x00x"]):
        raw = RawRef("s.jsonl", where, offset, length, data, "claude")
        said = where if isinstance(where, str) else f"line {where}"
        assert (raw.source, raw.where, raw.offset, raw.length, raw.data, raw.protocol) == (
            "s.jsonl",
            said,
            offset,
            length,
            data,
            "claude",
        )
        assert raw == RawRef("s.jsonl", said, offset, length, data, "claude")
        assert repr(raw) == (
            f"RawRef(source='s.jsonl', where={said!r}, offset={offset!r}, length={length!r}, "
            f"data={data!r}, protocol='claude')"
        )


def test_a_line_read_back_from_its_file(tmp_path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"a":1}\n{"b":22}\r\n')
    first, second = RawRef(str(path), 1, 0, 7), RawRef(str(path), 2, 8, 8)
    assert (first.read(), second.read()) == (b'{"a":1}', b'{"b":22}')
    assert RawRef(str(path), 1).read() == b"" and RawRef(str(path), "x", data=b"kept").read() == b"kept"
    assert first != second and first != "line 1"
