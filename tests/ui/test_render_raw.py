"""Raw records: JSON pretty-printed, MessagePack decoded beside a hex dump, anything else still shown."""

from __future__ import annotations

import base64
import json

import msgpack
from render_factories import render

from inspector.model import RawRef
from inspector.ui.render import Limits, RenderTheme, hex_dump, render_raw

THEME = RenderTheme.dark()
PACKET = msgpack.packb({"type": 6, "body": {"id": "tr_1", "toolName": "get_weather"}})


def show(ref, width: int = 100, **kwargs) -> str:
    return render(render_raw(ref, theme=THEME, width=width, **kwargs), width=width).text


def test_json_line_read_back_from_its_file(tmp_path):
    path = tmp_path / "s.jsonl"
    first = b'{"skip": 1}\n'
    second = b'{"type": "tool_result", "id": "call_1", "text": "ok"}\n'
    path.write_bytes(first + second)
    ref = RawRef(str(path), "line 2", offset=len(first), length=len(second), protocol="rap")
    lines = show(ref, width=300).splitlines()
    assert lines[0] == f"record  line 2  ·  file {path}  ·  bytes 12–{12 + len(second)}  ·  format rap"
    assert lines[1:] == ["{", '  "type": "tool_result",', '  "id": "call_1",', '  "text": "ok"', "}"]


def test_alicia_packet_decoded_and_hex_dumped():
    text = show(RawRef("live", "packet 3", data=PACKET, protocol="alicia"))
    assert "MessagePack, decoded" in text and '"toolName": "get_weather"' in text
    assert f"bytes  {len(PACKET)} B" in text
    dump = [line for line in text.splitlines() if line.startswith("0000")]
    assert dump[0].startswith(
        "00000000  82 a4 74 79 70 65 06 a4  62 6f 64 79 82 a2 69 64  |..type..body..id|"
    )
    assert dump[1].startswith("00000010  ")
    assert len(dump) == (len(PACKET) + 15) // 16


def test_recording_line_shows_the_record_and_its_packet_bytes():
    record = {
        "t": 1.0,
        "dir": "in",
        "raw": base64.b64encode(PACKET).decode(),
        "decoded": msgpack.unpackb(PACKET),
    }
    text = show(RawRef("r.jsonl", "line 2", data=json.dumps(record).encode(), protocol="recording"))
    assert '"dir": "in"' in text and "00000000  82 a4" in text
    assert "MessagePack, decoded" not in text  # the record already has it under "decoded"
    del record["decoded"]
    text = show(RawRef("r.jsonl", "line 2", data=json.dumps(record).encode(), protocol="recording"))
    assert "MessagePack, decoded" in text and '"toolName": "get_weather"' in text


def test_hex_lines_of_the_alicia_corpus(corpus):
    line = (corpus / "alicia" / "derived_spec_examples.msgpack.hex").read_bytes().splitlines()[0]
    text = show(RawRef("x.hex", "line 1", data=line, protocol="alicia"))
    assert "hex-encoded MessagePack" in text and '"conversationId": "conv_abc123def456"' in text


def test_bytes_that_are_neither_json_msgpack_nor_text():
    text = show(RawRef("x.bin", "packet 1", data=b"\xc1\xff\x00garbage", protocol=""))
    assert "neither JSON, MessagePack nor UTF-8 text" in text
    assert "00000000  c1 ff 00 67 61 72 62 61  67 65" in text and "|...garbage|" in text


def test_plain_text_records_stay_text():
    text = show(RawRef("x.log", "line 1", data=b"hello \x1b[31mworld", protocol="rap"))
    assert text.splitlines()[1] == "hello ␛[31mworld"


def test_a_missing_file_and_no_record():
    assert "cannot read the record" in show(RawRef("/nonexistent/x.jsonl", "line 1", offset=0, length=10))
    assert "(no raw record kept for this item)" in show(None)
    assert "(empty record)" in show(RawRef("x", "line 1", data=b""))


def test_several_records_with_labels():
    refs = [RawRef("a", "line 1", data=b'{"a": 1}'), RawRef("a", "line 2", data=b'{"b": 2}')]
    text = show(refs, labels=["request", "result"])
    assert text.index("request  line 1") < text.index('"a": 1') < text.index("result  line 2")


def test_hex_dump_width_and_cut():
    data = bytes(range(256)) * 10
    narrow = render(hex_dump(data[:16], THEME, width=60), width=60).text.splitlines()
    assert narrow == [
        "00000000  00 01 02 03 04 05 06 07  |........|",
        "00000008  08 09 0a 0b 0c 0d 0e 0f  |........|",
    ]
    cut = render(hex_dump(data, THEME, width=100, limits=Limits(lines=4))).text.splitlines()
    assert len(cut) == 5 and cut[-1] == "… 2,496 more bytes not shown"
    assert cut[2] == "00000020  20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f  | !\"#$%&'()*+,-./|"


def test_raw_json_stays_strict_json():
    text = show(RawRef("x", "line 1", data=b'{"command": "set -e\\nmake test"}', protocol="rap"))
    assert '"command": "set -e\\nmake test"' in text
