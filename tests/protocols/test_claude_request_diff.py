"""Claude Code file changes whose result carries no structuredPatch: the diff comes from the request."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from claude_records_factory import call, write
from rich.console import Console

from inspector.model import CallStore
from inspector.model.diff import hunks_from_texts
from inspector.model.stats import session_stats
from inspector.sources.files import load
from inspector.sources.session import hydrate
from inspector.ui.render import RenderTheme, render_call

THEME = RenderTheme.dark()


def text_of(renderable, width: int) -> str:
    console = Console(width=width, record=True, file=io.StringIO(), soft_wrap=False)
    console.print(renderable)
    return console.export_text()


CORPUS_SESSION = (
    Path(__file__).resolve().parents[2]
    / ".."
    / "shared/corpus/claude/daaain-real_projects/-experiments-worktrees"
    / "ef958aa1-0e93-49f0-bb71-150f63befcd1.jsonl"
)


def shown(store: CallStore, call_id: str, width: int = 120) -> str:
    [found] = [c for c in store.all_calls() if c.call_id == call_id]
    request, results = hydrate(found)
    return text_of(render_call(found, request, results, width=width, theme=THEME, now=None), width)


def session(tmp_path, keep_payloads=True):
    records = [
        *call(
            "e1",
            "Edit",
            {"file_path": "/w/a.py", "old_string": "x = 1\ny = 2\n", "new_string": "x = 1\ny = 3\n"},
            "The file /w/a.py has been updated successfully.",
        ),
        *call(
            "w1",
            "Write",
            {"file_path": "/w/new.md", "content": "# Title\nbody\n"},
            "File created successfully at: /w/new.md",
        ),
        *call(
            "m1",
            "MultiEdit",
            {
                "file_path": "/w/b.py",
                "edits": [
                    {"old_string": "a", "new_string": "b"},
                    {"old_string": "c\nd", "new_string": "c\nD\ne"},
                ],
            },
            "Applied 2 edits",
        ),
        *call(
            "bad",
            "Edit",
            {"file_path": "/w/a.py", "old_string": "q", "new_string": "r"},
            "String to replace not found in file.",
            is_error=True,
        ),
        *call("same", "Edit", {"file_path": "/w/a.py", "old_string": "q", "new_string": "q"}, "no change"),
        *call(
            "sp",
            "Edit",
            {"file_path": "/w/c.py", "old_string": "o", "new_string": "n"},
            "ok",
            structured={
                "filePath": "/w/c.py",
                "oldString": "o",
                "newString": "n",
                "structuredPatch": [
                    {"oldStart": 40, "oldLines": 1, "newStart": 40, "newLines": 1, "lines": ["-o", "+n"]}
                ],
            },
        ),
    ]
    store = CallStore(keep_payloads=keep_payloads)
    load([str(write(tmp_path / "s.jsonl", records))], store=store)
    return store


@pytest.mark.parametrize("keep_payloads", [True, False])
def test_edits_and_writes_without_a_patch_are_counted_and_shown_as_diffs_from_the_request(
    tmp_path, keep_payloads
):
    store = session(tmp_path, keep_payloads)
    diffs = {c.call_id for c in store.all_calls() if c.has_diff}
    assert diffs == {"e1", "w1", "m1", "sp"}  # not the failed edit, not the edit that changes nothing
    assert session_stats(store)["with_diff"] == 4

    edit = shown(store, "e1")
    assert "diff computed from the request (the result carries none)" in edit
    assert "-y=2" in edit.replace(" ", "") and "+y=3" in edit.replace(" ", "")
    write_ = shown(store, "w1")
    assert "create · diff computed from the request" in write_
    assert "+#Title" in write_.replace(" ", "") and "+body" in write_.replace(" ", "")
    multi = shown(store, "m1")
    assert (
        "+D" in multi.replace(" ", "") and "+e" in multi.replace(" ", "") and "+b" in multi.replace(" ", "")
    )
    assert "computed from the request" not in shown(store, "sp")  # its own structuredPatch is shown
    assert "computed from the request" not in shown(store, "bad")  # a failed edit changed nothing


def test_hunks_from_texts_number_the_lines_and_keep_context():
    old = "".join(f"line {n}\n" for n in range(1, 21))
    new = old.replace("line 10\n", "line ten\n")
    [hunk] = hunks_from_texts(old, new)
    assert (hunk.old_start, hunk.old_lines, hunk.new_start, hunk.new_lines) == (7, 7, 7, 7)
    assert [(line.kind, line.text) for line in hunk.lines if line.kind != " "] == [
        ("-", "line 10"),
        ("+", "line ten"),
    ]
    assert hunks_from_texts("same", "same") == []
    [created] = hunks_from_texts("", "a\nb")
    assert (created.old_lines, created.new_start, created.new_lines) == (0, 1, 2)


@pytest.mark.skipif(not CORPUS_SESSION.is_file(), reason="../shared/corpus/claude is not present")
def test_the_corpus_subagent_edits_and_writes_have_diffs():
    store = CallStore()
    load([str(CORPUS_SESSION)], store=store)
    changes = [c for c in store.all_calls() if c.tool in ("Edit", "Write")]
    assert len(changes) == 14 and all(c.result is not None and c.result.details is None for c in changes)
    assert session_stats(store)["with_diff"] == 14
    for found in changes:
        request, results = hydrate(found)
        text = text_of(render_call(found, request, results, width=120, theme=THEME, now=None), 120)
        assert "computed from the request" in text and "@@" in text
