"""Detection never depends on one field's length (issue 25): a file whose every record's leading field
runs past the 64 KB head the sniffers are shown is detected as the same format, and read the same, as
the file with short fields (a Claude Code transcript of such records was refused as not a format)."""

from __future__ import annotations

import json
import re

import hostile_gen as gen
import pytest

from inspector import protocols
from inspector.model import CallStore
from inspector.protocols.common.jsonhead import shortened
from inspector.sources.files import load

JSON_KINDS = sorted(kind for kind in gen.BASES if kind not in ("alicia-hex", "alicia-msgpack"))
_OBJECT_START = re.compile(rb"^([ \t]*)\{", re.MULTILINE)


def _padded(data: bytes, size: int) -> bytes:
    """``data`` with a field of ``size`` bytes leading every JSON object that starts a line."""
    pad = json.dumps({"padding": "x" * size})[1:-1].encode()
    return _OBJECT_START.sub(lambda m: m.group(1) + b"{" + pad + b",", data)


def _calls(path: str, forced: str | None) -> set[str]:
    store = CallStore()
    load([path], store, forced)
    return {call.call_id for call in store.all_calls()}


@pytest.mark.parametrize("size", [100_000, 3 * 1024 * 1024])
@pytest.mark.parametrize("kind", JSON_KINDS)
def test_every_record_leading_with_a_long_field_is_still_its_format(tmp_path, kind, size):
    good, _ = gen.good_file(tmp_path, kind)
    found = protocols.detect(str(good)).name
    padded = tmp_path / ("padded-" + good.name)
    padded.write_bytes(_padded(good.read_bytes(), size))
    assert protocols.detect(str(padded)).name == found, kind
    assert _calls(str(padded), None) == _calls(str(good), None), kind


def test_a_first_record_past_the_bound_is_skipped_and_the_next_decides(tmp_path):
    """A first line longer than a detection reads whole is judged by its head, then the lines after it."""
    good, _ = gen.good_file(tmp_path, "claude")
    lines = good.read_bytes().split(b"\n", 1)
    huge = _padded(lines[0], 9 * 1024 * 1024)
    path = tmp_path / "huge-first.jsonl"
    path.write_bytes(huge + b"\n" + lines[1])
    assert protocols.detect(str(path)).name == "claude"


def test_a_line_of_no_end_is_not_a_format_and_ends(tmp_path):
    path = tmp_path / "endless.jsonl"
    path.write_bytes(b'{"what": "' + b"x" * (9 * 1024 * 1024) + b'"')
    with pytest.raises(protocols.UnknownFormat):
        protocols.detect(str(path))


CUTS = [
    "a" * 300,
    "é" * 300,
    "\\" * 301 + "n",
    "\u2028" * 200,
    "x" * 254 + "\n\t\u0001\u00e9" * 40,
    "😀" * 100,
]


@pytest.mark.parametrize("text", CUTS)
@pytest.mark.parametrize("ascii_only", [True, False])
def test_shortened_keeps_every_key_and_stays_json(text, ascii_only):
    record = {"type": "user", "message": {"content": text, text[:8]: [text, 1]}, "sessionId": "s"}
    line = json.dumps(record, ensure_ascii=ascii_only).encode()
    short = json.loads(shortened(line))
    assert short["type"] == "user" and short["sessionId"] == "s"
    assert len(short["message"]) == 2 and len(short["message"]["content"]) <= 256
