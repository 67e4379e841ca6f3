"""Following a growing Codex rollout (issue 11): appended in pieces, cut mid-line, it ends as reading it whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from inspector.model import CallStore
from inspector.protocols import codex
from inspector.sources.tail import FileTail, decode_lines

CODEX = Path(__file__).resolve().parents[2] / ".." / "shared" / "corpus" / "codex"
FILES = sorted(CODEX.glob("*.jsonl")) if CODEX.is_dir() else []


def calls_of(store: CallStore) -> list[tuple]:
    return sorted(
        (
            c.call_id,
            c.tool,
            c.state().value,
            len(c.results),
            c.result.has_diff if c.result else None,
            c.result.error_code if c.result else None,
        )
        for c in store.all_calls()
    )


@pytest.mark.skipif(not FILES, reason="../shared/corpus/codex is not present")
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name[:40])
def test_a_rollout_followed_as_it_grows_ends_as_it_reads_whole(tmp_path, path):
    data = path.read_bytes()
    whole = CallStore()
    for event in codex.read(str(path)):
        whole.ingest(event)

    grown = tmp_path / "rollout-growing.jsonl"
    lines = data.splitlines(keepends=True)
    first = len(lines) // 5  # the file as the follow starts: a fifth of its lines
    grown.write_bytes(b"".join(lines[:first]))
    store = CallStore()
    for event in codex.read(str(grown)):
        store.ingest(event)
    tail = FileTail.at_end(str(grown))
    rest = b"".join(lines[first:])
    # pieces of uneven size: most cut a line in two, which the next piece completes
    cuts = sorted({len(rest) * k // 7 + 13 * k for k in range(1, 7)} | {len(rest)})
    start = 0
    for cut in cuts:
        with grown.open("ab") as fh:
            fh.write(rest[start:cut])
        start = cut
        while True:
            chunk = tail.read()
            for event in decode_lines(codex.FORMAT, chunk.lines, chunk.first_line, str(grown), chunk.offset):
                store.ingest(event)
            if not chunk.more:
                break
    assert store.malformed == []
    assert calls_of(store) == calls_of(whole)
    assert store.call_count == whole.call_count and len(store.orphans) == len(whole.orphans)
