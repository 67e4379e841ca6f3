"""A Codex rollout's events point at their lines: the byte offset where the line starts and its length
without the newline and the carriage returns before it, whatever ends the line (the read measures the
length without a copy of the line)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from inspector.protocols import codex

CORPUS = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "codex"


def _places(data: bytes) -> dict[str, tuple[int, int]]:
    """``line N`` -> (offset, length without its line end), from the bytes alone."""
    places, offset = {}, 0
    for number, line in enumerate(_lines(data), 1):
        places[f"line {number}"] = (offset, len(line.rstrip(b"\r\n")))
        offset += len(line)
    return places


def _lines(data: bytes) -> list[bytes]:
    """Lines as a binary file gives them: split after each newline only (a carriage return alone is no end)."""
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    return lines + ([parts[-1]] if parts[-1] else [])


def _check(path: Path) -> int:
    places = _places(path.read_bytes())
    count = 0
    for event in codex.read(str(path)):
        raw = getattr(event, "raw", None)
        if raw is None or raw.source != str(path) or raw.offset < 0:
            continue
        assert (raw.offset, raw.length) == places[raw.where], (path, raw.where)
        count += 1
    return count


def _call(call_id: str) -> bytes:
    item = {"type": "function_call", "name": "shell", "call_id": call_id, "arguments": '{"command": ["ls"]}'}
    return json.dumps(
        {"timestamp": "2025-11-23T00:00:00.000Z", "type": "response_item", "payload": item}
    ).encode()


@pytest.mark.parametrize(
    "ends",
    [
        (b"\n", b"\n", b"\n"),
        (b"\r\n", b"\r\n", b"\r\n"),
        (b"\r\r\n", b"\r\n", b""),  # carriage returns before the newline, a last line without one
        (b"\n", b"\r", b"\n"),  # a carriage return alone ends no line: two records on one line (malformed)
    ],
)
def test_each_event_points_at_its_line_whatever_ends_it(tmp_path: Path, ends: tuple[bytes, ...]) -> None:
    path = tmp_path / "rollout-2025-11-23T00-00-00-x.jsonl"
    meta = {"timestamp": "2025-11-23T00:00:00.000Z", "type": "session_meta", "payload": {"id": "s1"}}
    lines = [json.dumps(meta).encode(), _call("c1"), _call("c2")]
    path.write_bytes(b"\xef\xbb\xbf" + b"".join(line + end for line, end in zip(lines, ends, strict=True)))
    assert _check(path) >= 2


@pytest.mark.skipif(not CORPUS.is_dir(), reason="no shared corpus beside the repository")
def test_the_corpus_rollouts_events_point_at_their_lines() -> None:
    files = sorted(CORPUS.glob("*.jsonl"))
    assert files
    assert sum(_check(path) for path in files) > 100


FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real"


@pytest.mark.parametrize("block", [1, 2, 7, 64, 4096])
def test_any_block_size_reads_the_same_events_at_the_same_places(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, block: int
) -> None:
    """The rollout is read in blocks of one buffer kept for the file: lines cut by a block's end, lines
    longer than the buffer (it grows), a first line led by a byte-order mark, carriage returns, blank
    lines, a malformed line and a last line without a newline read as with the default block."""
    path = tmp_path / "rollout-2025-11-23T00-00-00-x.jsonl"
    meta = {"timestamp": "2025-11-23T00:00:00.000Z", "type": "session_meta", "payload": {"id": "s1"}}
    parts = [b"\xef\xbb\xbf" + json.dumps(meta).encode(), _call("c1") + b"\r", b"", b"   ", b"{not json",
             _call("c2") + b"\r\r", _call("c3" * 3000), b"\xef\xbb\xbf" + _call("c4"), _call("c5")]  # fmt: skip
    path.write_bytes(b"\n".join(parts))  # the last line without a newline
    files = [path, *sorted(FIXTURES.glob("*/rollout-*.jsonl"))[:4]]
    for file in files:
        expected = [repr(event) for event in codex.read(str(file))]
        with monkeypatch.context() as patched:
            patched.setattr(codex, "BLOCK", block)
            assert [repr(event) for event in codex.read(str(file))] == expected, file
    assert _check(path) >= 4
