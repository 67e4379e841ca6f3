"""A first record of any size hides no format: a file whose first record runs past what detection used to
read whole (8 MB: a pasted image or a file's contents in Claude Code's first user message, Codex's base
instructions in session_meta, a Gemini CLI document whose messages come before its header, one huge OTLP
export) is detected as its format, read and counted as the same file with a small first record, through
``inspector stats`` and the app's open path; detection reads it in bounded blocks (its memory stays small
whatever the record's length), and a huge file of no format is refused with the usual clear line."""

from __future__ import annotations

import json
import re
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

import hostile_gen as gen
import pytest
from hostile_io import run_cli

from inspector import protocols

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))
from screen_text import wait_for  # noqa: E402
from ui_factories import SIZE, file_app  # noqa: E402

HUGE = 9 * 1024 * 1024  # past the 8 MB a first line was read whole to for detection
JSON_KINDS = sorted(kind for kind in gen.BASES if kind not in ("alicia-hex", "alicia-msgpack"))
_OBJECT_START = re.compile(rb"^([ \t]*)\{", re.MULTILINE)


def _leading(data: bytes) -> bytes:
    """``data`` with a field of ``HUGE`` bytes leading its first JSON object (every key after it)."""
    pad = json.dumps({"padding": "x" * HUGE})[1:-1].encode()
    return _OBJECT_START.sub(lambda m: m.group(1) + b"{" + pad + b",", data, count=1)


