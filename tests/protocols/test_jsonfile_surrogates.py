"""Lone surrogates in the items of a JSON document (a top-level array, a Gemini session's messages)."""

from __future__ import annotations

import json

import inspector.protocols.common.jsonfile as _jsonfile
from inspector.model.events import Request
from inspector.protocols import gemini


def test_array_items_lose_lone_surrogates_and_keep_everything_else(tmp_path):
    items = [
        {"k": "plain", "n": [1, {"deep": "é"}]},
        {"\ud800key": ["a\udc00b", {"x": "\udfff"}]},
        {"text": "a backslash then u d800, not an escape: \\ud800"},
    ]
    path = tmp_path / "doc.json"
    path.write_text(json.dumps(items, indent=2, ensure_ascii=True), encoding="utf-8")
    values = [chunk.value for chunk in _jsonfile.read_chunks(str(path))]
    assert values[0] == items[0] and values[2] == items[2]
    assert values[1] == {"\ufffdkey": ["a\ufffdb", {"x": "\ufffd"}]}
    for value in values:
        json.dumps(value).encode("utf-8")  # every string encodes


def test_gemini_document_message_with_a_lone_surrogate(tmp_path):
    call = {"id": "c1", "name": "run_shell_command", "args": {"command": "echo \ud800"}, "status": "success"}
    document = {
        "sessionId": "s",
        "projectHash": "p" * 64,
        "startTime": "2026-01-02T02:34:36.986Z",
        "messages": [
            {"id": "m1", "timestamp": "2026-01-02T02:34:37.000Z", "type": "user", "content": "hi"},
            {
                "id": "m2",
                "timestamp": "2026-01-02T02:34:38.000Z",
                "type": "gemini",
                "content": "",
                "toolCalls": [call],
            },
        ],
    }
    path = tmp_path / "session-1.json"
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    requests = [event for event in gemini.read(str(path)) if isinstance(event, Request)]
    assert [request.params for request in requests] == [{"command": "echo \ufffd"}]
