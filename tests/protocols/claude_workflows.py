"""A Claude Code 2.1.16x session that ran a ``Workflow``, laid out as Claude Code writes it.

Facts (public issues and tools that read these files: claude-code-log #174, cchv #449, the Workflow
tool's launch acknowledgement as agent runners match it):

- the ``Workflow`` tool_use carries the script (``script`` or ``scriptPath``); its tool_result says
  ``Workflow launched in background. Task ID: <taskId>\\nSummary: …\\nTranscript dir: <folder>`` with
  ``toolUseResult: {status: "async_launched", taskId, taskType: "local_workflow", workflowName, runId}``;
- the agents' transcripts are ``<session>/subagents/workflows/<runId>/agent-<agentId>.jsonl`` with an
  ``agent-<agentId>.meta.json`` (``{"agentType": "workflow-subagent", "spawnDepth": 1}``, no toolUseId)
  and the run's ``journal.jsonl`` (``started`` / ``result`` lines); the scripts and the run's record sit
  in ``<session>/workflows/``;
- an ``Agent`` tool subagent of the same session stays at ``<session>/subagents/agent-<agentId>.jsonl``.
"""

from __future__ import annotations

import json
import uuid as uuidlib
from pathlib import Path

SID = "20ddae6f-e4e5-4a68-a8d6-0c8e6a88554a"
RUN = "wf_dd551b62-a1d"
VERSION = "2.1.165"
CWD = "/home/dev/claude-code-log"
AGENTS = ("a00eb133276976080", "a1c55e0f2b7d94e31")
FLAT = "a7f3e2d1c0b9a8f76"


def _rec(kind: str, content, ts: str, agent: str | None = None, **extra) -> dict:
    message: dict = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"model": "claude-opus-4-7", "id": f"msg_{uuidlib.uuid4().hex[:20]}", "type": "message",
                   "role": "assistant", "content": content, "stop_reason": "tool_use", "stop_sequence": None,
                   "usage": {"input_tokens": 3, "output_tokens": 80}}  # fmt: skip
    base = {"parentUuid": None, "isSidechain": agent is not None, "userType": "external", "cwd": CWD,
            "sessionId": SID, "version": VERSION, "gitBranch": "main", "type": kind, "message": message,
            "uuid": str(uuidlib.uuid4()), "timestamp": ts}  # fmt: skip
    if agent is not None:
        base["agentId"] = agent
    base.update(extra)
    return base


def _use(call_id: str, name: str, params: dict) -> dict:
    return {"type": "tool_use", "id": call_id, "name": name, "input": params}


def _res(call_id: str, content, ts: str, agent: str | None = None, structured=None) -> dict:
    record = _rec("user", [{"tool_use_id": call_id, "type": "tool_result", "content": content}], ts, agent)
    if structured is not None:
        record["toolUseResult"] = structured
    return record


def _write(path: Path, records: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records), encoding="utf-8")
    return path


def _agent_records(agent: str, index: int) -> list[dict]:
    ts = f"2026-05-29T10:3{5 + index}:"
    read, grep, out = f"toolu_0{index}WfRead", f"toolu_0{index}WfGrep", f"toolu_0{index}WfOut"
    return [
        _rec(
            "user",
            f"Analyse part {index} of converter.py and report what to simplify.",
            ts + "10.100Z",
            agent,
        ),
        _rec("assistant", [_use(read, "Read", {"file_path": f"{CWD}/converter.py"})], ts + "12.000Z", agent),
        _res(read, "     1\timport json\n", ts + "12.300Z", agent),
        _rec(
            "assistant", [_use(grep, "Grep", {"pattern": "def render", "path": CWD})], ts + "14.000Z", agent
        ),
        _res(grep, "Found 2 files\nrenderer.py\nconverter.py", ts + "14.200Z", agent),
        _rec(
            "assistant",
            [_use(out, "StructuredOutput", {"plan": f"part {index}: merge helpers"})],
            ts + "20.000Z",
            agent,
        ),  # fmt: skip
        _res(out, "Structured output provided successfully", ts + "20.100Z", agent),
    ]


