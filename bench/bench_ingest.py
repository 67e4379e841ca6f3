"""The live ingest path alone: decode + thread + record to a tmp file, no network, no UI.

Run: ``python bench/bench_ingest.py [--packets 100000] [--repeat 3]``. The packets are pre-encoded
Alicia envelopes shaped like a real conversation (user and assistant text, streamed sentences,
reasoning, tool requests in all three execution modes, results with text payloads, errors,
acknowledgements). Prints messages per second for:

* ``msgpack.unpackb`` alone over the same packets (the baseline, measured in the same run),
* ``PacketIngest.packet`` (decode once, record one JSON line, thread into a CallStore),
* ``PacketSource.receive`` (the same plus what the live source adds: stanza tracking, event fan-out
  to one listener that picks out requests, as the auto-responder's does),

each with the default garbage collector and with ``tune_gc()``; the target is >= 50,000 messages/s.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import tempfile
import time

import msgpack

from inspector.model import CallStore, Request
from inspector.protocols import alicia
from inspector.protocols.recording import RecordingWriter
from inspector.sources.ingest import PacketIngest, tune_gc
from inspector.sources.packets import PacketSource

TOOLS = [
    ("read_local_file", "client", {"filePath": "/home/alice/notes/todo.md"}),
    ("web_search", "server", {"query": "weather in Lyon tomorrow", "limit": 5}),
    ("calculator", "either", {"expression": "(21 * 2) / 7"}),
    ("database_query", "server", {"sql": "select id, total from orders where customer = ?", "args": [42]}),
]


def make_packets(count: int, seed: int = 11) -> list[bytes]:
    """``count`` envelopes of a few conversations, in the order an agent would send them."""
    rng = random.Random(seed)
    packets: list[bytes] = []
    agent, client, n = 0, 0, 0
    conv = "conv_bench0001"

    def add(type_: int, body: dict, from_agent: bool = True) -> None:
        nonlocal agent, client
        if from_agent:
            agent -= 1
        else:
            client += 1
        packets.append(
            alicia.encode_envelope(
                type_=type_,
                body=body,
                conversation_id=conv,
                stanza_id=agent if from_agent else client,
                meta={"timestamp": 1_700_000_000_000 + len(packets)},
            )
        )

    while len(packets) < count:
        n += 1
        add(
            2,
            {"id": f"u{n}", "content": "Can you check my notes and the weather? " * rng.randint(1, 3)},
            False,
        )
        add(8, {"acknowledgedStanzaId": client, "success": True})
        add(13, {"id": f"a{n}", "previousId": f"u{n}"})
        add(
            5,
            {
                "id": f"rs{n}",
                "messageId": f"a{n}",
                "sequence": 1,
                "content": "Thinking about the tools. " * 4,
            },
        )
        for k in range(rng.randint(1, 3)):
            tool, execution, params = rng.choice(TOOLS)
            call_id = f"toolreq_{n}_{k}"
            add(
                6,
                {
                    "id": call_id,
                    "messageId": f"a{n}",
                    "toolName": tool,
                    "execution": execution,
                    "parameters": params,
                    "timeoutMs": rng.choice([5000, 10000, 30000]),
                },
            )
            if rng.random() < 0.15:
                add(
                    7,
                    {
                        "id": call_id,
                        "success": False,
                        "errorCode": "execution_error",
                        "errorMessage": "File not found: /home/alice/notes/todo.md",
                    },
                    execution == "server",
                )
            else:
                add(
                    7,
                    {
                        "id": call_id,
                        "success": True,
                        "result": {"content": "line of text\n" * rng.randint(5, 120), "size": 1024},
                    },
                    execution == "server",
                )
        for s in range(rng.randint(2, 6)):
            add(
                16,
                {
                    "id": f"s{n}_{s}",
                    "messageId": f"a{n}",
                    "sequence": s,
                    "text": "A sentence of the answer. ",
                },
            )
        add(
            3,
            {"id": f"m{n}", "previousId": f"u{n}", "content": "Here is what I found. " * rng.randint(2, 10)},
        )
    return packets[:count]


def timed(label: str, packets: list[bytes], run) -> float:
    gc.collect()
    start = time.perf_counter()
    run(packets)
    elapsed = time.perf_counter() - start
    return len(packets) / elapsed


def baseline(packets: list[bytes]) -> None:
    unpackb = msgpack.unpackb
    for data in packets:
        unpackb(data, raw=False, strict_map_key=False)


def ingest_path(folder: str):
    def run(packets: list[bytes]) -> None:
        store = CallStore()
        with RecordingWriter(
            os.path.join(folder, f"ingest-{time.monotonic_ns()}.jsonl"), {"room": "bench"}
        ) as w:
            ingest = PacketIngest(store, w)
            for data in packets:
                ingest.packet(data, participant="agent", topic="alicia")

    return run


def source_path(folder: str):
    def run(packets: list[bytes]) -> None:
        store = CallStore()
        with RecordingWriter(
            os.path.join(folder, f"source-{time.monotonic_ns()}.jsonl"), {"room": "bench"}
        ) as w:
            source = PacketSource(store, w, identity="inspector-bench")
            source.watch_events(lambda events: [e for e in events if isinstance(e, Request)])  # as the
            # auto-responder's listener does: pick out the requests
            for data in packets:
                source.receive(data, participant="agent", topic="alicia")

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packets", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs per figure")
    args = parser.parse_args()
    packets = make_packets(args.packets)
    size = sum(map(len, packets))
    print(f"{len(packets):,} packets, {size / 1e6:.1f} MB, mean {size / len(packets):.0f} bytes")
    with tempfile.TemporaryDirectory() as folder:
        runs = [
            ("msgpack.unpackb (baseline)", baseline),
            ("PacketIngest.packet", ingest_path(folder)),
            ("PacketSource.receive", source_path(folder)),
        ]
        for gc_label in ("default gc", "tune_gc()"):
            if gc_label == "tune_gc()":
                tune_gc()
            base = None
            for label, run in runs:
                rate = max(timed(label, packets, run) for _ in range(args.repeat))
                base = base or rate
                verdict = (
                    ""
                    if run is baseline
                    else ("  ok (>= 50,000/s)" if rate >= 50_000 else "  BELOW 50,000/s")
                )
                print(
                    f"{gc_label:<11} {label:<28} {rate:>10,.0f} msg/s  {rate / base:6.3f}x baseline{verdict}"
                )
            gc.set_threshold(700, 10, 10)


if __name__ == "__main__":
    main()
