"""A monitor on the stand-in hub: frames per second from an agent, through the hub, into the monitor's store.

Run: ``python bench/bench_hub_monitor.py [--turns 400]``. An agent connection plays ``--turns`` scripted
turns (5 envelopes each: start, a server tool request and result, a client tool request, a reply) as fast
as it can; the hub copies each frame to the monitor once as received and once as passed on (a relay),
so the monitor handles 2 frames per envelope (the client request goes on to the assistant too: 3).
Prints, measured in the same run:

* the baseline: ``PacketIngest.packet`` over the same envelopes in-process (decode, record, thread),
* the monitor end to end (WebSocket to the hub, fan-out, unwrap, relay check, decode, record, thread),

and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time

import inspector.protocols.alicia.hub as hub
from inspector.live.hub_peers import HubAgent, scripted_conversation
from inspector.live.hub_server import HubServer
from inspector.model import CallStore
from inspector.protocols.recording import RecordingWriter
from inspector.sources.alicia_hub import HubSource
from inspector.sources.ingest import PacketIngest


def envelopes(turns: int) -> list[bytes]:
    out = []
    for turn in range(turns):
        for type_, body in scripted_conversation(f"_{turn}"):
            out.append(hub.encode(type_, {"conversationId": "conv_b", **body}, "conv_b"))
    return out


def baseline(frames: list[bytes], folder: str) -> float:
    writer = RecordingWriter(os.path.join(folder, "base.jsonl"))
    ingest = PacketIngest(CallStore(), writer)
    start = time.perf_counter()
    for data in frames:
        ingest.packet(data, participant="agent → server")
    elapsed = time.perf_counter() - start
    writer.close()
    return len(frames) / elapsed


async def monitored(turns: int, folder: str) -> tuple[float, int]:
    server = await HubServer("s").start()
    writer = RecordingWriter(os.path.join(folder, "mon.jsonl"))
    store = CallStore()
    source = HubSource(server.url, store, writer)
    await source.start()
    agent = await HubAgent(server.url, "s").start()
    expected = turns * 2
    start = time.perf_counter()
    for turn in range(turns):
        await agent.play(scripted_conversation(f"_{turn}"), "conv_b")
    while len(store.calls) < expected:
        await asyncio.sleep(0.001)
    elapsed = time.perf_counter() - start
    handled = source.ingest.count + source.relays
    await agent.close()
    await source.stop()
    await server.close()
    writer.close()
    return turns * 5 / elapsed, handled


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=400)
    args = parser.parse_args()
    frames = envelopes(args.turns)
    with tempfile.TemporaryDirectory() as folder:
        base = baseline(frames, folder)
        rate, handled = asyncio.run(monitored(args.turns, folder))
    print(f"envelopes: {len(frames):,}; monitor frames handled: {handled:,}")
    print(f"baseline PacketIngest in-process: {base:,.0f} envelopes/s")
    print(
        f"monitor through the stand-in hub: {rate:,.0f} envelopes/s ({base / rate:.1f}x slower than the baseline)"
    )


if __name__ == "__main__":
    main()
