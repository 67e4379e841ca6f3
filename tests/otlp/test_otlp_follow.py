"""A followed OTLP file nests a subagent's spans across lines as the file read at once does (issue 26):
the lines appended are decoded by the decoder that read the lines before them, so a child exported
before its parent is adopted when the parent's line comes."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import CallStore
from inspector.protocols import otlp
from inspector.sources.tail import FileTail, decode_lines

TRACES = Path(__file__).resolve().parents[1] / "fixtures" / "otlp" / "claude_code_traces.jsonl"


def tree(store: CallStore) -> set[tuple[str, str | None, str]]:
    now = store.end_clock().now()
    return {
        (call.call_id, call.parent.call_id if call.parent else None, call.state(now).value)
        for call in store.all_calls()
    }


def read_whole(path: Path) -> CallStore:
    store = CallStore()
    for event in otlp.read(str(path)):
        store.ingest(event)
    return store


@pytest.mark.parametrize("first", [0, 1, 2])
def test_a_followed_file_nests_as_the_file_read_at_once(tmp_path: Path, first: int) -> None:
    lines = TRACES.read_bytes().splitlines(keepends=True)
    whole = read_whole(TRACES)
    assert ("toolu_sub_grep", "toolu_agent", "succeeded") in tree(whole)

    path = tmp_path / "traces.jsonl"
    path.write_bytes(b"".join(lines[:first]))  # the file as following starts
    store = read_whole(path) if first else CallStore()
    tail = FileTail.at_end(str(path))
    for line in lines[first:]:  # the exporter appends a line per batch
        with path.open("ab") as fh:
            fh.write(line)
        chunk = tail.read()
        for event in decode_lines(otlp.FORMAT, chunk.lines, chunk.first_line, str(path), chunk.offset):
            store.ingest(event)
    assert store.malformed == []
    assert tree(store) == tree(whole)
    assert [item.call_id for item in store.items] == [
        "toolu_read",
        "toolu_bash",
        "toolu_write",
        "toolu_agent",
    ]


def test_a_file_started_again_forgets_the_spans_of_the_old_one(tmp_path: Path) -> None:
    """Line 1 is a new file (or the old one rewritten): its spans are not taken for the old file's."""
    lines = TRACES.read_bytes().splitlines(keepends=True)
    path = tmp_path / "traces.jsonl"
    path.write_bytes(b"".join(lines))
    read_whole(path)
    store = CallStore()
    raw_line = lines[1]  # the subagent's span alone, as the first line of a new file: no parent known
    for event in decode_lines(otlp.FORMAT, [raw_line], 1, str(path), 0):
        store.ingest(event)
    assert {(c.call_id, c.parent) for c in store.all_calls()} == {("toolu_sub_grep", None)}
