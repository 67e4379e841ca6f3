"""The shared block reader of JSON Lines files (common/lineblocks.py), on its own and under its three
readers (Claude Code, Codex, JSON Lines): every byte of the file comes once, at its offset, in blocks of
whole lines, whatever block a line starts, ends or spans; a line longer than the buffer comes alone in a
buffer of its exact size; a file that grows while it is read is read to its new end."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import inspector.protocols.common.jsonfile as _jsonfile
from inspector.protocols import claude, codex
from inspector.protocols.common.lineblocks import POOL_KEPT, line_blocks, take_text


def blocks(path: Path, size: int, pool: list[bytearray] | None = None) -> list[tuple[int, bytes, bool, int]]:
    """``(offset, bytes, own, buffer length)`` per block."""
    with open(path, "rb") as fh:
        return [
            (offset, bytes(buf[:end]), own, len(buf)) for offset, buf, end, own in line_blocks(fh, size, pool)
        ]


def check(data: bytes, got: list[tuple[int, bytes, bool, int]], size: int) -> None:
    """The blocks are the file, in order, each of whole lines; a line longer than ``size`` comes alone."""
    assert b"".join(block for _, block, _, _ in got) == data
    offset = 0
    for number, (at, block, own, length) in enumerate(got, 1):
        assert at == offset and block
        offset += len(block)
        last = number == len(got)
        assert block.endswith(b"\n") or last  # only the file's last line may end without a newline
        lines = block.splitlines(keepends=True) if b"\r" not in block else block.split(b"\n")
        if own:  # alone, in a buffer of its exact length, longer than the buffer of the blocks
            assert length == len(block) and block.count(b"\n") <= 1
            assert len(block) > size or (last and len(block) == size)
        else:
            assert length <= size and all(len(line) <= size for line in lines)


LINES = [
    b"",
    b"a",
    b"{}",
    b'{"k": 1}',
    b"\r",
    b"x" * 13,
    b"\xff\xfe\x00 bad bytes and a NUL",
    b"\r\r",
    b"y" * 30,
]


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, 21, 34, 64])
@pytest.mark.parametrize("final", [b"\n", b"", b"\r\n", b"\r"])
def test_every_line_comes_whole_at_its_offset_whatever_the_block_size(tmp_path, size, final):
    path = tmp_path / "f.jsonl"
    data = b"\r\n".join(LINES) + b"\n" + b"\n".join(LINES) + final
    path.write_bytes(data)
    check(data, blocks(path, size), size)


@pytest.mark.parametrize("size", [4, 7, 16])
def test_a_line_split_at_every_offset_of_the_block_is_read_whole(tmp_path, size):
    """A line that starts at each offset of the first block and ends at each offset of a later one (a
    CR LF cut between two blocks too) comes whole, once, and the lines before and after it too."""
    path = tmp_path / "f.jsonl"
    for lead in range(2 * size + 1):
        for length in range(1, 2 * size + 2):
            for end in (b"\n", b"\r\n"):
                data = b"p" * lead + b"\n" + b"q" * length + end + b"r\n"
                path.write_bytes(data)
                got = blocks(path, size)
                check(data, got, size)
                lines = [line for _, block, _, _ in got for line in block.splitlines(keepends=True)]
                assert lines == data.splitlines(keepends=True)


def test_an_empty_file_has_no_blocks_and_a_buffer_no_larger_than_the_file(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"")
    assert blocks(path, 1 << 20) == []
    path.write_bytes(b"\n\n")
    assert blocks(path, 1 << 20) == [(0, b"\n\n", False, 3)]  # the file's size, plus one byte
    path.write_bytes(b'{"a": 1}')
    assert blocks(path, 1 << 20) == [(0, b'{"a": 1}', False, 9)]  # the last line without a newline


def test_a_line_longer_than_the_buffer_comes_alone_in_a_buffer_of_its_length(tmp_path):
    path = tmp_path / "f.jsonl"
    long = b'{"k": "' + b"z" * 100 + b'"}'
    data = b"a\n" + long + b"\r\n" + b"b\n" + long  # the last one without a newline
    path.write_bytes(data)
    got = blocks(path, 16)
    check(data, got, 16)
    assert [(block, own) for _, block, own, _ in got if own] == [(long + b"\r\n", True), (long, True)]


def test_a_pool_lends_its_buffer_and_takes_it_back(tmp_path):
    path = tmp_path / "f.jsonl"
    data = b"a\n" + b"z" * 40 + b"\nb\n"
    path.write_bytes(data)
    pool: list[bytearray] = []
    first = blocks(path, 16, pool)
    check(data, first, 16)
    assert [len(buf) for buf in pool] == [16]  # a buffer of full size, not the file's: kept for the next
    lent = pool[0]
    with open(path, "rb") as fh:
        reader = line_blocks(fh, 16, pool)
        assert next(reader)[1] is lent and pool == []
        reader.close()
    assert pool == [lent]
    assert blocks(path, 8, pool) == blocks(path, 8) and pool == [lent, pool[1]]  # not lent: another size
    assert len(pool[1]) == 8
    for _ in range(3):  # read together: each has its own; the pool keeps POOL_KEPT of them
        readers = [line_blocks(open(path, "rb"), 16, pool) for _ in range(3)]  # noqa: SIM115
        for reader in readers:
            next(reader)
        for reader in readers:
            reader.close()
    assert len(pool) == POOL_KEPT


@pytest.mark.parametrize("size", [4, 16, 1 << 20])
def test_a_file_that_grows_while_it_is_read_is_read_to_its_new_end(tmp_path, size):
    """The buffer is sized to the file when the read starts; lines written meanwhile, longer than it
    (and than ``size``), are read as a file of them all is."""
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"a\nbc\n")
    with open(path, "rb") as fh:
        reader = line_blocks(fh, size)
        got = [next(reader)]
        got = [(got[0][0], bytes(got[0][1][: got[0][2]]), got[0][3], len(got[0][1]))]
        with open(path, "ab") as out:
            out.write(b"d" * 30 + b"\n" + b"e\r\n" + b"f" * 3)
        got += [(offset, bytes(buf[:end]), own, len(buf)) for offset, buf, end, own in reader]
    data = path.read_bytes()
    check(data, got, size)
    assert got[0][3] <= 6  # the first block's buffer: the file's size then, plus one byte


class _Shrinking(io.BytesIO):
    """A file cut short between the look for a long line's end and its read."""

    def seek(self, offset: int, whence: int = 0) -> int:
        self.truncate(20)
        return super().seek(offset, whence)


