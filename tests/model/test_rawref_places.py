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


def test_end_is_where_the_bytes_end_and_minus_one_without_an_offset() -> None:
    """A file's read asks each event how far it reached: offset + length, or -1 for a place without one."""
    for place in (
        RawRef("t.jsonl", 7, 0, 12),
        RawRef("t.jsonl", 7, 1000, 0),
        RawRef("t.jsonl", 1, (1 << 40) - 2, (1 << 40) - 1),
        RawRef("t.jsonl", 3, 1 << 41, 5),  # past the packed range: a tuple
        RawRef("t.jsonl", "object 2", 40, 8),
    ):
        assert place.end() == place.offset + place.length
    for place in (
        RawRef("t.jsonl", 7),
        RawRef("t.jsonl", "packet 3", data=b"x"),
        RawRef("t.jsonl", 7, -1, 500),
        RawRef("t.jsonl", "object 1", -5, 9),
    ):
        assert place.offset < 0 and place.end() == -1


def test_a_line_place_is_the_place_init_makes() -> None:
    """RawRef.line (a reader of lines: no checks of the types) gives what RawRef(...) gives, past the
    packed range too."""
    numbers = [0, 1, 26_000, 2**31, 10**15]
    offsets = [0, 1, 99_000_000, EDGE - 2, EDGE - 1, EDGE, 2**63]
    lengths = [0, 1, 256, EDGE - 1, EDGE, 2**50]
    for number, offset, length in itertools.product(numbers, offsets, lengths):
        made = RawRef.line("s.jsonl", number, offset, length, "claude")
        assert type(made) is RawRef
        assert made == RawRef("s.jsonl", number, offset, length, None, "claude")
        assert (made.where, made.offset, made.length, made.data, made.end()) == (
            f"line {number}",
            offset,
            length,
            None,
            offset + length,
        )


def test_the_places_of_a_source_share_one_source_and_protocol() -> None:
    """A read's places keep their source and protocol once for all of them (a field each was 16 bytes
    more a place); a protocol set afterwards (a file read before its format was known) is its own."""
    places = [RawRef.line("s.jsonl", n, n * 10, 9, "claude") for n in range(1, 5)]
    places.append(RawRef("s.jsonl", 9, 90, 9, None, "claude"))
    assert len({id(place._origin) for place in places}) == 1
    other = RawRef.line("s.jsonl", 1, 0, 9, "codex")
    assert (other.source, other.protocol) == ("s.jsonl", "codex") and places[0].protocol == "claude"
    places[0].protocol = "gemini"
    assert (places[0].source, places[0].protocol) == ("s.jsonl", "gemini")
    assert [place.protocol for place in places[1:]] == ["claude"] * 4