def _image(size: int) -> str:
    return ("iVBORw0KGgoAAAANSUhEUgAA" * (size // 24 + 1))[:size]


def _claude_image(records: list[dict]) -> bytes:
    """A first user message holding a pasted image, its content before the record's keys."""
    block = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": _image(HUGE)}}
    first = {"message": {"role": "user", "content": [block]}, "type": "user", "uuid": "u0", "sessionId": "s1"}
    first.update(parentUuid=None, timestamp="2026-11-01T09:59:59.000Z", cwd="/w")
    return gen._jsonl([first, *records])


def _claude_file_contents(records: list[dict]) -> bytes:
    """A first user message of a file's contents: text with quotes, backslashes and line ends escaped."""
    text = ('def f(x):\n    return "a\\\\b" + x  # é \u2028\n' * (HUGE // 40))[:HUGE]
    first = {"message": {"role": "user", "content": text}, "type": "user", "uuid": "u0", "sessionId": "s1"}
    return gen._jsonl([first, *records])


def _codex_instructions(records: list[dict]) -> bytes:
    """session_meta holding a huge base instructions text before the session's id."""
    meta = records[0]
    payload = {"base_instructions": {"text": "You are Codex. " * (HUGE // 15)}, **meta["payload"]}
    return gen._jsonl(
        [{"timestamp": meta["timestamp"], "type": meta["type"], "payload": payload}, *records[1:]]
    )


def _gemini_messages_first(records: list[dict], indent: int | None) -> bytes:
    """A Gemini CLI document whose messages come before its header, the first message huge."""
    messages = [r for r in records if "$set" not in r]
    first = {**messages[0], "content": "pasted: " + "y" * HUGE}
    document = {"messages": [first, *messages[1:]], **gen.GEMINI_HEADER}
    return (json.dumps(document, indent=indent) + "\n").encode()


def _otlp_one_document(records: list[dict]) -> bytes:
    """One OTLP export of every record's resources, a huge attribute leading it, on one line."""
    resource = {"attributes": gen._otlp_attrs(big__blob="z" * HUGE)}
    spans = [dict(r["resourceSpans"][0], resource=resource) for r in records if "resourceSpans" in r]
    return (json.dumps({"resourceSpans": spans}) + "\n").encode()


Shape = Callable[[list[dict]], bytes]
SHAPES: dict[str, tuple[str, Shape]] = {
    "claude image": ("claude", _claude_image),
    "claude file contents": ("claude", _claude_file_contents),
    "codex base instructions": ("codex", _codex_instructions),
    "gemini document, messages first": ("gemini-json", lambda r: _gemini_messages_first(r, None)),
    "gemini document, pretty, messages first": ("gemini-json", lambda r: _gemini_messages_first(r, 2)),
    "otlp one document": ("otlp", _otlp_one_document),
}


def _stats(path: Path, *forced: str) -> dict[str, Any]:
    code, out, err = run_cli("stats", "--json", *forced, str(path))
    assert code == 0, err
    found: dict[str, Any] = json.loads(out)
    return found


def _same_reading(tmp_path: Path, kind: str, huge: Path, small: Path | None = None) -> None:
    good, _ = gen.good_file(tmp_path, kind)
    small = small or good
    assert protocols.detect(str(huge)).name == protocols.detect(str(small)).name, kind
    figures, expected = _stats(huge), _stats(small)
    assert figures["format"] == expected["format"]
    assert figures["calls"] == expected["calls"] and figures["states"] == expected["states"]
    assert figures["tools"] == expected["tools"] and figures["malformed"] == expected["malformed"]


@pytest.mark.parametrize("kind", JSON_KINDS)
def test_a_first_record_past_8_mb_leading_with_its_huge_field_is_its_format(tmp_path, kind):
    good, _ = gen.good_file(tmp_path, kind)
    huge = tmp_path / ("huge-" + good.name)
    huge.write_bytes(_leading(good.read_bytes()))
    assert huge.stat().st_size > HUGE
    _same_reading(tmp_path, kind, huge)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_a_real_shape_of_huge_first_record_is_its_format(tmp_path, shape):
    kind, write = SHAPES[shape]
    records = [record for _, record in gen.BASES[kind][1]()]
    suffix = gen.BASES[kind][0]
    huge = tmp_path / f"huge{suffix}"
    huge.write_bytes(write(records))
    assert huge.stat().st_size > HUGE
    small = tmp_path / f"small{suffix}"  # the same shape with the huge field cut: the same calls
    small.write_bytes(re.sub(rb'"([^"\\]{1000})[^"\\]{1000,}"', rb'"\1"', huge.read_bytes()))
    _same_reading(tmp_path, kind, huge, small)


def test_detection_reads_a_huge_first_record_in_bounded_memory(tmp_path):
    kind, write = SHAPES["gemini document, messages first"]
    path = tmp_path / "huge.json"
    path.write_bytes(write([record for _, record in gen.BASES[kind][1]()]))
    tracemalloc.start()
    try:
        assert protocols.detect(str(path)).name == "gemini"
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024, peak  # the record is 9 MB: it was read whole (and copied) before


def test_a_huge_file_of_no_format_is_refused_with_a_clear_line(tmp_path):
    zeros = tmp_path / "zeros.bin"  # 1 GB of NULs, sparse: no line end, no JSON
    with zeros.open("wb") as fh:
        fh.truncate(1024**3)
    endless = tmp_path / "endless.jsonl"  # one string of 20 MB that never ends
    endless.write_bytes(b'{"what": "' + b"x" * (20 * 1024 * 1024))
    unknown = tmp_path / "unknown.jsonl"  # a whole record of 20 MB, of no format's keys
    unknown.write_bytes(json.dumps({"what": "x" * (20 * 1024 * 1024), "n": 1}).encode() + b"\n")
    for path in (zeros, endless, unknown):
        tracemalloc.start()
        try:
            with pytest.raises(protocols.UnknownFormat, match="not a format the inspector reads"):
                protocols.detect(str(path))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 4 * 1024 * 1024, (path.name, peak)
        code, out, err = run_cli("stats", str(path))
        assert code == 2 and "not a format the inspector reads" in err and out == ""


def test_a_record_past_the_scan_bound_is_judged_by_what_was_read(tmp_path, monkeypatch):
    """Past ``SCAN_BYTES`` detection reads no further: the record's shortened start still decides."""
    monkeypatch.setattr(protocols, "SCAN_BYTES", 2 * 1024 * 1024)
    good, _ = gen.good_file(tmp_path, "claude")
    first, rest = good.read_bytes().split(b"\n", 1)
    path = tmp_path / "long.jsonl"
    path.write_bytes(first[:-1] + b', "tail": "' + b"t" * HUGE + b'"}\n' + rest)
    assert protocols.detect(str(path)).name == "claude"


APP_SHAPES = ["claude image", "codex base instructions", "gemini document, pretty, messages first"]


@pytest.mark.parametrize("shape", APP_SHAPES)
async def test_the_app_opens_a_file_of_a_huge_first_record(tmp_path, shape):
    kind, write = SHAPES[shape]
    huge = tmp_path / f"huge{gen.BASES[kind][0]}"
    huge.write_bytes(write([record for _, record in gen.BASES[kind][1]()]))
    app = file_app([huge])
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: not app.screen.has_class("-loading"))
        store = app.screen.store
        assert await wait_for(pilot, lambda: store.call_count == 3)
        assert {call.call_id for call in store.all_calls()} == set(gen.IDS)
