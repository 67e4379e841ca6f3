"""Gemini CLI saved chats (``/chat save <tag>`` -> ``checkpoint-<tag>.json``): the API history, an array of
``{role, parts}``, whose ``functionCall`` parts (no id in 2025 builds) are answered in order by the
``functionResponse`` parts of the next user content (real: KuantumQuest/MyDotFiles-HyDE, 2025-09, whose
session files of the same days record no call at all)."""

from __future__ import annotations

import json
from pathlib import Path

from inspector.model import CallStore, Outcome
from inspector.protocols import detect
from inspector.sources.files import load
from inspector.sources.session import hydrate


def _call(name: str, args: dict, call_id: str | None = None) -> dict:
    call = {"name": name, "args": args}
    return {"functionCall": {**call, "id": call_id} if call_id else call}


def _answer(call_id: str, name: str, response: dict) -> dict:
    return {"functionResponse": {"id": call_id, "name": name, "response": response}}


def _saved_chat(path: Path) -> Path:
    chat = [
        {"role": "user", "parts": [{"text": "This is the Gemini CLI. We are setting up the context."}]},
        {"role": "model", "parts": [{"text": "Got it."}]},
        {"role": "user", "parts": [{"text": "fix the notes"}]},
        {"role": "model", "parts": [
            {"text": "Reading both."},
            _call("read_file", {"absolute_path": "/w/a.md"}),
            _call("run_shell_command", {"command": "make"}),
        ]},
        {"role": "user", "parts": [
            _answer("read_file-1759399688000-aa", "read_file", {"output": "# A"}),
            _answer("run_shell_command-1759399688001-bb", "run_shell_command",
                    {"output": "Command: make\nStdout: (empty)\nExit Code: 2\nSignal: (none)"}),
        ]},
        {"role": "model", "parts": [_call("replace", {"file_path": "/w/a.md"}, "replace-own-id")]},
        {"role": "user", "parts": [_answer("replace-other", "replace",
                                           {"error": "[Operation Cancelled] Reason: User did not allow tool call"})]},
        {"role": "model", "parts": [_call("glob", {"pattern": "*.md"})]},
    ]  # fmt: skip
    path.write_text(json.dumps(chat, indent=2))
    return path


def test_a_saved_chat_reads_as_calls_answered_in_order(tmp_path: Path) -> None:
    path = _saved_chat(tmp_path / "checkpoint-notes.json")
    assert detect(str(path)).name == "gemini"
    store = CallStore()
    load([str(path)], store)
    calls = {call.call_id: call for call in store.all_calls()}
    ids = list(calls)
    assert ids[:3] == [
        "read_file-1759399688000-aa",  # no id of its own: its answer's
        "run_shell_command-1759399688001-bb",
        "replace-own-id",  # an id of its own is kept
    ]
    assert len(ids) == 4 and ids[3].endswith("item 8#1")  # never answered: named by its place
    assert calls["read_file-1759399688000-aa"].result.outcome is Outcome.SUCCESS
    assert calls["run_shell_command-1759399688001-bb"].result.outcome is Outcome.ERROR  # Exit Code: 2
    assert calls["replace-own-id"].result.outcome is Outcome.DENIED  # the user said no (2025 wording)
    assert calls[ids[3]].result is None and store.orphans == [] and store.malformed == []


def test_a_saved_chats_calls_hydrate_from_the_file(tmp_path: Path) -> None:
    path = _saved_chat(tmp_path / "checkpoint-notes.json")
    store = CallStore(keep_payloads=False)
    load([str(path)], store)
    call = next(c for c in store.all_calls() if c.call_id.startswith("run_shell_command"))
    request, results = hydrate(call)
    assert request.params == {"command": "make"} and "Exit Code: 2" in str(results[0].data)
