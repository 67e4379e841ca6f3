"""The inspector against the REAL Alicia stack (longregen/alicia fce50255: alicia-api's hub, alicia-agent,
the mcp-assistant bridge it spawns; Postgres 15 + pgvector; a scripted LLM): ../shared/alicia-real.

The stack starts once per session (a private Postgres, free ports, a random agent secret) and is stopped
and removed after; the tests skip, saying why, without ../shared or Postgres. Marked ``real_server`` and
kept in one xdist group (one stack, one worker). ``ALICIA_REAL_SAVE=DIR`` copies the recordings there
(how tests/live/alicia_real/ was made).
"""

from __future__ import annotations

import os
import shutil
import signal
from pathlib import Path

import pytest
from alicia_stack import Stack, lines, wait_for

pytestmark = [pytest.mark.real_server, pytest.mark.slow, pytest.mark.xdist_group("alicia_real")]

HARNESS_CFG = Path(__file__).resolve().parents[2].parent / "shared" / "alicia-real" / "cfg"


@pytest.fixture(scope="session")
def stack():
    reason = Stack.skip_reason()
    if reason:
        pytest.skip(reason)
    running = Stack()
    try:
        running.start()
        yield running
    finally:
        running.stop()


def save(*paths: Path) -> None:
    where = os.environ.get("ALICIA_REAL_SAVE")
    if where:
        for path in paths:
            shutil.copy(path, Path(where) / path.name)


def calls(path: Path) -> dict[str, dict]:
    """The last state of every call a headless inspector printed, by id."""
    return {e["id"]: e for e in lines(path) if e.get("event") == "call"}


def said(path: Path, kind: str) -> list[str]:
    return [e["text"] for e in lines(path) if e.get("kind") == kind or e.get("event") == kind]


def heartbeat_seen(path: Path) -> bool:
    return any(e.get("kind") == "AssistantHeartbeat" for e in lines(path))


def assistant(stack: Stack, out: Path, rules: str = "rules.toml", *extra: str):
    return stack.inspector(
        out,
        "--as-assistant",
        "--tools",
        str(HARNESS_CFG / "tools.toml"),
        "--answer-rules",
        str(HARNESS_CFG / rules),
        "--record",
        str(out.with_suffix(".jsonl")),
        *extra,
    )


def test_turns_threaded_linked_once_and_without_late_auto_answers(stack, tmp_path):
    monitor_out, assistant_out = tmp_path / "monitor.out", tmp_path / "assistant.out"
    monitor = stack.inspector(monitor_out, "--record", str(tmp_path / "monitor.jsonl"))
    wait_for(
        lambda: said(monitor_out, "connection")[-1:] == [f"connected to {stack.hub} as monitor"],
        30,
        "monitor",
    )
    helper = assistant(stack, assistant_out)
    wait_for(lambda: heartbeat_seen(monitor_out), 30, "the assistant's first heartbeat")
    frames = stack.drive(
        "ws:please get_battery",
        "ws:get_clipboard please",
        "rest:what is get_time and get_battery",
        "ws:read_screen please",  # the rule's delay (35 s) is past the bridge's 30 s
    )
    replies = [f["env"]["body"]["content"] for f in frames if f.get("type") == "AssistantMessage"]
    assert any('"level":87' in r for r in replies) and any("Clipboard access denied" in r for r in replies)
    assert any("timed out after 30s" in r for r in replies)
    wait_for(lambda: said(assistant_out, "auto-responder")[1:], 10, "the skipped answer")
    Stack.end(monitor)
    Stack.end(helper)
    save(tmp_path / "monitor.jsonl", tmp_path / "assistant.jsonl")

    seen = calls(monitor_out)
    server = [c for c in seen.values() if c["executor"] == "server"]
    client = [c for c in seen.values() if c["executor"] == "client"]
    assert len(server) == 5 and len(client) == 5
    # 1. a countdown only where something waits: the bridge, 30 s; the agent's own calls, none
    assert all(c["deadline"] is None and not c["late"] for c in server)
    assert all(round(c["deadline"] - c["ts"]) == 30 for c in client)
    # 2. each bridge request sits under the agent's call, the link said to be inferred
    for call in client:
        parent = seen[call["parent"]]
        assert parent["tool"] == "assistant:" + call["tool"] and call["depth"] == 1
        assert "inferred" in call["notes"]["link"]
    # the failures the agent reports as success are noted
    noted = {c["tool"] for c in server if "failure_as_text" in c["notes"]}
    assert noted == {"assistant:get_clipboard", "assistant:read_screen"}
    # 6. one user message per turn sent over the socket (the REST one is not broadcast)
    users = [e["text"] for e in lines(monitor_out) if e.get("kind") == "UserMessage"]
    assert users == ["please get_battery", "get_clipboard please", "read_screen please"]
    # 5. the rule would have answered at 35 s: skipped, said, nothing sent
    (skip,) = [t for t in said(assistant_out, "auto-responder") if "did not answer" in t]
    assert "read_screen" in skip and "past the request's deadline" in skip
    mine = calls(assistant_out)
    screen = next(c for c in mine.values() if c["tool"] == "read_screen")
    assert screen["results"] == [] and screen["state"] == "overdue"
    assert "assistant registered tools count=6" in stack.log("api")


