"""A call of a store that dropped its payloads, hydrated (the detail, the export, a search, OTLP content):
only the payloads come from its records read again, one line at a time; its times, outcomes, diffs and
violations stay what the read of the whole session made of them, as a store that kept them has them."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import CallStore
from inspector.protocols import alicia, recording
from inspector.sources.files import load
from inspector.sources.session import hydrate

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
FILES = [
    REAL
    / "fabien-lessirard_dotfiles"
    / "session-2026-01-24T18-48-36d4e89a.json",  # Gemini: results' own times
    REAL
    / "EdofEngland_code_butler"
    / "rollout-2025-11-24T13-02-00-019ab73e-8c11-7ad2-b604-5987891db560.jsonl",
    REAL / "Xu-Wentao_dotfile" / "rollout-2026-04-08T22-02-46-019d6d67-1952-7e83-93ef-94497e3c15b6.jsonl",
    REAL / "fabien-lessirard_dotfiles" / "0d783c0d-6315-4770-aa90-8e59abd50388.jsonl",  # Claude Code edits
]


def read(path: Path, keep: bool) -> list:
    store = CallStore(keep_payloads=keep)
    load([str(path)], store)
    return list(store.all_calls())


def said(request, results) -> tuple:
    return (
        request.ts,
        request.violation,
        request.summary,
        [(r.ts, r.outcome, r.has_diff, r.error_code, r.error_message, r.answered_by) for r in results],
    )


def duplicate_request(tmp_path: Path) -> Path:
    path = tmp_path / "twice.jsonl"
    with recording.RecordingWriter(str(path), {"room": "t"}) as rec:
        for stanza, ts in ((-1, 10.0), (-2, 10.5)):
            body = {"id": "a", "toolName": "calc", "execution": "client", "parameters": {"x": stanza}}
            rec.write(
                "in", alicia.encode_envelope(type_=6, body=body, conversation_id="c", stanza_id=stanza), ts=ts
            )
    return path


@pytest.mark.parametrize("name", [*range(len(FILES)), "duplicate"], ids=str)
def test_a_hydrated_call_says_what_the_read_said(name, tmp_path):
    path = duplicate_request(tmp_path) if name == "duplicate" else FILES[name]
    kept = read(path, keep=True)
    dropped = read(path, keep=False)
    assert len(kept) == len(dropped) > 0
    for full, lean in zip(kept, dropped, strict=True):
        request, results = hydrate(lean)
        assert said(request, results) == said(full.request, full.results), full.call_id
        assert request.params == full.request.params, full.call_id
    if name == "duplicate":
        assert "duplicate request id" in (hydrate(dropped[1])[0].violation or "")
