"""Long JSON Lines records are read into a buffer of their own size and parsed from text (issue 9: memory
for one huge record within about 2x its size); what they decode to does not change."""

from __future__ import annotations

import json

import pytest

import inspector.protocols.common.jsonfile as _jsonfile
from inspector.model import values
from inspector.protocols.common.lineblocks import line_blocks


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(_jsonfile, "LONG_LINE", 64)
    monkeypatch.setattr(values, "HUGE_TEXT", 200)


def chunks(path):
    return [(c.where, c.offset, c.length, c.value, c.error) for c in _jsonfile.read_chunks(str(path))]


def write(tmp_path, lines: list[bytes]):
    path = tmp_path / "f.jsonl"
    path.write_bytes(b"".join(lines))
    return path


def test_long_lines_decode_as_short_ones_do(tmp_path, small_limits, monkeypatch):
    big = {"tool_call_id": "t1", "result": "é" * 500 + "x" * 3000}
    lines = [
        json.dumps({"a": 1}).encode() + b"\n",
        json.dumps(big).encode() + b"\r\n",
        b"[" + json.dumps(big).encode() + b', {"b": 2}]\n',
        json.dumps({"c": 3}).encode(),  # no newline at the end
    ]
    path = write(tmp_path, lines)
    read_long = chunks(path)
    monkeypatch.setattr(_jsonfile, "LONG_LINE", 1 << 20)
    monkeypatch.setattr(values, "HUGE_TEXT", 8 << 20)
    assert read_long == chunks(path)
    assert [value for *_, value, _ in read_long] == [{"a": 1}, big, big, {"b": 2}, {"c": 3}]


def test_a_long_line_not_json_is_one_bad_record_and_one_not_utf8_is_read_and_said(tmp_path, small_limits):
    lines = [
        b'{"a": 1}\n',
        b'{"x": "' + b"\xff" * 500 + b'"}\n',
        b'{"x": "' + b"y" * 500 + b"\n",  # cut short
        b'{"c": 3}\n',
    ]
    path = write(tmp_path, lines)
    found = chunks(path)
    assert [value for *_, value, error in found if error is None] == [
        {"a": 1},
        {"x": "\ufffd" * 500},
        {"c": 3},
    ]
    assert [where for where, *_, error in found if error] == ["line 3"]
    notes = [(c.where, c.note) for c in _jsonfile.read_chunks(str(path)) if c.note]
    assert notes == [("line 2", "held invalid UTF-8 (byte 7): read with U+FFFD in place of each bad byte")]


def test_the_long_line_buffer_is_exactly_the_line(tmp_path, small_limits):
    line = b'{"k": "' + b"z" * 1000 + b'"}\n'
    path = write(tmp_path, [line, b'{"n": 2}\n'])
    with open(path, "rb") as fh:
        got = [
            (offset, bytes(buffer[:end]), own, len(buffer) == end)
            for offset, buffer, end, own in line_blocks(fh, 64)
        ]
    assert got == [(0, line, True, True), (len(line), b'{"n": 2}\n', False, False)]


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"])
def test_a_huge_record_read_again_as_text_decodes_as_its_bytes_do(tmp_path, small_limits, bom):
    """``dump --json`` and the detail read a dropped payload again (``redecode``): a huge record is
    parsed from its text with the bytes dropped (2x the record, not orjson's 3x), to the same result."""
    from inspector.model import CallStore
    from inspector.sources.files import load
    from inspector.sources.session import hydrate

    text = "z\u00e9\U0001f600" * 200
    use = {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": "cat"}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": text}
    base = {"sessionId": "s", "cwd": "/w", "timestamp": "2026-11-01T10:00:00Z"}
    lines = [
        {**base, "type": "assistant", "uuid": "a", "message": {"role": "assistant", "content": [use]}},
        {
            **base,
            "type": "user",
            "uuid": "u",
            "parentUuid": "a",
            "message": {"role": "user", "content": [result]},
        },
    ]
    path = tmp_path / "5a3e0000-0000-4000-8000-000000000009.jsonl"
    path.write_bytes(bom + b"\n".join(json.dumps(line).encode() for line in lines) + b"\n")
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    [call] = store.all_calls()
    assert call.results[0].data is None  # dropped at load: read again below
    request, results = hydrate(call)
    assert request.params == {"command": "cat"}  # the first line: huge too here, with the file's BOM
    assert results[0].data == text
