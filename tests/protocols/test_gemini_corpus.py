"""Every Gemini CLI session of the corpus loads whole, with counts checked against a plain scan of the raw file."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from inspector import protocols
from inspector.model.events import Malformed, Outcome
from inspector.model.store import CallStore

GEMINI = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "gemini"
FILES = sorted(GEMINI.glob("*.json*")) if GEMINI.is_dir() else []


def _messages(path: Path) -> list[dict[str, Any]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        return list(json.loads(text)["messages"])
    latest: dict[str, dict[str, Any]] = {}
    for line in text.splitlines():
        record = json.loads(line)
        if "id" in record:
            latest[record["id"]] = record  # the last record for an id wins
    return list(latest.values())


def _scan(path: Path) -> Counter[str]:
    """Counts from the raw file by hand rules, independently of the parser."""
    counts: Counter[str] = Counter()
    for message in _messages(path):
        for call in message.get("toolCalls") or []:
            counts["calls"] += 1
            blob = json.dumps(call.get("result"))
            code = re.findall(r"Exit Code: (-?\d+)", blob)
            if call["status"] == "cancelled" or "[Operation Cancelled]" in blob:
                counts["denied" if "denied" in blob.lower() else "canceled"] += 1
            elif call["status"] == "error" or (code and code[-1] != "0"):
                counts["failed"] += 1
            display = call.get("resultDisplay")
            if isinstance(display, dict) and re.search(r"\n[+-](?![+-]{2} )", display.get("fileDiff") or ""):
                counts["diff"] += 1
    return counts


@pytest.mark.parametrize("path", FILES, ids=[p.name[:40] for p in FILES])
def test_corpus_file_matches_an_independent_count(path: Path) -> None:
    module = protocols.detect(str(path))
    assert module.name == "gemini"
    events = list(module.read(str(path)))
    assert [e for e in events if isinstance(e, Malformed)] == []
    store = CallStore()
    store.ingest_many(events)
    store.end()
    assert store.orphans == []
    first = [call.results[0] if call.results else None for call in store.all_calls()]
    got = Counter(
        calls=len(first),
        failed=sum(1 for r in first if r is not None and r.outcome is Outcome.ERROR),
        denied=sum(1 for r in first if r is not None and r.outcome is Outcome.DENIED),
        canceled=sum(1 for r in first if r is not None and r.outcome is Outcome.CANCELED),
        unanswered=sum(1 for r in first if r is None),
        diff=sum(1 for r in first if r is not None and r.has_diff),
    )
    assert +got == +_scan(path)


# calls, failed, denied, canceled, with diff (none of these files ends mid-call).
PINNED = {
    "mischa-thisness_M-Gemini__Archives": (27, 10, 0, 1, 0),
    "mischa-thisness_M-Gemini__chat_logs": (78, 12, 0, 1, 0),
    "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-23": (7, 1, 1, 0, 0),
    "wingorithm_Vibe-Coding-Comparison-Project__session-2026-04-25T08-46": (95, 6, 0, 0, 59),
}


@pytest.mark.parametrize("prefix", sorted(PINNED))
def test_pinned_counts(prefix: str) -> None:
    paths = [p for p in FILES if p.name.startswith(prefix)]
    if not paths:
        pytest.skip("corpus not present")
    counts = _scan(paths[0])
    found = (counts["calls"], counts["failed"], counts["denied"], counts["canceled"], counts["diff"])
    assert found == PINNED[prefix]


def test_a_rewritten_message_counts_once_and_a_rewind_drops_what_follows(tmp_path: Path) -> None:
    call = {"id": "c1", "name": "run_shell_command", "args": {"command": "false"}, "status": "success",
            "result": [{"functionResponse": {"id": "c1", "response": {"output": "Output: \nExit Code: 1"}}}]}  # fmt: skip
    lines = [
        {"sessionId": "s", "projectHash": "h", "startTime": "2026-04-25T08:23:24.509Z", "kind": "main"},
        {"id": "m1", "timestamp": "2026-04-25T08:23:25Z", "type": "gemini", "content": "x"},
        {
            "id": "m1",
            "timestamp": "2026-04-25T08:23:25Z",
            "type": "gemini",
            "content": "x",
            "toolCalls": [call],
        },
        {
            "id": "m2",
            "timestamp": "2026-04-25T08:23:26Z",
            "type": "gemini",
            "content": "y",
            "toolCalls": [dict(call, id="c2")],
        },  # fmt: skip
        {"$rewindTo": "m2"},
        {"$set": {"lastUpdated": "2026-04-25T08:23:27Z"}},
    ]
    path = tmp_path / "session-x.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    store = CallStore()
    store.ingest_many(protocols.detect(str(path)).read(str(path)))
    calls = list(store.all_calls())
    assert [c.call_id for c in calls] == ["c1"]
    assert calls[0].results[0].outcome is Outcome.ERROR  # status success, exit code 1 in the text
