"""A Claude Code subagent file read on its own (its ``<session>/subagents/`` folder's session is missing, or
the file is opened alone) holds ``agent_progress`` copies of other agents' messages: a compaction agent
(``agent-acompact-*``) copies the session it compacts, Task calls and their agents' progress included. The
agents whose own files are beside it are shown from those files; the copies are not its calls (real
Claude Code 2.1.81 folders showed 218 calls twice, 2,200 where 1,982 ran). An agent with no file beside it
keeps its copies: they are all there is of it. Minimal synthetic files of that layout; realcount agrees."""

from __future__ import annotations

import json
from pathlib import Path

from realcount import count, folder_sessions

from inspector.model import CallStore
from inspector.model.events import RawRef
from inspector.sources.files import load

GONE = "0c0c0c0c-0000-4000-8000-000000000001"  # the session whose file is missing


def rec(agent: str, kind: str, uuid: str, content: list, **extra) -> dict:
    base = {"isSidechain": True, "userType": "external", "cwd": "/w", "sessionId": GONE, "version": "2.1.81"}
    return (
        base
        | {"agentId": agent, "type": kind, "uuid": uuid, "timestamp": "2026-03-21T20:50:00.000Z"}
        | {"message": {"role": kind, "content": content}}
        | extra
    )


def use(call: str, name: str = "Bash") -> dict:
    return {"type": "tool_use", "id": call, "name": name, "input": {"command": "ls", "prompt": "look"}}


def done(call: str) -> dict:
    return {"type": "tool_result", "tool_use_id": call, "content": "ok"}


def agent_records(agent: str, calls: list[str]) -> list[dict]:
    """An agent's own records: each call and its result, uuids the copies repeat."""
    out = []
    for call in calls:
        out.append(rec(agent, "assistant", f"{agent}-{call}-u", [use(call)]))
        out.append(rec(agent, "user", f"{agent}-{call}-r", [done(call)]))
    return out


def progress(holder: str, parent: str, copied: dict) -> dict:
    """An ``agent_progress`` record of ``holder`` copying one message of the agent that wrote ``copied``."""
    inner = {"type": copied["type"], "uuid": copied["uuid"], "timestamp": copied["timestamp"]}
    inner["message"] = copied["message"]
    data = {"type": "agent_progress", "agentId": copied["agentId"], "prompt": "", "message": inner}
    return {
        "isSidechain": True,
        "sessionId": GONE,
        "agentId": holder,
        "type": "progress",
        "uuid": f"p-{copied['uuid']}",
        "timestamp": copied["timestamp"],
        "parentToolUseID": parent,
        "data": data,
    }


def write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def layout(root: Path) -> tuple[Path, Path]:
    """``<project>/<GONE>/subagents/``: agent a1 (2 calls) with its file; a compaction agent holding its
    own 2 calls, the copy of the Agent call that started a1 (answered), a1's progress copies, and the copies
    of agent a9, whose file is not there (1 call)."""
    folder = root / "-w" / GONE / "subagents"
    folder.mkdir(parents=True)
    a1 = agent_records("a1", ["toolu_a1_1", "toolu_a1_2"])
    write(folder / "agent-a1.jsonl", a1)
    a9 = agent_records("a9", ["toolu_a9_1"])
    compact = "acompact-77"
    records = agent_records(compact, ["toolu_own_1"])
    records.append(rec(compact, "assistant", "c-task", [use("toolu_task", "Agent")]))
    records += [progress(compact, "toolu_task", r) for r in a1]
    records.append(rec(compact, "user", "c-task-r", [done("toolu_task")], toolUseResult={"agentId": "a1"}))
    records.append(rec(compact, "assistant", "c-task9", [use("toolu_task9", "Agent")]))
    records += [progress(compact, "toolu_task9", r) for r in a9]
    records.append(rec(compact, "user", "c-task9-r", [done("toolu_task9")]))
    compaction = write(folder / f"agent-{compact}.jsonl", records)
    return folder, compaction


def calls_of(paths: list[str]) -> tuple[int, set[str]]:
    store = CallStore()
    load(paths, store)
    return store.call_count, {key[-1] for key in store.calls}


def test_a_compaction_agent_read_alone_leaves_out_its_copies_of_the_agents_beside_it(tmp_path):
    folder, compaction = layout(tmp_path)
    shown, ids = calls_of([str(compaction)])
    # its own call, its two Agent calls, and a9's call (no file of a9 beside it): not a1's two
    assert shown == 4 and "toolu_a9_1" in ids and "toolu_a1_1" not in ids
    counted = count(compaction)
    assert (counted.calls, counted.unanswered, counted.orphans) == (4, 0, 0)


def test_a_folder_whose_session_is_missing_shows_each_call_once(tmp_path):
    folder, _ = layout(tmp_path)
    shown, ids = calls_of([str(folder)])
    assert shown == len(ids) == 6  # a1's two calls once (from its file), the compaction's 3, a9's copy
    files = folder_sessions(folder)
    assert sum(count(p).calls for p in files) == 6
    shown, _ = calls_of([str(tmp_path / "-w")])  # the project folder: the same
    assert shown == 6


def test_a_followed_compaction_agent_leaves_out_its_copies_of_the_agents_beside_it(tmp_path):
    """Its lines decoded one by one as a follow reads them: the same calls as its read."""
    from inspector.model.events import Request
    from inspector.protocols import get

    _, compaction = layout(tmp_path)
    decode_line = get("claude").decode_line
    assert decode_line is not None
    ids = set()
    for number, line in enumerate(compaction.read_bytes().splitlines(), 1):
        raw = RawRef(str(compaction), f"line {number}", 0, len(line))
        ids |= {event.call_id for event in decode_line(line, raw) if isinstance(event, Request)}
    assert ids == {"toolu_own_1", "toolu_task", "toolu_task9", "toolu_a9_1"}


def test_a_subagent_file_read_alone_has_its_calls_at_the_top(tmp_path):
    """Every record of a subagent's own file is ``isSidechain``; read alone (its session missing), it has
    no call of that session to nest under: its calls stand at the top, and only the copies it holds of an
    agent with no file (a9's, under the Agent call that started a9) are nested. So realcount says too (it
    once took a lone file's sidechain records for the 1.0.x inline subagent and nested them all: 70 of
    687 calls of a real 2.1.81-2.1.97 folder, 120 of 268 of a 2.1.39-2.1.132 one)."""
    from inspector.model.stats import session_stats

    folder, compaction = layout(tmp_path)
    for path, nested in ((folder / "agent-a1.jsonl", 0), (compaction, 1)):
        store = CallStore(keep_payloads=False)
        load([str(path)], store)
        figures = session_stats(store, store.end_clock().now(), None)
        assert figures["nested"] == nested == count(path).nested, path.name