def test_a_second_assistant_displaces_the_first_until_it_takes_the_role_back(stack, tmp_path):
    first_out, second_out = tmp_path / "first.out", tmp_path / "second.out"
    first = assistant(stack, first_out)
    wait_for(lambda: any("registered 6 tool(s)" in t for t in said(first_out, "connection")), 30, "first")
    second = assistant(stack, second_out, "rulesB.toml")
    wait_for(lambda: any("registered 6 tool(s)" in t for t in said(second_out, "connection")), 30, "second")
    frames = stack.drive("ws:please get_battery")
    replies = [f["env"]["body"]["content"] for f in frames if f.get("type") == "AssistantMessage"]
    assert any('"answered_by":"B"' in r for r in replies), replies  # the hub asked the second one
    notice = wait_for(
        lambda: [t for t in said(first_out, "assistant-role") if t.startswith("displaced")], 15, "displaced"
    )
    assert "take the role back" in notice[0]
    assert not calls(first_out)  # the first one never got the request
    Stack.end(second)
    first.send_signal(signal.SIGUSR1)  # headless: take the role back
    wait_for(
        lambda: any("took the assistant role back" in t for t in said(first_out, "assistant-role")),
        15,
        "reclaim",
    )
    wait_for(
        lambda: stack.log("api").count("assistant registered tools count=6") >= 3, 15, "registered again"
    )
    frames = stack.drive("ws:please get_battery")
    replies = [f["env"]["body"]["content"] for f in frames if f.get("type") == "AssistantMessage"]
    assert any('"level":87' in r for r in replies), replies  # the first one answers again
    notes = said(first_out, "assistant-role")
    assert len([t for t in notes if t.startswith("displaced")]) == 1, notes  # once, not again after
    Stack.end(first)
    save(first_out.with_suffix(".jsonl"))


def test_requests_sent_while_no_assistant_is_there_are_marked_not_delivered(stack, tmp_path):
    monitor_out, gone_out = tmp_path / "monitor.out", tmp_path / "gone.out"
    monitor = stack.inspector(monitor_out, "--record", str(tmp_path / "undelivered.jsonl"))
    wait_for(
        lambda: said(monitor_out, "connection")[-1:] == [f"connected to {stack.hub} as monitor"],
        30,
        "monitor",
    )
    gone = assistant(stack, gone_out)
    wait_for(lambda: heartbeat_seen(monitor_out), 30, "a heartbeat")
    Stack.end(gone, signal.SIGKILL)  # gone without a word: the bridge trusts its last heartbeat for 30 s
    frames = stack.drive("ws:please get_battery")
    replies = [f["env"]["body"]["content"] for f in frames if f.get("type") == "AssistantMessage"]
    assert any("timed out after 30s" in r for r in replies), replies
    bridge = wait_for(
        lambda: [c for c in calls(monitor_out).values() if c["tool"] == "get_battery" and c["undelivered"]],
        20,
        "the not-delivered mark",
    )
    assert "no heartbeat after" in bridge[0]["notes"]["undelivered"]
    Stack.end(monitor)
    save(tmp_path / "undelivered.jsonl")
