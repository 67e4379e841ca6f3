"""The session browser counts a resumed session's subagents whatever its first line is: a Claude Code
session file may start with records that carry no sessionId (``summary``, ``queue-operation``), and the
session id that names the earlier session's folder comes from the first record that has one."""

from __future__ import annotations

import json

from inspector.sources.claude_sessions import find_sessions

EARLIER = "1f0e2d3c-4b5a-4968-8776-a5b4c3d2e1f0"
RESUMED = "9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d"
AGENT = "a3c5e7f9b1d2e4f60"


def rec(kind, content, sid, **extra):
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": sid,
            "version": "2.0.77", "type": kind, "message": {"role": kind, "content": content},
            "uuid": f"u-{kind}-{len(json.dumps(content))}-{sid[:4]}", "timestamp": "2025-12-01T10:00:00.000Z",
            **extra}  # fmt: skip


def test_a_resumed_session_starting_with_a_summary_counts_the_earlier_sessions_subagents(tmp_path):
    project = tmp_path / "-w"
    project.mkdir()
    agent_call = {"type": "tool_use", "id": "toolu_A", "name": "Task",
                  "input": {"description": "d", "prompt": "look", "subagent_type": "Explore"}}  # fmt: skip
    records = [
        {"type": "summary", "summary": "Fixing the build", "leafUuid": "u-leaf"},
        rec("assistant", [agent_call], EARLIER),
        rec(
            "user",
            [{"type": "tool_result", "tool_use_id": "toolu_A", "content": "done"}],
            EARLIER,
            toolUseResult={"status": "completed", "agentId": AGENT},
        ),  # fmt: skip
        rec(
            "assistant",
            [{"type": "tool_use", "id": "toolu_B", "name": "Bash", "input": {"command": "ls"}}],
            RESUMED,
        ),  # fmt: skip
        rec("user", [{"type": "tool_result", "tool_use_id": "toolu_B", "content": "a"}], RESUMED),
    ]
    path = project / f"{RESUMED}.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    agent = project / EARLIER / "subagents" / f"agent-{AGENT}.jsonl"
    agent.parent.mkdir(parents=True)
    agent_records = [
        rec("user", "look", EARLIER, isSidechain=True, agentId=AGENT),
        rec(
            "assistant",
            [{"type": "tool_use", "id": "toolu_S1", "name": "Glob", "input": {"pattern": "*"}}],
            EARLIER,
            isSidechain=True,
            agentId=AGENT,
        ),  # fmt: skip
        rec(
            "user",
            [{"type": "tool_result", "tool_use_id": "toolu_S1", "content": "x"}],
            EARLIER,
            isSidechain=True,
            agentId=AGENT,
        ),  # fmt: skip
    ]
    agent.write_text("".join(json.dumps(r) + "\n" for r in agent_records), encoding="utf-8")
    [info] = [s for s in find_sessions(str(tmp_path)) if s.path == str(path)]
    assert info.tool_calls == 3  # Task, Bash and the subagent's Glob
