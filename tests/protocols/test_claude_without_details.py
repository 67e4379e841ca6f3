"""A Claude Code read without result details (what a store that drops payloads asks for) yields the same
events as a full read, details aside: the same calls, outcomes, times and has_diff, for every kind of
toolUseResult, hostile patch shapes, and every transcript of the shared corpus."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from claude_records_factory import call

from inspector import protocols
from inspector.model import CallStore, Result
from inspector.protocols import claude
from inspector.sources.files import open_paths, read_into
from inspector.sources.session import hydrate

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / ".." / "shared" / "corpus" / "claude"
CORPUS_FILES = sorted(CORPUS.rglob("*.jsonl")) if CORPUS.is_dir() else []

PATCHES: list[Any] = [
    [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-a", "+b"]}],
    [{"oldStart": "x" * 30, "oldLines": 10**40, "newStart": -1, "newLines": None, "lines": [" a", 5]}],
    [{"lines": []}],
    [{"lines": "not a list"}],
    ["not a hunk", 7, None],
    [],
    "not a list",
    None,
]


def structured_kinds() -> list[tuple[str, Any]]:
    kinds: list[tuple[str, Any]] = [("Edit", {"filePath": "a.py", "structuredPatch": p}) for p in PATCHES]
    kinds += [
        ("Write", {"type": "create", "filePath": "b.py", "content": "x", "structuredPatch": []}),
        ("Write", {"filePath": "c.py"}),
        ("Read", {"type": "text", "file": {"filePath": "a.py", "content": "x", "numLines": 1}}),
        ("Bash", {"stdout": "out", "stderr": "", "interrupted": False}),
        ("Bash", {"stdout": "", "persistedOutputPath": "/x/tool-results/big.txt", "persistedOutputSize": 9}),
        ("TodoWrite", {"oldTodos": [], "newTodos": [{"content": "t", "status": "done"}]}),
        ("Glob", {"filenames": ["a"], "numFiles": 1}),
        ("Task", {"agentId": "a1", "status": "completed", "content": [{"type": "text", "text": "r"}]}),
        ("Other", "a string result"),
        ("Other", [{"type": "text", "text": "blocks"}]),
        ("Other", 12345678901234567890123),
        ("Other", {"message": "done"}),
    ]
    return kinds


def without_details(event: Any) -> Any:
    if isinstance(event, Result):
        return dataclasses.replace(event, details=None)
    return event


def compare(path: Path) -> int:
    full = [without_details(event) for event in claude.read(str(path))]
    lean = list(claude.read(str(path), details=False))
    assert all(event.details is None for event in lean if isinstance(event, Result))
    assert lean == full
    return sum(1 for event in lean if isinstance(event, Result) and event.has_diff)


def test_every_kind_of_result_reads_the_same_without_details(tmp_path: Path) -> None:
    records = []
    for index, (tool, structured) in enumerate(structured_kinds()):
        records += call(f"toolu_{index}", tool, {"file_path": "a.py"}, "ok", structured)
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert compare(path) == 3  # the patches holding a hunk (an object with a list of lines, numbered or not)


def test_a_store_that_drops_payloads_reads_without_details_and_hydrates_them(tmp_path: Path) -> None:
    records = call(
        "toolu_1", "Edit", {"file_path": "a.py"}, "ok", {"filePath": "a.py", "structuredPatch": PATCHES[0]}
    )
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    seen: list[bool] = []
    original = protocols.readers

    def spy(files: Any, *, details: bool = True) -> Any:
        seen.append(details)
        return original(files, details=details)

    for keep in (True, False):
        store = CallStore(keep_payloads=keep)
        protocols.readers = spy  # type: ignore[assignment]
        try:
            read_into(store, open_paths([str(path)]))
        finally:
            protocols.readers = original  # type: ignore[assignment]
        (found,) = store.all_calls()
        assert found.results[0].has_diff
        _, results = hydrate(found)
        assert results[0].details is not None and results[0].details.hunks
    assert seen == [True, False]


@pytest.mark.skipif(not CORPUS_FILES, reason="../shared/corpus/claude is not present")
def test_every_corpus_transcript_reads_the_same_without_details() -> None:
    diffs = sum(compare(path) for path in CORPUS_FILES)
    assert diffs > 0
