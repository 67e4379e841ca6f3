"""Claude Code subagents, all three generations, nested under the Task/Agent call that ran them."""

from __future__ import annotations

import json
import shutil

from claude_records_factory import SID, call, record, result, use, uuid, write

from inspector.model import CallStore, Message, RawRef, Request, Skipped
from inspector.protocols import claude
from inspector.sources.files import load


def store_of(path) -> CallStore:
    store = CallStore()
    load([str(path)], store)
    assert not store.malformed and not store.orphans
    return store


def parents(store: CallStore) -> dict[str, str | None]:
    """Call id -> the id of the call it is nested under."""
    return {c.call_id: (c.parent.call_id if c.parent else None) for c in store.all_calls()}


def task(
    call_id: str,
    prompt: str,
    description: str,
    agent_id: str | None = None,
    name: str = "Task",
    answered: bool = True,
) -> tuple[dict, dict | None]:
    request, answer = call(
        call_id,
        name,
        {"description": description, "prompt": prompt},
        [{"type": "text", "text": "done"}],
        {"status": "completed", "agentId": agent_id, "prompt": prompt, "content": [], "totalToolUseCount": 1}
        if agent_id
        else None,
    )
    return request, (answer if answered else None)


def agent_records(agent_id: str, prompt: str, call_ids: list[str], session: str = SID) -> list[dict]:
    extra = {"isSidechain": True, "agentId": agent_id, "sessionId": session}
    records = [record("user", prompt, **extra)]
    for call_id in call_ids:
        records += call(
            call_id,
            "Bash",
            {"command": f"echo {call_id}"},
            "out",
            {"stdout": "out", "stderr": "", "interrupted": False},
            **extra,
        )
    return records


def progress(inner: dict, agent_id: str, parent: str, compact: bool = True) -> bytes:
    """A 2.1.x agent_progress record repeating one subagent record."""
    value = {
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": SID,
        "type": "progress",
        "data": {
            "message": {k: inner[k] for k in ("type", "message", "uuid", "timestamp")},
            "normalizedMessages": [],
            "type": "agent_progress",
            "prompt": "p",
            "agentId": agent_id,
        },
        "toolUseID": f"agent_msg_{uuid()[-4:]}",
        "parentToolUseID": parent,
        "uuid": uuid(),
        "timestamp": "2025-06-01T10:00:01.000Z",
    }
    return json.dumps(value, separators=(",", ":") if compact else (", ", ": ")).encode()


# -- generation 1: sidechain records inside the session -------------------------------------------------


def test_inline_sidechains_nest_under_the_task_whose_prompt_they_start_with(tmp_path):
    ask_a, done_a = task("toolu_A", "Survey the tests", "Tests")
    ask_b, done_b = task("toolu_B", "Survey the docs", "Docs")
    side_b = agent_records("", "Survey the docs", ["toolu_b1", "toolu_b2"])
    side_a = agent_records("", "Survey the tests", ["toolu_a1"])
    for side in (side_a, side_b):  # Claude Code 1.0.x: sidechain records chain by parentUuid, no agentId
        for before, after in zip(side, side[1:], strict=False):
            after["parentUuid"] = before["uuid"]
        for item in side:
            del item["agentId"]
    path = write(tmp_path / "s.jsonl", [record("user", "Go"), ask_a, ask_b, *side_b, done_b, *side_a, done_a])
    store = store_of(path)
    assert parents(store) == {
        "toolu_A": None,
        "toolu_a1": "toolu_A",
        "toolu_B": None,
        "toolu_b1": "toolu_B",
        "toolu_b2": "toolu_B",
    }
    nested = [c for c in store.all_calls() if c.parent is not None]
    assert {c.request.sender for c in nested} == {"subagent"}
    prompt = [m for m in store.calls[("", SID, "toolu_B")].children if isinstance(m, Message)]
    assert [m.text for m in prompt] == ["Survey the docs"]


# -- generation 2: project-level agent-<id>.jsonl ------------------------------------------------------


def test_project_level_agent_files_are_linked_by_agent_id_or_first_prompt(tmp_path):
    ask, done = task("toolu_T", "Find the bug", "Bug hunt", agent_id="abc123")
    lost, _ = task("toolu_L", "Check the logs", "Logs", answered=False)  # interrupted: no result, no agentId
    session = write(tmp_path / "s.jsonl", [ask, done, lost])
    write(tmp_path / "agent-abc123.jsonl", agent_records("abc123", "Find the bug", ["toolu_x1", "toolu_x2"]))
    write(tmp_path / "agent-def456.jsonl", agent_records("def456", "Check the logs", ["toolu_y1"]))
    write(
        tmp_path / "agent-warm0001.jsonl",
        [
            record("user", "Warmup", isSidechain=True, agentId="warm0001"),
            record("assistant", [{"type": "text", "text": "Ready"}]),
        ],
    )
    write(
        tmp_path / "agent-other001.jsonl",
        agent_records("other001", "Check the logs", ["toolu_z1"], session="another-session"),
    )
    store = store_of(session)
    assert parents(store) == {
        "toolu_T": None,
        "toolu_x1": "toolu_T",
        "toolu_x2": "toolu_T",
        "toolu_L": None,
        "toolu_y1": "toolu_L",
    }
    assert store.calls[("", SID, "toolu_x1")].request.sender == "abc123"
    assert not any(isinstance(i, Message) and i.text in ("Warmup", "Ready") for i in store.items)
    alone = store_of(tmp_path / "agent-abc123.jsonl")
    assert parents(alone) == {"toolu_x1": None, "toolu_x2": None}
    assert alone.items[0].kind == "user" and alone.items[0].sender == "abc123"


