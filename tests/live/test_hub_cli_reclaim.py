"""Headless, a displaced hub assistant says so and takes the role back on a line ``reclaim`` on its
standard input (SIGUSR1 does the same: tests/live/test_alicia_real.py, against the real hub)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from inspector.live.hub_peers import HubAssistant
from inspector.live.hub_server import HubServer

SECRET = "cli-secret-reclaim"
ROOT = Path(__file__).resolve().parents[2]


async def test_a_line_reclaim_on_stdin_takes_the_role_back(tmp_path):
    server = await HubServer(SECRET).start()
    tools = tmp_path / "tools.toml"
    tools.write_text('[[tool]]\nname = "get_battery"\ndescription = "battery"\n')
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ALICIA_AGENT_SECRET": SECRET}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "inspector", "live", "--hub", server.url, "--as-assistant", "--tools", str(tools)),
        *("--no-ui", "--json", "--no-record"),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    seen: list[str] = []

    async def until(words: str) -> None:
        while not any(words in text for text in seen):
            try:
                line = await asyncio.wait_for(proc.stdout.readline(), 20)
            except asyncio.TimeoutError:
                raise AssertionError(f"no {words!r} in {seen}") from None
            assert line, f"the inspector ended early: {seen}"
            seen.append(str(json.loads(line).get("text", "")))

    other = None
    try:
        await until("connected to")
        other = await HubAssistant(server.url, SECRET, {"get_battery": {}}, heartbeat_every=0.2).start()
        await until("displaced: another connection subscribed as the assistant")
        assert any("type 'reclaim'" in text for text in seen)
        await other.close()
        other = None
        proc.stdin.write(b"reclaim\n")
        await proc.stdin.drain()
        await until("took the assistant role back")
        for _ in range(100):
            if server.assistant_tools and server.assistant_tools[0]["description"] == "battery":
                break
            await asyncio.sleep(0.05)
        assert server.assistant_tools == [{"name": "get_battery", "description": "battery"}]
    finally:
        if other is not None:
            await other.close()
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.communicate(), 20)
        await server.close()