def session(root: Path, result: str = "full") -> Path:
    """The session under ``root/<project>/``; ``result``: ``full`` (toolUseResult and text), ``text``
    (only the ``Transcript dir:`` line), or ``none`` (the Workflow call never answered)."""
    project = root / "-home-dev-claude-code-log"
    folder = project / SID
    run_dir = folder / "subagents" / "workflows" / RUN
    launch = (
        f"Workflow launched in background. Task ID: wkl0hdxvz\nSummary: Simplify converter and renderer\n"
        f"Transcript dir: /home/dev/.claude/projects/-home-dev-claude-code-log/{SID}/subagents/workflows/{RUN}\n"
    )
    structured = {"status": "async_launched", "taskId": "wkl0hdxvz", "taskType": "local_workflow",
                  "workflowName": "simplify-converter-renderer", "runId": RUN}  # fmt: skip
    records = [
        _rec("user", "simplify converter.py and renderer.py with a workflow", "2026-05-29T10:34:58.000Z"),
        _rec(
            "assistant",
            [
                _use(
                    "toolu_01Agent",
                    "Agent",
                    {"description": "Survey tests", "prompt": "List the tests.", "subagent_type": "Explore"},
                )
            ],
            "2026-05-29T10:35:00.000Z",
        ),  # fmt: skip
        _res(
            "toolu_01Agent",
            [{"type": "text", "text": "3 test files."}],
            "2026-05-29T10:35:08.000Z",
            structured={"status": "completed", "agentId": FLAT, "totalToolUseCount": 1, "content": []},
        ),  # fmt: skip
        _rec(
            "assistant",
            [
                _use(
                    "toolu_01Workflow",
                    "Workflow",
                    {
                        "script": "export const meta = {name: 'simplify'};\n"
                        "const plans = await parallel(parts.map(p => agent(p)));",
                        "description": "Simplify converter and renderer",
                    },
                )
            ],
            "2026-05-29T10:35:09.000Z",
        ),  # fmt: skip
    ]
    if result == "full":
        records.append(_res("toolu_01Workflow", launch, "2026-05-29T10:35:10.069Z", structured=structured))
    elif result == "text":
        records.append(_res("toolu_01Workflow", launch, "2026-05-29T10:35:10.069Z"))
    records.append(
        _rec(
            "assistant",
            [_use("toolu_01Bash", "Bash", {"command": "git status", "description": "Status"})],
            "2026-05-29T10:40:00.000Z",
        )  # fmt: skip
    )
    records.append(_res("toolu_01Bash", "On branch main", "2026-05-29T10:40:01.000Z"))
    path = _write(project / f"{SID}.jsonl", records)
    _write(
        folder / "subagents" / f"agent-{FLAT}.jsonl",
        [
            _rec("user", "List the tests.", "2026-05-29T10:35:01.000Z", FLAT),
            _rec(
                "assistant",
                [_use("toolu_01FlatGlob", "Glob", {"pattern": "test/*.py"})],
                "2026-05-29T10:35:03.000Z",
                FLAT,
            ),  # fmt: skip
            _res("toolu_01FlatGlob", "test/a.py\ntest/b.py\ntest/c.py", "2026-05-29T10:35:04.000Z", FLAT),
        ],
    )
    journal = []
    for index, agent in enumerate(AGENTS, start=1):
        _write(run_dir / f"agent-{agent}.jsonl", _agent_records(agent, index))
        (run_dir / f"agent-{agent}.meta.json").write_text(
            json.dumps({"agentType": "workflow-subagent", "spawnDepth": 1}), encoding="utf-8"
        )
        journal.append({"type": "started", "key": f"v2:{index}b672316a", "agentId": agent})
        journal.append({"type": "result", "key": f"v2:{index}b672316a", "agentId": agent,
                        "result": {"plan": f"part {index}: merge helpers"}})  # fmt: skip
    _write(run_dir / "journal.jsonl", journal)
    scripts = folder / "workflows" / "scripts"
    scripts.mkdir(parents=True)
    (scripts / f"simplify-converter-renderer-{RUN}.js").write_text(
        "export const meta = {};\n", encoding="utf-8"
    )
    (folder / "workflows" / f"{RUN}.json").write_text(
        json.dumps({"runId": RUN, "taskId": "wkl0hdxvz", "timestamp": "2026-05-29T10:35:10.069Z"}),
        encoding="utf-8",
    )
    return path


WORKFLOW_CALLS = [f"toolu_0{i}Wf{kind}" for i in (1, 2) for kind in ("Read", "Grep", "Out")]
ALL_CALLS = 3 + 1 + len(WORKFLOW_CALLS)  # the session's own (Agent, Workflow, Bash), the Agent's, the run's