def test_a_long_line_cut_short_while_it_is_read_is_what_the_file_still_holds():
    fh = _Shrinking(b"x" * 50 + b"\n")
    got = [(offset, bytes(buf[:end]), own, len(buf)) for offset, buf, end, own in line_blocks(fh, 8)]
    assert got == [(0, b"x" * 20, True, 20)]


def test_take_text_empties_the_buffer_unless_its_bytes_are_not_utf8():
    buf = bytearray("ab\u00e9c\n".encode())
    assert take_text(buf, 1, 5) == "b\u00e9c" and buf == bytearray()
    bad = bytearray(b"a\xffb")
    assert take_text(bad, 0, 3) is None and bad == bytearray(b"a\xffb")


# -- the three readers over it ------------------------------------------------------------------------

_TS = "2025-11-23T00:00:00.000Z"


def _claude_lines(n: int) -> list[bytes]:
    base = {"sessionId": "s", "cwd": "/w", "timestamp": _TS}
    rows = []
    for i in range(n):
        use = {"type": "tool_use", "id": f"toolu_{i}", "name": "Bash", "input": {"command": "é" * (i * 7)}}
        res = {"type": "tool_result", "tool_use_id": f"toolu_{i}", "content": "o" * (i * 11)}
        rows.append(
            {**base, "type": "assistant", "uuid": f"a{i}", "message": {"role": "assistant", "content": [use]}}
        )
        rows.append({**base, "type": "user", "uuid": f"u{i}", "message": {"role": "user", "content": [res]}})
    return [json.dumps(row, ensure_ascii=False).encode() for row in rows]


def _codex_lines(n: int) -> list[bytes]:
    rows: list[dict] = [{"timestamp": _TS, "type": "session_meta", "payload": {"id": "s1"}}]
    for i in range(n):
        args = json.dumps({"command": ["echo", "é" * (i * 7)]})
        call = {"type": "function_call", "name": "shell", "call_id": f"c{i}", "arguments": args}
        out = {"type": "function_call_output", "call_id": f"c{i}", "output": "o" * (i * 11)}
        rows += [{"timestamp": _TS, "type": "response_item", "payload": item} for item in (call, out)]
    return [json.dumps(row, ensure_ascii=False).encode() for row in rows]


