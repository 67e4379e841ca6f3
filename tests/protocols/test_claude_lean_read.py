"""The lean reading ``dump --json`` uses (payloads kept, no detail built but a saved output's place) writes
every call as the full reading does: real sessions of every format, and Claude Code's saved outputs."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_claude_saved_outputs_json import session

from inspector.calljson import call_json_text
from inspector.model import CallStore
from inspector.model.details import PersistedDetail
from inspector.sources.files import load
from inspector.sources.session import with_saved_outputs

REAL = Path(__file__).resolve().parents[1] / "fixtures" / "real"
FILES = sorted(p for p in REAL.rglob("*") if p.suffix in (".jsonl", ".json") and "subagents" not in p.parts)


def dumped(path: Path, lean: bool) -> tuple[list[str], CallStore]:
    store = CallStore(keep_payloads=True)
    load([str(path)], store, lean=lean)
    store.clock = store.end_clock()
    now = store.clock.now()
    lines = [call_json_text(c, now, c.request, with_saved_outputs(c.results)) for c in store.all_calls()]
    return lines, store


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name[:16]}")
def test_a_lean_read_dumps_what_a_full_one_does(path):
    lean, _ = dumped(path, lean=True)
    full, _ = dumped(path, lean=False)
    assert lean == full


def test_a_lean_read_keeps_the_saved_outputs_and_builds_no_other_detail(tmp_path):
    path, _, _ = session(tmp_path)
    lean, store = dumped(path, lean=True)
    full, _ = dumped(path, lean=False)
    assert lean == full
    assert any("test 4999 passed" in line for line in lean)  # the saved file's end, not the preview
    assert any("renderer.py:2999: def render_2999" in line for line in lean)
    details = [r.details for c in store.all_calls() for r in c.results if r.details is not None]
    assert len(details) == 3 and all(isinstance(d, PersistedDetail) for d in details)
    assert all(d.inner is None for d in details)
