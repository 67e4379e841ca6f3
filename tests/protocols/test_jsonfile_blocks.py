"""A JSON Lines file read in blocks (``jsonfile._block_lines``, over common/lineblocks.py) gives the chunks
the line-by-line read gives: the same values, errors, line numbers and byte spans, whatever block a line
starts, ends or spans (issue 23: the blocks are cut in C, the lines decoded from views)."""

from __future__ import annotations

import json

import pytest

import inspector.protocols.common.jsonfile as _jsonfile
from inspector.model import values

LINES = [
    json.dumps({"id": "m1", "type": "user", "content": "é and 😀"}).encode(),
    b"",
    b"   ",
    json.dumps({"a": 1}).encode() + b"\r",  # CR LF
    json.dumps({"b": 2}).encode() + b"\r\r",  # carriage returns before the newline
    b'{"c": "x\ry"}',  # a lone carriage return inside the line
    b'{"broken": ',
    b'[1, {"d": 4}, 3]',
    b'"a string"',
    b"\xff\xfe not UTF-8",
    b'{"lone": "\\ud800"}',
    b'{"n": 123456789012345678901234567890123, "f": 1e400}',
    b"  " + json.dumps({"e": [5] * 40}).encode() + b"  ",
    b"\r",
]


def by_lines(path) -> list[tuple]:
    """The chunks as the line-by-line read gives them (the reference: the file's bytes cut at each newline)."""
    with open(path, "rb") as fh:
        return [_key(chunk) for chunk in _jsonfile._lines(_jsonfile._split_lines(fh.read()))]


def read(path) -> list[tuple]:
    return [_key(chunk) for chunk in _jsonfile.read_chunks(str(path))]


def _key(chunk: _jsonfile.Chunk) -> tuple:
    return (chunk.where, chunk.offset, chunk.length, chunk.line, chunk.value, chunk.error)


@pytest.mark.parametrize("block", [1, 7, 64, 1 << 20])
@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
@pytest.mark.parametrize("final", [b"\n", b"", b"\r\n", b"\r"])
def test_blocks_give_the_chunks_lines_give(tmp_path, monkeypatch, block, bom, final):
    monkeypatch.setattr(_jsonfile, "LONG_LINE", block)
    path = tmp_path / "f.jsonl"
    path.write_bytes(bom + b"\n".join(LINES * 3) + final)
    got = read(path)
    assert got == by_lines(path)
    assert len(got) > 3 * 8
    data = path.read_bytes()
    for where, offset, length, _line, value, error in got:
        if error is None and "item" not in where:  # a whole line: its span is the line without its end
            assert values.loads_json(data[offset : offset + length]) == (value, None)
            assert data[offset + length : offset + length + 1] in (b"\n", b"\r", b"")


@pytest.mark.parametrize("block", [5, 50, 64, 100, 1 << 20])
def test_long_lines_between_blocks_are_read_whole(tmp_path, monkeypatch, block):
    """A line of LONG_LINE bytes or more takes the long line's path (its own buffer, parsed from text
    past HUGE_TEXT) wherever the blocks cut it, and the lines after it are read again in blocks."""
    monkeypatch.setattr(_jsonfile, "LONG_LINE", block)
    monkeypatch.setattr(values, "HUGE_TEXT", 200)
    big = json.dumps({"k": "z" * 500}).encode()
    near = json.dumps({"k": "y" * 50}).encode()  # about LONG_LINE
    lines = [LINES[0], big, near, near + b"\r", b"[" + big + b", 2]", near[:-1], big[:-2], LINES[3], big]
    path = tmp_path / "f.jsonl"
    for final in (b"\n", b""):
        path.write_bytes(b"\n".join(lines) + final)
        got = read(path)
        assert got == by_lines(path)
        assert [c[4] for c in got if c[5] is None][:3] == [
            json.loads(LINES[0]),
            json.loads(big),
            json.loads(near),
        ]


@pytest.mark.parametrize("long_line", [7, 64, 100, 1 << 20])
def test_a_file_that_grows_while_it_is_read_is_read_to_its_new_end(tmp_path, monkeypatch, long_line):
    """The blocks' buffer is no larger than the file when its read starts (a small file clears no 1 MB
    buffer); lines written while it is read, longer than that buffer, are read as a file of them all is."""
    monkeypatch.setattr(_jsonfile, "LONG_LINE", long_line)
    path = tmp_path / "f.jsonl"
    first = [json.dumps({"n": 1}).encode(), json.dumps({"n": 2}).encode()]
    later = [json.dumps({"k": "x" * 300}).encode(), LINES[0], json.dumps({"k": "y" * 40}).encode()]
    path.write_bytes(b"\n".join(first) + b"\n")
    got = []
    with open(path, "rb") as fh:
        chunks = _jsonfile._block_lines(fh)
        got.append(_key(next(chunks)))
        with open(path, "ab") as out:
            out.write(b"\n".join(later) + b"\n" + b'{"last": true}')
        got += [_key(chunk) for chunk in chunks]
    assert got == by_lines(path)
    assert got[-1][4] == {"last": True} and len(got) == 6
