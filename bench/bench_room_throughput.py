"""Throughput of the loopback room server: real SDK participants send as fast as the room carries to another.

The room server runs in this process (a background thread); the receiver and each sender are separate
processes, as an agent and the inspector would be. For reliable and lossy packets it prints the
messages/s and MB/s that arrived, and how many were lost or came out of order. The first line of each
kind is the issue's case (one sender); with ``--senders 2`` a second line shows whether the room or the
sending SDK is the limit (the Python SDK awaits one FFI round trip per publish_data).

    python bench/bench_room_throughput.py [--seconds 5] [--size 256] [--senders 2] [--window 1]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing as mp
import os
import struct
import sys
import time
from multiprocessing.connection import Connection

if __package__ in (None, ""):  # run as a script from a checkout
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

HEADER = struct.Struct("!IQ")  # sender number, sequence number
END = b"end"


def receiver_main(url: str, token: str, senders: int, pipe: Connection) -> None:
    """Child process: count packets per sender until each sent its end marker (or time runs out)."""
    from livekit import rtc

    async def run() -> dict[str, float]:
        room = rtc.Room()
        last = [-1] * senders
        stats = {"received": 0, "bytes": 0, "out_of_order": 0, "first": 0.0, "last": 0.0, "ends": 0}
        done = asyncio.Event()

        def on_data(packet: rtc.DataPacket) -> None:
            if packet.data == END:
                stats["ends"] += 1
                if stats["ends"] >= senders:
                    done.set()
                return
            who, seq = HEADER.unpack_from(packet.data)
            if seq <= last[who]:
                stats["out_of_order"] += 1
            last[who] = max(last[who], seq)
            now = time.perf_counter()
            stats["first"] = stats["first"] or now
            stats["last"] = now
            stats["received"] += 1
            stats["bytes"] += len(packet.data)

        room.on("data_received", on_data)
        await room.connect(url, token)
        pipe.send("ready")
        pipe.recv()  # "go" (sent just before the senders start)
        try:
            await asyncio.wait_for(done.wait(), timeout=60)
        except asyncio.TimeoutError:
            pass
        await asyncio.sleep(0.3)  # stragglers of lossy runs
        return stats

    pipe.send(asyncio.run(run()))
    os._exit(0)


def sender_main(
    url: str,
    token: str,
    number: int,
    receiver: str,
    reliable: bool,
    seconds: float,
    size: int,
    window: int,
    pipe: Connection,
) -> None:
    """Child process: publish numbered packets for ``seconds``, then a reliable end marker.

    publish_data returns once the packet is buffered (the SDK buffers up to 2 MB per channel), so the
    process stays connected until told to quit: what it buffered is still on its way.
    """
    from livekit import rtc

    async def run() -> dict[str, float]:
        room = rtc.Room()
        began = time.perf_counter()
        await room.connect(url, token)
        connect_s = time.perf_counter() - began
        while receiver not in room.remote_participants:
            await asyncio.sleep(0.05)
        pipe.send("ready")
        pipe.recv()
        padding = b"x" * max(0, size - HEADER.size)
        to = [receiver]  # not to the other senders: the run measures one path through the room
        publish = room.local_participant.publish_data
        sent, pending = 0, set()
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            data = HEADER.pack(number, sent) + padding
            sent += 1
            if window <= 1:
                await publish(data, reliable=reliable, topic="bench", destination_identities=to)
                continue
            pending.add(
                asyncio.ensure_future(
                    publish(data, reliable=reliable, topic="bench", destination_identities=to)
                )
            )
            if len(pending) >= window:
                _, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
        if pending:
            await asyncio.wait(pending)
        elapsed = time.perf_counter() - start
        await publish(END, reliable=True, topic="bench", destination_identities=to)
        pipe.send({"sent": sent, "elapsed": elapsed, "connect_s": connect_s})
        await asyncio.get_running_loop().run_in_executor(None, pipe.recv)  # "quit"
        await room.disconnect()

    asyncio.run(run())
    os._exit(0)


def run_once(server, args: argparse.Namespace, reliable: bool, senders: int) -> dict[str, float]:
    """One measured run: a fresh room, one receiver process, ``senders`` sender processes."""
    ctx = mp.get_context("spawn")
    room = f"bench-{reliable}-{senders}-{time.monotonic_ns()}"
    rx_parent, rx_child = ctx.Pipe()
    receiver = ctx.Process(
        target=receiver_main, args=(server.url, server.mint_token("receiver", room), senders, rx_child)
    )
    receiver.start()
    assert rx_parent.recv() == "ready"
    pipes, procs = [], []
    for number in range(senders):
        parent, child = ctx.Pipe()
        proc = ctx.Process(
            target=sender_main,
            args=(
                server.url,
                server.mint_token(f"sender{number}", room),
                number,
                "receiver",
                reliable,
                args.seconds,
                args.size,
                args.window,
                child,
            ),
        )
        proc.start()
        pipes.append(parent)
        procs.append(proc)
    for pipe in pipes:
        assert pipe.recv() == "ready"
    rx_parent.send("go")
    for pipe in pipes:
        pipe.send("go")
    sent = [pipe.recv() for pipe in pipes]
    got = rx_parent.recv()
    for pipe in pipes:
        pipe.send("quit")
    for proc in [receiver, *procs]:
        proc.join(10)
    total = sum(s["sent"] for s in sent)
    span = max(got["last"] - got["first"], 1e-9)
    return {
        "senders": senders,
        "sent": total,
        "received": got["received"],
        "lost": total - got["received"],
        "out_of_order": got["out_of_order"],
        "send_rate": sum(s["sent"] / s["elapsed"] for s in sent),
        "msgs_per_s": got["received"] / span,
        "mb_per_s": got["bytes"] / span / 1e6,
        "connect_ms": max(s["connect_s"] for s in sent) * 1000,
        "complete": got["ends"] >= senders,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--size", type=int, default=256, help="bytes per message (>= 12)")
    parser.add_argument("--senders", type=int, default=2, help="also measure with this many sender processes")
    parser.add_argument("--window", type=int, default=1, help="publish_data calls kept in flight per sender")
    args = parser.parse_args()

    from inspector.room.thread import RoomServerThread

    with RoomServerThread(port=0, on_event=lambda line: None) as server:
        print(
            f"{args.seconds:g} s per run, {args.size}-byte messages, window {args.window}, server {server.url}"
        )
        print(
            f"{'kind':<9}{'senders':>8}{'sent':>9}{'recv':>9}{'lost':>7}{'reord':>7}{'send/s':>9}"
            f"{'msg/s':>9}{'MB/s':>7}{'connect':>10}"
        )
        for reliable in (True, False):
            for senders in sorted({1, max(1, args.senders)}):
                r = run_once(server, args, reliable, senders)
                kind = "reliable" if reliable else "lossy"
                print(
                    f"{kind:<9}{senders:>8}{r['sent']:>9.0f}{r['received']:>9.0f}{r['lost']:>7.0f}"
                    f"{r['out_of_order']:>7.0f}{r['send_rate']:>9.0f}{r['msgs_per_s']:>9.0f}"
                    f"{r['mb_per_s']:>7.2f}{r['connect_ms']:>8.0f}ms"
                    f"{'' if r['complete'] else '  (timed out waiting for the rest)'}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