# -- generation 3: <session>/subagents/agent-<id>.jsonl, and 2.1.x progress copies ---------------------


def make_generation_3(folder, with_progress: bool = True):
    """A session with two Agent calls (one linked by agentId, one only by its meta description), a
    subagent that runs its own Agent, a compaction agent without calls, and progress copies."""
    ask, done = task("toolu_A1", "Research plan mode", "Plan mode", agent_id="a111", name="Agent")
    ask2, _ = task("toolu_A2", "Second look at it", "Second look", name="Agent", answered=False)
    sub = folder / "s" / "subagents"
    first = agent_records("a111", "Research plan mode", ["toolu_p1", "toolu_p2"])
    inner_ask, inner_done = task("toolu_N", "Dig deeper", "Deeper", agent_id="a333", name="Agent")
    for item in (inner_ask, inner_done):
        item.update(isSidechain=True, agentId="a111")
    first += [inner_ask, inner_done]
    write(sub / "agent-a111.jsonl", first)
    (sub / "agent-a111.meta.json").write_text('{"agentType": "general-purpose", "description": "Plan mode"}')
    write(sub / "agent-a222.jsonl", agent_records("a222", "A reworded prompt", ["toolu_q1"]))
    (sub / "agent-a222.meta.json").write_text(
        '{"agentType": "general-purpose", "description": "Second look"}'
    )
    write(sub / "agent-a333.jsonl", agent_records("a333", "Dig deeper", ["toolu_r1"]))
    write(
        sub / "agent-acompact-1.jsonl",
        [
            record("user", "Summarise the conversation", isSidechain=True),
            record("assistant", [{"type": "text", "text": "Summary"}]),
        ],
    )
    main = [record("user", "Go"), ask]
    if with_progress:
        copies = [r for r in first if isinstance(r["message"]["content"], list)]
        main += [progress(r, "a111", "toolu_A1") for r in copies]
        main.append(progress(copies[0], "a111", "toolu_A1", compact=False))  # missed by the byte filter
        main.append(progress(copies[0], "a111", "toolu_A1"))  # a repeated copy
    main += [done, ask2]
    return write(folder / "s.jsonl", main)


EXPECTED_3 = {
    "toolu_A1": None,
    "toolu_p1": "toolu_A1",
    "toolu_p2": "toolu_A1",
    "toolu_N": "toolu_A1",
    "toolu_r1": "toolu_N",
    "toolu_A2": None,
    "toolu_q1": "toolu_A2",
}


def test_subagent_files_nest_under_their_call_and_progress_copies_count_once(tmp_path):
    store = store_of(make_generation_3(tmp_path))
    assert parents(store) == EXPECTED_3
    assert store.call_count == len(EXPECTED_3) and store.duplicate_results == 0
    assert store.skipped["progress"] == 8 and store.skipped["subagent without calls"] == 1
    deep = store.calls[("", SID, "toolu_r1")]
    assert deep.depth == 2 and deep.request.sender == "a333" and deep.result.details.stdout == "out"


def test_progress_copies_are_the_calls_when_the_subagent_file_is_gone(tmp_path):
    session = make_generation_3(tmp_path)
    shutil.rmtree(tmp_path / "s")
    store = store_of(session)
    assert parents(store) == {
        "toolu_A1": None,
        "toolu_p1": "toolu_A1",
        "toolu_p2": "toolu_A1",
        "toolu_N": "toolu_A1",
        "toolu_A2": None,
    }
    assert store.call_count == 5 and store.duplicate_results == 0
    assert store.calls[("", SID, "toolu_p1")].request.sender == "a111"
    assert store.calls[("", SID, "toolu_p1")].result.data == "out"


def test_a_progress_line_decodes_alone_to_the_subagent_call(tmp_path):
    session = make_generation_3(tmp_path)
    line = session.read_bytes().split(b"\n")[2]  # the copy of the subagent's first tool_use
    event = next(e for e in claude.read(str(session)) if isinstance(e, Skipped) and e.where == "line 3")
    assert event.kind == "progress"
    raw = RawRef(str(session), "line 3", 0, len(line), protocol="claude")
    (request,) = [e for e in claude.decode_line(line, raw) if isinstance(e, Request)]
    assert (request.call_id, request.parent_id, request.sender) == ("toolu_p1", "toolu_A1", "a111")


def test_a_subagent_result_block_with_list_content_and_a_task_tool_named_agent(tmp_path):
    ask = record("assistant", [use("toolu_G", "Agent", {"description": "d", "prompt": "p"})])
    done = record("user", [result("toolu_G", [{"type": "text", "text": "ok"}])])
    done["toolUseResult"] = {
        "status": "completed",
        "agentId": "g1",
        "content": [{"type": "text", "text": "ok"}],
        "totalToolUseCount": 0,
        "agentType": "Explore",
    }
    store = store_of(write(tmp_path / "s.jsonl", [ask, done]))
    detail = store.items[0].result.details
    assert (detail.agent_id, detail.description, detail.content, detail.tool_count) == ("g1", "d", "ok", 0)
