"""A flood through the loopback room: a scripted agent sends Alicia requests and results as fast as the
room carries for N seconds; the inspector's live source records and threads them. Prints the send
rate, what arrived, what was lost (recording and call store are both counted), and how late the
inspector's event loop answered a 50 ms probe meanwhile (the loop that also handles keys in the UI).

    python bench/bench_live_flood.py [--seconds 10] [--senders 4] [--server loopback|real|both]

``--server real`` floods through the real LiveKit server (livekit-server from ../shared, started on free
ports and stopped after); ``both`` (the default where ../shared is there) prints the two side by side.
Runs the real livekit SDK on 127.0.0.1; ends with os._exit (the SDK can abort at interpreter exit).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "live"))  # servers.py

ROOM = "conv_flood"


async def probe(stop: asyncio.Event, lags: list[float]) -> None:
    """Every 50 ms, measure how late the loop wakes us: the delay a key press would see."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        planned = loop.time() + 0.05
        await asyncio.sleep(0.05)
        lags.append(max(0.0, loop.time() - planned))


async def flood(seconds: float, senders: int, kind: str = "loopback") -> dict:
    from livekit import rtc

    from inspector.model import CallStore
    from inspector.protocols import alicia
    from inspector.protocols.recording import RecordingWriter
    from inspector.room import RoomServer
    from inspector.sources.ingest import tune_gc
    from inspector.sources.livekit_room import LiveKitSource

    tune_gc()
    folder = tempfile.mkdtemp()
    path = os.path.join(folder, "flood.jsonl")
    from servers import RealServer

    serving = RealServer() if kind == "real" else RoomServer(port=0)
    async with serving as server:
        store = CallStore()
        writer = RecordingWriter(path, {"room": ROOM})
        token = server.mint_token("inspector-bench", ROOM, hidden=True, can_publish_data=False)
        source = LiveKitSource(
            server.url, token, store, writer, room=ROOM, identity="inspector-bench", answering=False
        )
        await source.start()
        agent = rtc.Room()
        await agent.connect(server.url, server.mint_token("agent-flood", ROOM))
        joined_by = time.perf_counter() + 20
        while "agent-flood" not in source.state.participants and time.perf_counter() < joined_by:
            await asyncio.sleep(0.05)  # the real server names it to the inspector within 3 s
        counter = {"sent": 0}
        deadline = time.perf_counter() + seconds

        async def sender(index: int) -> None:
            n = 0
            while time.perf_counter() < deadline:
                n += 1
                call_id = f"c{index}_{n}"
                counter["sent"] += 1
                stanza = -counter["sent"]
                if n % 2:
                    data = alicia.encode_envelope(
                        type_=6,
                        conversation_id=ROOM,
                        stanza_id=stanza,
                        body={
                            "id": call_id,
                            "toolName": "web_search",
                            "execution": "server",
                            "parameters": {"query": "x" * 64},
                            "timeoutMs": 30000,
                        },
                    )
                else:
                    data = alicia.encode_tool_result(
                        conversation_id=ROOM,
                        stanza_id=stanza,
                        call_id=f"c{index}_{n - 1}",
                        success=True,
                        result={"results": ["y" * 64]},
                    )
                await agent.local_participant.publish_data(data, reliable=True, topic="alicia")

        stop = asyncio.Event()
        lags: list[float] = []
        probe_task = asyncio.create_task(probe(stop, lags))
        started = time.perf_counter()
        await asyncio.gather(*(sender(i) for i in range(senders)))
        send_time = time.perf_counter() - started
        sent = counter["sent"]
        drain_end = time.perf_counter() + 20
        while source.ingest.count < sent and time.perf_counter() < drain_end:
            await asyncio.sleep(0.05)
        received_time = time.perf_counter() - started
        stop.set()
        await probe_task
        await agent.disconnect()
        await source.stop()
        writer.close()
    with open(path, "rb") as fh:
        recorded = sum(1 for line in fh if b'"dir":"in"' in line and b'"participant":"agent-flood"' in line)
    calls = store.call_count
    results = sum(len(c.results) for c in store.all_calls())
    threaded = calls + results + len(store.orphans) + len(store.malformed)
    lags_ms = sorted(lag * 1000 for lag in lags) or [float("nan")]
    return {
        "server": kind,
        "seconds": round(send_time, 2),
        "senders": senders,
        "sent": sent,
        "send_rate": round(sent / send_time),
        "received": source.ingest.count,
        "receive_rate": round(source.ingest.count / received_time),
        "recorded": recorded,
        "threaded_events": threaded,
        "lost_recording": sent - recorded,
        "lost_store": sent - threaded,
        "loop_lag_ms_median": round(statistics.median(lags_ms), 1),
        "loop_lag_ms_p95": round(lags_ms[int(0.95 * (len(lags_ms) - 1))], 1),
        "loop_lag_ms_max": round(lags_ms[-1], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--senders", type=int, default=4)
    parser.add_argument("--server", choices=("loopback", "real", "both"), default=None)
    args = parser.parse_args()
    from servers import real_missing

    kinds = {"loopback": ["loopback"], "real": ["real"], "both": ["loopback", "real"]}.get(
        args.server or ("loopback" if real_missing() else "both")
    )
    from inspector.live.netcheck import only_loopback

    if only_loopback():
        print("skipped: only the loopback interface is up (libwebrtc needs another one)")
        os._exit(0)
    for kind in kinds or []:
        try:
            figures = asyncio.run(flood(args.seconds, args.senders, kind))
        except Exception as exc:  # noqa: BLE001 - report and leave without the SDK's exit hazards
            print(f"flood through the {kind} server failed: {type(exc).__name__}: {exc}", file=sys.stderr)
            sys.stderr.flush()
            os._exit(1)
        report(figures)
    sys.stdout.flush()
    os._exit(0)


def report(figures: dict) -> None:
    print(json.dumps(figures))
    print(
        f"{figures['server']}: sent {figures['sent']:,} in {figures['seconds']} s ({figures['send_rate']:,} msg/s, "
        f"{figures['senders']} concurrent publishers); received {figures['received']:,} "
        f"({figures['receive_rate']:,} msg/s); lost: {figures['lost_recording']} in the recording, "
        f"{figures['lost_store']} in the call store; event-loop lag median {figures['loop_lag_ms_median']} ms, "
        f"p95 {figures['loop_lag_ms_p95']} ms, max {figures['loop_lag_ms_max']} ms"
    )


if __name__ == "__main__":
    main()
