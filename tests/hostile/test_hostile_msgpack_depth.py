"""A MessagePack packet holding a value nested past the unpacker's 1,024 levels (issue 25): it is read with
a stand-in for what is past 200 levels, and said, as a JSON record is, wherever a packet is unpacked (a
room's packet, a recording's raw packet, a hub's frame and its monitor wrapper); the whole packet was
malformed and its call lost."""

from __future__ import annotations

import base64
import json

import hostile_gen as gen
import msgpack
import pytest

import inspector.protocols.alicia.hub as hub
from inspector import protocols
from inspector.model import CallStore, values
from inspector.model.events import Malformed, Request, Result
from inspector.protocols.alicia import decode_packet
from inspector.protocols.common.msgdepth import shallow, shallow_all
from inspector.sources.files import load

DEEP = b"\x91" * 50_000 + b"\xc0"  # an array in an array ... 50,000 levels (no packer writes it)
MARK = msgpack.packb(gen.DEEP_MARK)


def _packets(value_at: str = "arguments") -> list[tuple[bytes, bytes]]:
    """Each request and result of the generator's Alicia session, packed with a deep value in a field of
    its body and with a shallow one there."""
    out = []
    for _, envelope in gen.BASES["alicia-json"][1]():
        body = dict(envelope["body"], deepField=gen.DEEP_MARK)
        packed = msgpack.packb(dict(envelope, body=body))
        out.append((packed.replace(MARK, DEEP), packed.replace(MARK, msgpack.packb([["x"]]))))
    return out


def _kinds(events) -> list[tuple[str, str]]:
    return [(type(e).__name__, getattr(e, "call_id", "")) for e in events if not isinstance(e, Malformed)]


def test_a_room_packet_keeps_its_call_and_says_the_stand_in():
    for deep, plain in _packets():
        events = decode_packet(deep, where="packet")
        assert _kinds(events) == _kinds(decode_packet(plain, where="packet"))
        assert any(isinstance(e, (Request, Result)) for e in events)
        said = [e.reason for e in events if isinstance(e, Malformed)]
        assert said == [values.deep_note(50_002)], said


def test_a_recordings_raw_packet_keeps_its_call(tmp_path):
    lines = [json.dumps(gen.RECORDING_HEADER)]
    for index, (deep, _) in enumerate(_packets()):
        record = {"t": 1793527200.0 + index, "dir": "in", "participant": "agent", "topic": "alicia"}
        lines.append(json.dumps(dict(record, reliable=True, raw=base64.b64encode(deep).decode())))
    path = tmp_path / "deep.recording.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert protocols.detect(str(path)).name == "recording"
    store = CallStore()
    load([str(path)], store)
    assert {c.call_id for c in store.all_calls()} == set(gen.IDS)
    assert all("what is past 200" in m.reason for m in store.malformed) and len(store.malformed) == 6


def test_a_hub_frame_and_its_monitor_wrapper_are_read():
    deep, _ = _packets()[0]
    assert hub.decode(deep)["type"] == msgpack.unpackb(_packets()[0][1])["type"]
    wrapper = hub.monitor_frame("agent", "server", b"x").replace(b"\xc4\x01x", b"\xa1x")
    nested = wrapper.replace(b"\xa4data\xa1x", b"\xa4data" + deep)  # the envelope as a nested map
    frame = hub.read_monitor_frame(nested)
    assert (frame.src, frame.dst) == ("agent", "server")
    events = decode_packet(frame.data, where="frame")
    assert any(isinstance(e, Request) for e in events)


@pytest.mark.parametrize(
    "data", [b"", b"\x91", b"\xc1", b"\xdb\xff\xff\xff\xffabc", b"\x92\xc0", b"\xdc\xff\xff" + b"\xc0" * 3]
)
def test_bytes_that_are_not_one_whole_value_are_not_rewritten(data):
    assert shallow(data) is None and (shallow_all(data) is None or data == b"")


def test_what_is_within_the_depth_is_left_as_written():
    value = {"a": [1, -3, 2.5, None, True, b"\x00" * 300, "é" * 40, {}, [], 2**64 - 1], "m": {"k": [[["x"]]]}}
    packed = msgpack.packb(value) + msgpack.packb(msgpack.ExtType(5, b"abcd"))
    assert shallow_all(packed) == (packed, 5)
    at_limit = b"\x91" * (values.MAX_DEPTH - 1) + b"\x90"  # 200 levels, the last empty
    assert shallow(at_limit) == (at_limit, len(at_limit), values.MAX_DEPTH)
    past = b"\x91" * values.MAX_DEPTH + b"\x91\xc0"
    rewritten, end, deepest = shallow(past)
    assert end == len(past) and deepest == values.MAX_DEPTH + 1
    assert "nested too deeply" in json.dumps(msgpack.unpackb(rewritten))
