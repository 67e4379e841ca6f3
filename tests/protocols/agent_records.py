"""Records of Codex CLI and Gemini CLI sessions built to the shapes of ../shared/reference/agent-formats.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inspector.model.call import Call
from inspector.model.events import Event, Malformed, Message, Result
from inspector.model.store import CallStore
from inspector.protocols import codex, detect

SESSION = "019e0000-0000-7000-8000-000000000001"


def env(kind: str, payload: dict[str, Any], second: int = 0) -> dict[str, Any]:
    return {"timestamp": f"2026-05-12T10:00:{second:02d}.000Z", "type": kind, "payload": payload}


def meta(version: str = "0.126.0", **more: Any) -> dict[str, Any]:
    payload = {"id": SESSION, "timestamp": "2026-05-12T10:00:00.000Z", "cwd": "/w", "originator": "codex_cli_rs",
               "cli_version": version, "source": "cli", "model_provider": "openai", **more}  # fmt: skip
    return env("session_meta", payload)


def call(name: str, args: dict[str, Any], call_id: str, second: int = 1) -> dict[str, Any]:
    payload = {"type": "function_call", "name": name, "arguments": json.dumps(args), "call_id": call_id}
    return env("response_item", payload, second)


def custom(name: str, text: str, call_id: str, second: int = 1) -> dict[str, Any]:
    payload = {
        "type": "custom_tool_call",
        "name": name,
        "input": text,
        "call_id": call_id,
        "status": "completed",
    }
    return env("response_item", payload, second)


def output(call_id: str, out: Any, second: int = 2, kind: str = "function_call_output") -> dict[str, Any]:
    return env("response_item", {"type": kind, "call_id": call_id, "output": out}, second)


def event(payload: dict[str, Any], second: int = 2) -> dict[str, Any]:
    return env("event_msg", payload, second)


def write(tmp_path: Path, records: list[Any], name: str = "rollout-2026-05-12T10-00-00-x.jsonl") -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def load(path: Path, module: Any = codex) -> tuple[list[Event], CallStore]:
    assert detect(str(path)).name == module.NAME
    events = list(module.read(str(path)))
    store = CallStore()
    store.ingest_many(events)
    store.end()
    assert not [e for e in events if isinstance(e, Malformed)], [
        e for e in events if isinstance(e, Malformed)
    ]
    return events, store


def calls(store: CallStore) -> dict[str, Call]:
    return {c.call_id: c for c in store.all_calls()}


def first(store: CallStore, call_id: str) -> Result:
    result = calls(store)[call_id].result
    assert result is not None, f"{call_id} has no result"
    return result


def exec_text(code: int | None, body: str, session: int | None = None) -> str:
    state = (
        f"Process exited with code {code}"
        if session is None
        else f"Process running with session ID {session}"
    )
    return f"Chunk ID: 1a2b3c\nWall time: 1.0010 seconds\n{state}\nOriginal token count: 3\nOutput:\n{body}"


G_HEADER = {"sessionId": "9330d511-aaaa-bbbb-cccc-000000000001", "projectHash": "ab12", "startTime":
            "2026-04-25T08:00:00.000Z", "lastUpdated": "2026-04-25T08:00:09.000Z", "kind": "main"}  # fmt: skip


def g_call(call_id: str, name: str, args: dict[str, Any], status: str, response: dict[str, Any] | None,
           display: Any = None, second: int = 2) -> dict[str, Any]:  # fmt: skip
    entry: dict[str, Any] = {"id": call_id, "name": name, "args": args, "status": status,
                             "timestamp": f"2026-04-25T08:00:{second:02d}.000Z", "resultDisplay": display,
                             "displayName": name, "description": "", "renderOutputAsMarkdown": True}  # fmt: skip
    if response is not None:
        entry["result"] = [{"functionResponse": {"id": call_id, "name": name, "response": response}}]
    return entry


def g_msg(
    message_id: str, kind: str, content: Any, calls: list[Any] | None = None, second: int = 1
) -> dict[str, Any]:
    message: dict[str, Any] = {"id": message_id, "timestamp": f"2026-04-25T08:00:{second:02d}.000Z", "type": kind,
                               "content": content}  # fmt: skip
    if kind == "gemini":
        message.update(thoughts=[], tokens={"input": 1, "output": 1, "cached": 0, "thoughts": 0, "tool": 0,
                                            "total": 2}, model="gemini-2.5-pro")  # fmt: skip
    if calls is not None:
        message["toolCalls"] = calls
    return message


def g_document(tmp_path: Path, messages: list[Any], name: str = "session-2026-04-25T08-00-9330d511.json",
               **more: Any) -> Path:  # fmt: skip
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({**G_HEADER, **more, "messages": messages}, indent=2), encoding="utf-8")
    return path


def g_lines(tmp_path: Path, records: list[Any]) -> Path:
    return write(tmp_path, [G_HEADER, *records], "session-2026-04-25T08-00-9330d511.jsonl")


def texts(events: list[Event]) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in events if isinstance(e, Message)]