def _places(data: bytes) -> dict[str, tuple[int, int]]:
    """``line N`` -> (offset, length without its newline and the carriage returns before it)."""
    places, offset = {}, 0
    for number, line in enumerate(
        data.splitlines(keepends=True) if b"\r\n" in data else data.split(b"\n"), 1
    ):
        places[f"line {number}"] = (offset, len(line.rstrip(b"\r\n")))
        offset += len(line) + (0 if b"\r\n" in data else 1)
    return places


def _events(read, path: Path) -> list[tuple]:
    return [
        (type(event).__name__, event.raw.where, event.raw.offset, event.raw.length)
        for event in read(str(path))
        if getattr(event, "raw", None) is not None
    ]


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
@pytest.mark.parametrize("final", [True, False])
def test_each_reader_gives_the_same_events_at_the_same_places_whatever_its_block_size(
    tmp_path, monkeypatch, end, final
):
    """Claude Code, Codex and JSON Lines reads, their buffers from one byte to past every line: the
    events and their places of the default size, each at the place its bytes say (a CR LF cut between
    two blocks leaves its CR out of the line)."""
    cases = [
        (
            claude,
            "BLOCK",
            claude.read,
            tmp_path / "5a3e0000-0000-4000-8000-000000000001.jsonl",
            _claude_lines(6),
        ),
        (codex, "BLOCK", codex.read, tmp_path / "rollout-2025-11-23T00-00-00-x.jsonl", _codex_lines(6)),
        (
            _jsonfile,
            "LONG_LINE",
            lambda p: [_Place(c) for c in _jsonfile.read_chunks(p)],
            tmp_path / "f.jsonl",
            _codex_lines(6),
        ),
    ]
    for module, name, read, path, lines in cases:
        data = end.join(lines) + (end if final else b"")
        path.write_bytes(data)
        expected = _events(read, path)
        assert len(expected) >= 12
        places = _places(data)
        assert all(places[where] == (offset, length) for _, where, offset, length in expected)
        for size in [*range(1, 40), 97, 256, 1000]:
            with monkeypatch.context() as patched:
                patched.setattr(module, name, size)
                if module is claude:
                    patched.setattr(claude, "_POOL", [])
                assert _events(read, path) == expected, (module.__name__, size)


class _Place:
    """A JSON Lines chunk as an event with a place."""

    def __init__(self, chunk: _jsonfile.Chunk) -> None:
        self.raw = self
        self.where, self.offset, self.length = chunk.where, chunk.offset, chunk.length


@pytest.mark.parametrize("kind", ["claude", "codex", "jsonl"])
def test_a_line_past_the_real_buffer_size_reads_as_the_whole_file_read_at_once(tmp_path, kind):
    """At the real sizes (256 KB, 1 MB): a 3 MB line between short ones, read alone in its own buffer,
    gives the events a buffer larger than the file gives."""
    big = "z" * (3 << 20)
    if kind == "claude":
        lines = _claude_lines(3)
        record = json.loads(lines[3])
        record["message"]["content"][0]["content"] = big
        lines[3] = json.dumps(record).encode()
        path, module, name = tmp_path / "5a3e0000-0000-4000-8000-000000000002.jsonl", claude, "BLOCK"
        read = claude.read
    else:
        lines = _codex_lines(3)
        record = json.loads(lines[4])
        record["payload"]["output"] = big
        lines[4] = json.dumps(record).encode()
        path = tmp_path / ("rollout-2025-11-23T00-00-00-y.jsonl" if kind == "codex" else "f.jsonl")
        module, name = (codex, "BLOCK") if kind == "codex" else (_jsonfile, "LONG_LINE")
        read = codex.read if kind == "codex" else lambda p: [_Place(c) for c in _jsonfile.read_chunks(p)]
    path.write_bytes(b"\n".join(lines) + b"\n")
    got = _events(read, path)
    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(module, name, 8 << 20)
        if module is claude:
            patched.setattr(claude, "_POOL", [])
        assert _events(read, path) == got
    assert len(got) >= 4
