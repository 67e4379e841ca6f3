"""A binary MessagePack stream of many packets is read in work linear in its size (`--format alicia` on a
`.msgpack` file): each packet's unpacker was given the whole rest of the file, a copy of it per packet
(40,000 small packets: 9 s, four times longer for twice as many). Every packet is still read, a bad one
still costs only itself."""

from __future__ import annotations

import msgpack
from hostile_io import alicia_request, alicia_result

from inspector.model import CallStore, Malformed
from inspector.sources.files import load


def test_a_stream_of_many_packets_is_fed_to_the_unpacker_about_once(tmp_path, monkeypatch):
    packets = [msgpack.packb(alicia_request(f"t{n}")) for n in range(5_000)]
    packets += [b"\xc1"]  # a byte no packet starts with: one malformed record, then the rest
    packets += [msgpack.packb(alicia_result(f"t{n}")) for n in range(5_000)]
    path = tmp_path / "stream.msgpack"
    path.write_bytes(b"".join(packets))
    fed = [0]

    class Counting(msgpack.Unpacker):
        def feed(self, data) -> None:
            fed[0] += len(data)
            super().feed(data)

    monkeypatch.setattr(msgpack, "Unpacker", Counting)
    store = CallStore()
    load([str(path)], store, "alicia")
    assert store.call_count == 5_000 and all(call.result is not None for call in store.all_calls())
    assert sum(isinstance(item, Malformed) for item in store.items) == 1
    size = path.stat().st_size
    assert fed[0] <= 2 * size + 4096 * len(packets)  # was about size x packets / 2
