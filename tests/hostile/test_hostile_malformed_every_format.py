"""A flood of malformed lines in every JSON Lines format (not JSON, JSON of another shape, cut short):
each line is counted, the first ``MALFORMED_KEPT`` are kept whole in order with the reason and place the
line alone gets, the rest are reachable under one row per kind that says how many it stands for, no
call around them is lost, and a reader holds no object per line until its end (Gemini CLI's reader held
every malformed line to the end: 400-900 MB for a million)."""

from __future__ import annotations

import json
import tracemalloc
from pathlib import Path

import hostile_gen as gen
import pytest
from hostile_io import run_cli

from inspector.model import CallStore
from inspector.model.store import MALFORMED_KEPT
from inspector.sources.files import load

KINDS = ["claude", "codex", "gemini", "rap", "lmkit", "otlp", "alicia-json", "recording"]
BAD = [b"not json %d", b'"a string %d"', b"%d", b'{"type": "user", "message": {"role": "us%d']
ALICIA_BAD = [b"not json %d", b'"a string %d"', b'{"type": "user", "message": {"role": "us%d']  # digits: hex


def _bad(kind: str) -> list[bytes]:
    return ALICIA_BAD if kind == "alicia-json" else BAD


def _flood(tmp_path: Path, kind: str, count: int) -> tuple[Path, set[str]]:
    good, base = gen.good_file(tmp_path, kind)
    first, rest = good.read_bytes().split(b"\n", 1)
    path = tmp_path / f"flood-{kind}.jsonl"
    with path.open("wb") as fh:
        fh.write(first + b"\n")
        bad = _bad(kind)
        fh.write(b"".join(bad[n % len(bad)] % n + b"\n" for n in range(count)))
        fh.write(rest)
    return path, {call_id for call_id, _ in base if call_id}


def _alone(tmp_path: Path, kind: str, line: bytes) -> str:
    """The reason one malformed line gets in a file of its own (after the format's first line)."""
    good, _ = gen.good_file(tmp_path, kind)
    path = tmp_path / f"alone-{kind}.jsonl"
    path.write_bytes(good.read_bytes().split(b"\n", 1)[0] + b"\n" + line + b"\n")
    store = CallStore()
    load([str(path)], store, gen.format_of(kind))
    assert store.malformed_count == 1
    return store.malformed[0].reason


@pytest.mark.parametrize("kind", KINDS)
def test_every_malformed_line_is_counted_the_first_said_and_the_rest_reachable(tmp_path, kind):
    count = MALFORMED_KEPT + 400
    path, ids = _flood(tmp_path, kind, count)
    store = CallStore()
    load([str(path)], store, gen.format_of(kind))
    assert store.malformed_count == count
    assert {call.call_id for call in store.all_calls()} >= ids
    kept = store.malformed[:MALFORMED_KEPT]
    assert [row.where for row in kept] == [f"line {n + 2}" for n in range(MALFORMED_KEPT)]
    for n, line in enumerate(_bad(kind)):  # each kind's reason as the line alone gets it
        assert kept[n].reason == _alone(tmp_path, kind, line % n), (kind, n)
    rows = store.malformed[MALFORMED_KEPT:]
    assert sum(store.malformed_weight(row) for row in store.malformed) == count
    assert rows and all(row.reason.endswith("more malformed lines like this)") for row in rows)
    code, out, _ = run_cli("stats", "--json", "--format", gen.format_of(kind), str(path))
    assert json.loads(out)["malformed"] == count and code == 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_cut_line_is_told_by_its_own_column_not_its_line_end(tmp_path, kind):
    reason = _alone(tmp_path, kind, b'{"type": "user", "n": 1')
    if kind != "alicia-json":  # Alicia says what a line is not (neither an envelope nor hex)
        assert reason.startswith("not JSON: ") and reason.endswith("(column 24)"), reason


@pytest.mark.parametrize("kind", KINDS)
def test_a_flood_is_not_held_line_by_line_until_the_end(tmp_path, kind):
    path, _ = _flood(tmp_path, kind, 40_000)
    store = CallStore(keep_payloads=False)
    tracemalloc.start()
    try:
        load([str(path)], store, gen.format_of(kind))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert store.malformed_count == 40_000
    assert peak < 12 * 1024 * 1024, (kind, peak)  # Gemini's and OTLP's readers held them all: 20, 14 MB
