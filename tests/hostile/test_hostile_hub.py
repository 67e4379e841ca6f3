"""Hostile frames from an Alicia hub (issue 9): a monitor's ``{src, dst, data}`` wrappers of every wrong shape
and the generated hostile envelopes inside them are threaded without raising, the good calls around them
still count, and the recording the monitor wrote reads back with every headless command."""

from __future__ import annotations

import json

import hostile_gen as gen
import msgpack
from hostile_io import HEADLESS, run_cli

import inspector.protocols.alicia.hub as hub
from inspector.model import CallStore
from inspector.protocols.recording import RecordingWriter
from inspector.sources.alicia_hub import HubSource

SRC_DST = ["agent", "", None, 7, [], {"a": 1}, "\x1b]0;title\x07\x1b[2J", "\u202eevil", "x" * 70_000]
BAD_WRAPPERS = [
    b"",
    b"\xc1",
    msgpack.packb({"src": "agent", "dst": "server"}),  # no data
    msgpack.packb({"src": "agent", "dst": "server", "data": "text, not bytes"}),
    msgpack.packb({"src": "agent", "dst": "server", "data": 10**18}),
    msgpack.packb({"src": "agent", "dst": "server", "data": {"type": 6}}),
    msgpack.packb({"src": "agent", "dst": "server", "data": b"\x91" * 100_000 + b"\xc0"}),
    msgpack.packb([1, 2, 3]),
    b"\x81\xa4data" + b"\xc6\xff\xff\xff\xff" + b"abc",  # data declared as 4 GB of bytes
    b"\x91" * 200_000 + b"\xc0",  # nested past any decoder
]


def _monitor(tmp_path):
    store = CallStore()
    writer = RecordingWriter(str(tmp_path / "hub.recording.jsonl"), {"source": "alicia-hub"})
    return HubSource("ws://127.0.0.1:9/api/v1/ws", store, writer), store, writer


def _envelopes(index: int, value) -> list[bytes]:
    """The good Alicia session as hub frames, record ``index`` holding ``value`` somewhere."""
    base = gen.BASES["alicia-msgpack"][1]()
    records = [r for _, r in base]
    paths = gen.paths_of(records[index])
    records[index] = gen.replaced(records[index], paths[(len(paths) * 7 + index) % len(paths)], value)
    return [msgpack.packb(gen._packable(r)) for r in records]


def test_every_wrong_wrapper_and_every_hostile_envelope_is_threaded_and_recorded(tmp_path):
    source, store, writer = _monitor(tmp_path)
    frames = 0
    for number, value in enumerate(gen.HOSTILE_VALUES):
        index = 2 if number % 2 else 3  # the request or the result of the middle call, k2
        for data in _envelopes(index, value):
            src = SRC_DST[number % len(SRC_DST)]
            wrapper = {"src": src, "dst": "server", "data": data}
            source._take(msgpack.packb(gen._packable(wrapper)))
            frames += 1
        wrapper = BAD_WRAPPERS[number % len(BAD_WRAPPERS)]
        source._take(wrapper)
        source._take(wrapper[:64].decode("latin-1"))  # a text frame (its UTF-8 bytes are read)
        frames += 2
    writer.close()
    assert {"k1", "k3"} <= {call.call_id for call in store.all_calls()}
    assert len(store.items) > 0 and frames > 60
    for command in HEADLESS:
        code, _, err = run_cli(*command, str(tmp_path / "hub.recording.jsonl"))
        assert code in (0, 1), (command, err)


def test_a_frame_unwrapped_is_bytes_or_refused():
    for data in BAD_WRAPPERS:
        try:
            frame = hub.read_monitor_frame(data)
        except hub.FrameError:
            continue
        assert isinstance(frame.data, bytes) and isinstance(frame.src, str) and isinstance(frame.dst, str)


async def test_bytes_that_are_not_utf8_in_frames_over_a_real_websocket_are_read_and_said(tmp_path):
    """A client's envelopes whose strings hold bytes that are not UTF-8 (its tool name, an argument, the
    result's text), through the stand-in hub over a real WebSocket: the monitor threads each call with
    U+FFFD for each bad byte and says, per frame, that it held invalid UTF-8; the recording reads back
    the same. A monitor wrapper whose src is not UTF-8 is read too, and said."""
    import asyncio

    from inspector.live.hub_peers import join
    from inspector.live.hub_server import HubServer
    from inspector.model import Malformed

    server = await HubServer("").start()
    source, store, writer = _monitor(tmp_path)
    source.url = server.url
    await source.start()
    client = await join(server.url, conversation="c1")
    base = [r for _, r in gen.BASES["alicia-msgpack"][1]()]
    marked = [
        gen.replaced(base[0], ("body", "toolName"), gen.BAD_UTF8_MARK),
        base[1],
        gen.replaced(base[2], ("body", "parameters", "city"), gen.BAD_UTF8_MARK),
        gen.replaced(base[3], ("body", "result", "t"), gen.BAD_UTF8_MARK),
        base[4],
        base[5],
    ]
    for record in marked:
        await client.send(gen.with_bad_utf8(msgpack.packb(gen._packable(record)), "alicia-msgpack"))
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while len(list(store.all_calls())) < 3 or not all(c.results for c in store.all_calls()):
        assert loop.time() < end, ([c.call_id for c in store.all_calls()], store.malformed)
        await asyncio.sleep(0.02)
    await client.close()
    await source.stop()
    await server.close()
    writer.close()
    calls = {call.call_id: call for call in store.all_calls()}
    assert set(calls) == {"k1", "k2", "k3"}
    assert calls["k1"].request.tool == gen.BAD_UTF8_READ
    assert calls["k2"].request.params["city"] == gen.BAD_UTF8_READ
    said = [m for m in store.malformed if "invalid UTF-8" in m.reason]
    assert len(said) == 3 and all(isinstance(m, Malformed) for m in said), said
    assert calls["k2"].results[0].data == {"t": gen.BAD_UTF8_READ}
    # the recording the monitor wrote reads back the same
    code, out, err = run_cli("stats", "--json", str(tmp_path / "hub.recording.jsonl"))
    assert code == 1 and json.loads(out)["calls"] == 3, (code, out, err)

    wrapper = msgpack.packb(
        {"src": "ag\udcffent", "dst": "server", "data": msgpack.packb(base[0])},
        unicode_errors="surrogateescape",
    )
    frame = hub.read_monitor_frame(wrapper)
    assert frame.src == "ag\ufffdent" and frame.note is not None and "invalid UTF-8" in frame.note
    (tmp_path / "again").mkdir()
    source, store, writer = _monitor(tmp_path / "again")
    source._take(wrapper)
    writer.close()
    assert [m.reason for m in store.malformed] == [frame.note]
    assert [(c.call_id, c.request.sender) for c in store.all_calls()] == [("k1", "ag\ufffdent → server")]
