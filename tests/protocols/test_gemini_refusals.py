"""A Gemini CLI call the user refused at the confirmation prompt is denied, whatever the CLI version's
words: ``[Operation Cancelled] Reason: User did not allow tool call`` (sessions and saved chats of
2025-09 to 2026-01: KuantumQuest/MyDotFiles-HyDE, brexp/infra, fabien-lessirard/dotfiles) and
``... User denied execution.`` (2026-02 on); ``... User cancelled the operation.`` is an interruption."""

from __future__ import annotations

import json

import pytest

from inspector.model import CallStore, Outcome
from inspector.sources.files import load

OLD = "[Operation Cancelled] Reason: User did not allow tool call"
NEW = "[Operation Cancelled] Reason: User denied execution."
STOPPED = "[Operation Cancelled] Reason: User cancelled the operation."


def outcomes(path) -> dict[str, Outcome]:
    store = CallStore()
    load([str(path)], store)
    assert not store.malformed
    return {c.call_id: c.results[-1].outcome for c in store.all_calls() if c.results}


def tool_call(call_id: str, error: str) -> dict:
    return {
        "id": call_id,
        "name": "run_shell_command",
        "args": {"command": "git push"},
        "status": "cancelled",
        "timestamp": "2025-11-07T00:05:53.970Z",
        "result": [
            {"functionResponse": {"id": call_id, "name": "run_shell_command", "response": {"error": error}}}
        ],
    }


def test_a_session_refusal_is_denied_in_both_wordings(tmp_path):
    session = {
        "sessionId": "7e0d8100-0000-4000-8000-000000000001",
        "projectHash": "95ab8478",
        "startTime": "2025-11-07T00:05:00.000Z",
        "lastUpdated": "2025-11-07T00:06:00.000Z",
        "messages": [
            {"id": "m1", "timestamp": "2025-11-07T00:05:10.000Z", "type": "user", "content": "push it"},
            {
                "id": "m2",
                "timestamp": "2025-11-07T00:05:53.970Z",
                "type": "gemini",
                "content": "",
                "toolCalls": [tool_call("old-1", OLD), tool_call("new-1", NEW), tool_call("stop-1", STOPPED)],
            },
        ],
    }
    path = tmp_path / "session-2025-11-07T00-05-7e0d8100.json"
    path.write_text(json.dumps(session))
    assert outcomes(path) == {"old-1": Outcome.DENIED, "new-1": Outcome.DENIED, "stop-1": Outcome.CANCELED}


@pytest.mark.parametrize(("error", "expected"), [(OLD, Outcome.DENIED), (STOPPED, Outcome.CANCELED)])
def test_a_saved_chat_refusal_is_denied(tmp_path, error, expected):
    """``/chat save`` (checkpoint-<tag>.json): the refusal is the functionResponse at the call's place."""
    chat = [
        {"role": "user", "parts": [{"text": "push it"}]},
        {
            "role": "model",
            "parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": "git push"}}}],
        },
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "run_shell_command", "response": {"error": error}}}],
        },
    ]
    path = tmp_path / "checkpoint-InskapeNotes.json"
    path.write_text(json.dumps(chat))
    assert list(outcomes(path).values()) == [expected]
