"""Key presses in the running app during a flood of 2,000 messages/s through the loopback room.

``inspector room`` runs in its own process, a flooding agent in another (the real livekit SDK in both);
the app (160x50, headless) is joined through a real LiveKitSource. Each key press (the help screen opened
and closed, the cursor moved up) is timed from the key event until the screen shows its effect. The
baseline is the same presses with the room quiet, measured in the same run (after a first opening of
the help, which builds it and is shown on its own).

    python bench/bench_live_flood_keys.py [--seconds 10] [--rate 2000]

Ends with os._exit (the SDK can abort at interpreter exit).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui"))
ROOM = "conv_flood_keys"

AGENT = r"""
import asyncio, os, sys, time
from livekit import rtc
from inspector.protocols import alicia
from inspector.room import mint_token

async def main(url, rate, seconds):
    room = rtc.Room()
    await room.connect(url, mint_token("devkey", "secret", "agent-flood", sys.argv[4]))
    sys.stdout.write("ready\n"); sys.stdout.flush()
    sys.stdin.readline()
    start = time.perf_counter(); sent = 0
    while time.perf_counter() - start < seconds:
        due = int((time.perf_counter() - start) * rate)
        while sent < due:
            body = {"id": f"f{sent}", "toolName": "flood", "execution": "server", "parameters": {"n": sent}}
            await room.local_participant.publish_data(
                alicia.encode_envelope(type_=6, body=body, conversation_id="c", stanza_id=-1 - sent), reliable=True
            )
            sent += 1
        await asyncio.sleep(0.005)
    sys.stdout.write(f"sent {sent}\n"); sys.stdout.flush()
    await room.disconnect()

asyncio.run(main(sys.argv[1], float(sys.argv[2]), float(sys.argv[3])))
os._exit(0)
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def _send_key(app, key: str) -> None:
    """Put a key event where the terminal driver puts one (no pilot idle-wait in the measure)."""
    from textual import events

    app._driver.send_message(events.Key(key, "?" if key == "question_mark" else None))


def _help_shown(app) -> bool:
    from inspector.ui.screens.help import HelpScreen

    screen = app.screen
    return isinstance(screen, HelpScreen) and any(w.size.height > 0 for w in screen.query("#help-keys"))


async def presses(app, pilot, count: int) -> list[float]:
    """Milliseconds from each key event to its effect on screen: '?' opens help (laid out), escape closes
    it, up (or down at the top) moves the list's cursor. The key goes in as the terminal driver sends it; Pilot.press is not
    used, since it waits for the whole process to be idle (up to 2 s during a flood), which is not latency."""
    from inspector.ui.screens.help import HelpScreen
    from inspector.ui.widgets.call_list import CallList

    times: list[float] = []
    for n in range(count):
        step = n % 3
        start = time.perf_counter()
        if step == 0:
            _send_key(app, "question_mark")
            while not _help_shown(app):
                await asyncio.sleep(0.001)
        elif step == 1:
            _send_key(app, "escape")
            while isinstance(app.screen, HelpScreen):
                await asyncio.sleep(0.001)
        else:
            calls = app.screen.query_one(CallList)
            before, rows = calls.cursor, len(calls.view)
            key = "up" if before > 0 else "down"
            leaves_end = key == "up" and before >= rows - 1  # a following list stops following
            _send_key(app, key)
            give_up = start + 5
            while rows > 1 and time.perf_counter() < give_up:
                if (calls.cursor < len(calls.view) - 1) if leaves_end else (calls.cursor != before):
                    break
                await asyncio.sleep(0.001)
        times.append((time.perf_counter() - start) * 1000)
        await asyncio.sleep(0.1)
    return times


async def run(seconds: float, rate: float) -> dict:
    from ui_factories import make_app

    from inspector.model import CallStore
    from inspector.room import mint_token
    from inspector.sources.ingest import tune_gc
    from inspector.sources.livekit_room import LiveKitSource

    tune_gc()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    room = subprocess.Popen(
        [sys.executable, "-m", "inspector", "room", "--port", "0", "--api-secret", "secret"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    url = ""
    while not url:
        line = room.stdout.readline()
        if line.startswith("LIVEKIT_URL="):
            url = line.split("=", 1)[1].strip()
    agent = subprocess.Popen(
        [sys.executable, "-c", AGENT, url, str(rate), str(seconds), ROOM],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    agent.stdout.readline()
    store = CallStore()
    token = mint_token("devkey", "secret", "inspector-bench", ROOM, hidden=True)
    source = LiveKitSource(url, token, store, None, room=ROOM, identity="inspector-bench")
    app = make_app(store, source=source, label="room flood")
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            for _ in range(200):
                if "connected" in str(source.state.status.value):
                    break
                await asyncio.sleep(0.05)
            first = await presses(app, pilot, 2)  # the help screen is built on its first opening
            quiet = await presses(app, pilot, 20)
            agent.stdin.write("go\n")
            agent.stdin.flush()
            await asyncio.sleep(1.0)
            before = len(store.items)
            flood = await presses(app, pilot, int(max(10, (seconds - 2) / 0.15)))
            during = len(store.items) - before
            sent = agent.stdout.readline().strip()
            await source.stop()
    finally:
        agent.kill()
        room.terminate()
    return {"first": first, "quiet": quiet, "flood": flood, "threaded_during": during, "agent": sent}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=2000.0)
    args = parser.parse_args()
    result = asyncio.run(run(args.seconds, args.rate))
    quiet, flood = result["quiet"], result["flood"]
    if os.environ.get("BENCH_VERBOSE"):
        print("quiet presses (help open, help close, cursor):", [round(x) for x in quiet])
        print("flood presses (help open, help close, cursor):", [round(x) for x in flood])
    print(
        f"key presses in the running app, flood of {args.rate:,.0f} msg/s for {args.seconds:g} s (agent: {result['agent']})"
    )
    print(f"  first opening of the help (builds it): {result['first'][0]:6.1f} ms")
    print(
        f"  quiet room (baseline): {len(quiet)} presses  p50 {percentile(quiet, 0.5):6.1f} ms  p95 {percentile(quiet, 0.95):6.1f} ms"
    )
    print(
        f"  during the flood:      {len(flood)} presses  p50 {percentile(flood, 0.5):6.1f} ms  p95 {percentile(flood, 0.95):6.1f} ms  max {max(flood):6.1f} ms"
    )
    print(
        f"  calls threaded while pressing: {result['threaded_during']:,}; p95 ratio {percentile(flood, 0.95) / max(0.1, percentile(quiet, 0.95)):.1f}x"
    )
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
