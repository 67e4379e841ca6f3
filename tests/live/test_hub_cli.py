"""``inspector live --hub`` as a real process against the stand-in hub: both roles with --no-ui --json."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import inspector.protocols.alicia.hub as hub
from inspector.live.hub_peers import HubAgent, HubBridge, join, scripted_conversation
from inspector.live.hub_server import HubServer

SECRET = "cli-secret-7f3a"
ROOT = Path(__file__).resolve().parents[2]


async def spawn(*args: str, env: dict[str, str] | None = None) -> asyncio.subprocess.Process:
    full = {k: v for k, v in os.environ.items() if k != "ALICIA_AGENT_SECRET"}
    full.update({"PYTHONPATH": str(ROOT), **(env or {})})
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "inspector",
        "live",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=full,
    )


async def read_until(proc: asyncio.subprocess.Process, seen: list[dict], check, timeout: float = 20) -> None:
    assert proc.stdout is not None
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not any(check(line) for line in seen):
        line = await asyncio.wait_for(proc.stdout.readline(), max(0.1, end - loop.time()))
        assert line, "the inspector ended early"
        seen.append(json.loads(line))


async def finish(proc: asyncio.subprocess.Process) -> tuple[int, str]:
    proc.send_signal(signal.SIGINT)
    _, err = await asyncio.wait_for(proc.communicate(), 20)
    return proc.returncode or 0, err.decode()


def connected(line: dict) -> bool:
    return line.get("event") == "message" and str(line.get("text", "")).startswith("connected to")


async def test_monitor_no_ui_json_prints_the_conversation_with_src_and_dst(tmp_path):
    server = await HubServer(SECRET).start()
    proc = await spawn("--hub", server.url, "--no-ui", "--json", "--record", str(tmp_path / "m.jsonl"))
    seen: list[dict] = []
    await read_until(proc, seen, connected)
    agent = await HubAgent(server.url, SECRET).start()
    client = await join(server.url, conversation="conv_hub")
    await client.send(hub.encode(2, {"id": "um_1", "content": "weather?"}, "conv_hub"))
    await agent.play(scripted_conversation(), "conv_hub")
    await read_until(
        proc, seen, lambda x: x.get("event") == "message" and x.get("kind") == "AssistantMessage"
    )
    code, err = await finish(proc)
    await agent.close()
    await client.close()
    await server.close()
    assert code == 0, err
    messages = [(x["sender"], x["kind"]) for x in seen if x["event"] == "message" and x["sender"]]
    assert ("client → server", "UserMessage") in messages
    assert messages.index(("client → server", "UserMessage")) < messages.index(
        ("agent → server", "AssistantMessage")
    )
    calls = {x["id"]: x for x in seen if x["event"] == "call"}
    assert calls["tu_1"]["state"] == "succeeded" and calls["tu_2"]["state"] == "pending"
    header = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[0])
    assert header["source"] == "alicia-hub" and header["role"] == "monitor"


async def test_assistant_no_ui_json_registers_and_answers_by_rules_and_never_shows_the_secret(tmp_path):
    server = await HubServer(SECRET).start()
    tools = tmp_path / "tools.toml"
    tools.write_text(
        '[[tool]]\nname = "get_battery"\ndescription = "battery"\ninput_schema = { type = "object" }\n'
    )
    rules = tmp_path / "rules.toml"
    rules.write_text('[[rule]]\ntool = "get_battery"\nresult = { level = 77 }\n')
    record = tmp_path / "a.jsonl"
    bridge = await HubBridge(server.url, timeout=10).start()  # the bridge runs before the phone comes
    args = ["--hub", server.url, "--as-assistant", "--tools", str(tools), "--answer-rules", str(rules)]
    proc = await spawn(
        *args, "--no-ui", "--json", "--record", str(record), env={"ALICIA_AGENT_SECRET": SECRET}
    )
    seen: list[dict] = []
    await read_until(proc, seen, connected)
    assert server.assistant_tools == [
        {"name": "get_battery", "description": "battery", "inputSchema": {"type": "object"}}
    ]
    for _ in range(100):
        if bridge.assistant_available():
            break
        await asyncio.sleep(0.05)
    body = await bridge.request("get_battery")
    assert body["success"] is True and body["result"] == {"level": 77}
    await read_until(proc, seen, lambda x: x.get("event") == "call" and x.get("state") == "succeeded")
    code, err = await finish(proc)
    await bridge.close()
    await server.close()
    assert code == 0, err
    [answered] = [x for x in seen if x["event"] == "call" and x["state"] == "succeeded"]
    assert answered["id"] == body["requestId"] and answered["results"][0]["answered_by"] == "auto"
    assert answered["deadline"] - answered["ts"] == 30.0  # the bridge's own wait: the request has none
    everything = json.dumps(seen) + err + record.read_text()
    assert SECRET not in everything


async def test_a_refused_secret_exits_2_with_the_hubs_reason(tmp_path):
    server = await HubServer(SECRET).start()
    tools = tmp_path / "tools.toml"
    tools.write_text('[[tool]]\nname = "get_time"\ndescription = "time"\n')
    proc = await spawn(
        "--hub", server.url, "--as-assistant", "--tools", str(tools), "--agent-secret", "not-it", "--no-ui",
        "--no-record",
    )  # fmt: skip
    _, err = await asyncio.wait_for(proc.communicate(), 20)
    await server.close()
    assert proc.returncode == 2
    text = err.decode()
    assert "the hub refused the agent secret: authentication required" in text
    assert "not-it" not in text and "Traceback" not in text


async def test_hub_setup_mistakes_exit_2_in_one_line(tmp_path):
    cases = [
        (["--hub", "ws://127.0.0.1:9/api/v1/ws", "--as-assistant"], "--as-assistant needs --tools"),
        (["--hub", "ftp://x"], "not a hub URL"),
        (["--hub", "ws://127.0.0.1:9/x", "--room", "r"], "--room is for LiveKit rooms"),
        (["--hub", "ws://127.0.0.1:9/x", "--answer-rules", "r.toml"], "--answer-rules needs --as-assistant"),
    ]
    bad = tmp_path / "bad.toml"
    bad.write_text('[[tool]]\ndescription = "no name"\n')
    cases.append(
        (["--hub", "ws://127.0.0.1:9/x", "--as-assistant", "--tools", str(bad)], "'name' must be a non-empty")
    )

    async def refused(args: list[str]) -> tuple[int | None, str]:
        proc = await spawn(*args, "--no-ui", "--no-record")
        _, err = await asyncio.wait_for(proc.communicate(), 60)
        return proc.returncode, err.decode()

    outcomes = await asyncio.gather(*(refused(args) for args, _ in cases))  # the processes side by side
    for (args, words), (code, err) in zip(cases, outcomes, strict=True):
        assert code == 2, (args, err)
        assert words in err and "Traceback" not in err, (args, err)


async def run_demo(*args: str) -> tuple[int, list[dict], str]:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "inspector", "demo", "--hub", "--no-ui", "--json", "--no-record", "--speed", "20",
        *args,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    out, err = await asyncio.wait_for(proc.communicate(), 60)
    return proc.returncode or 0, [json.loads(x) for x in out.decode().splitlines()], err.decode()


async def test_demo_hub_as_assistant_with_auto_answers_the_bridge():
    code, lines, err = await run_demo("--auto")
    assert code == 0, err
    final = {x["id"]: x for x in lines if x["event"] == "call"}
    battery = [c for c in final.values() if c["tool"] == "get_battery" and c["group"] == "__assistant__"]
    assert battery and battery[0]["state"] == "succeeded"
    assert "bridge: get_battery: {'level': 81" in err


async def test_demo_hub_as_monitor_sees_the_scripted_assistant_answer():
    code, lines, err = await run_demo("--as-monitor")
    assert code == 0, err
    final = {x["id"]: x for x in lines if x["event"] == "call"}
    clipboard = [c for c in final.values() if c["tool"] == "get_clipboard"]
    assert clipboard and clipboard[0]["state"] == "succeeded"
    senders = {x["sender"] for x in lines if x["event"] == "message"}
    assert {"client → server", "agent → server", "server → agent"} <= senders


async def test_a_secret_in_the_url_works_and_is_never_shown(tmp_path):
    server = await HubServer(SECRET).start()
    tools = tmp_path / "tools.toml"
    tools.write_text('[[tool]]\nname = "get_time"\ndescription = "time"\n')
    record = tmp_path / "q.jsonl"
    url = f"{server.url}?agent_secret={SECRET}"
    proc = await spawn(
        "--hub", url, "--as-assistant", "--tools", str(tools), "--no-ui", "--json", "--record", str(record)
    )
    seen: list[dict] = []
    await read_until(proc, seen, connected)
    assert server.assistant_tools == [{"name": "get_time", "description": "time"}]
    code, err = await finish(proc)
    await server.close()
    assert code == 0, err
    assert SECRET not in json.dumps(seen) + err + record.read_text()


async def test_a_wrong_path_exits_2_naming_the_hubs_path():
    server = await HubServer(SECRET).start()
    proc = await spawn("--hub", server.url.replace("/api/v1/ws", "/ws"), "--no-ui", "--no-record")
    _, err = await asyncio.wait_for(proc.communicate(), 20)
    await server.close()
    assert proc.returncode == 2
    assert "no hub at this address (HTTP 404): the hub's path is /api/v1/ws" in err.decode()


async def test_a_hub_that_is_not_running_is_said_in_words_with_its_address():
    import socket

    with socket.socket() as sock:  # bound, not listening: a connect is refused, as to a hub that is down
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        proc = await spawn(
            "--hub", f"ws://127.0.0.1:{port}/api/v1/ws", "--no-ui", "--no-record", "--give-up-after", "0"
        )
        _, err = await asyncio.wait_for(proc.communicate(), 20)
    assert proc.returncode == 2
    assert (
        f"nothing is listening at 127.0.0.1:{port} (connection refused): is the hub running, and is the "
        "URL's port right?" in err.decode()
    ), err.decode()
    assert "Errno" not in err.decode() and "Traceback" not in err.decode()
