"""A million malformed lines (issue 25: 6-15 s and 270-380 MB in the app and stats): every count stays
exact, but only the first ``MALFORMED_KEPT`` records are kept whole; later ones are counted under one row
per kind, which says '… and N more malformed lines like this'."""

from __future__ import annotations

import json
import tracemalloc

import hostile_gen as gen
from hostile_io import run_cli

from inspector.model import CallStore
from inspector.model.events import Malformed, RawRef
from inspector.model.store import MALFORMED_KEPT, MALFORMED_KINDS
from inspector.sources.files import load


def _bad(number: int, reason: str, source: str = "f") -> Malformed:
    return Malformed(f"line {number}", reason, source, RawRef(source, number, number * 10, 10))


def test_past_the_kept_records_each_kind_is_one_row_with_an_exact_count():
    store = CallStore()
    total = MALFORMED_KEPT + 5000
    for number in range(total):
        store.ingest(_bad(number, "not JSON" if number % 3 else "not an object"))
    assert store.malformed_count == total
    assert len(store.malformed) == MALFORMED_KEPT + 2 and len(store.items) == MALFORMED_KEPT + 2
    assert sum(store.malformed_weight(row) for row in store.malformed) == total
    rows = store.malformed[MALFORMED_KEPT:]
    assert all("more malformed lines like this" in row.reason for row in rows)
    more = sum(int(row.reason.split("and ")[1].split(" more")[0]) + 1 for row in rows)
    assert more == 5000


def test_kinds_past_their_bound_share_one_row_per_source():
    store = CallStore()
    total = MALFORMED_KEPT + 3 * MALFORMED_KINDS
    for number in range(total):
        store.ingest(_bad(number, f"reason {number}"))
    assert store.malformed_count == total
    assert len(store.malformed) == MALFORMED_KEPT + MALFORMED_KINDS + 1
    assert "of other kinds (… and" in store.malformed[-1].reason


def test_a_withdrawn_record_comes_off_its_rows_count():
    store = CallStore()
    for number in range(MALFORMED_KEPT + 3):
        store.ingest(_bad(number, "not JSON"))
    torn = _bad(MALFORMED_KEPT + 3, "not JSON")
    store.ingest(torn)
    store.withdraw([torn])
    assert store.malformed_count == MALFORMED_KEPT + 3
    assert store.malformed[-1].reason.endswith("(… and 2 more malformed lines like this)")
    lone = _bad(10**6, "cut short")
    store.ingest(lone)
    store.withdraw([lone])
    assert store.malformed_count == MALFORMED_KEPT + 3 and len(store.malformed) == MALFORMED_KEPT + 1


def _flooded(tmp_path, bad_lines: int):
    good, base = gen.good_file(tmp_path, "claude")
    lines = good.read_bytes().splitlines()
    path = tmp_path / "flood.jsonl"
    with path.open("wb") as fh:
        fh.write(lines[0] + b"\n")
        fh.write(b"".join(b"not json %d\n" % n for n in range(bad_lines)))
        fh.write(b"\n".join(lines[1:]) + b"\n")
    return path, {call_id for call_id, _ in base if call_id}


def test_a_flood_of_bad_lines_keeps_no_object_per_line_and_hides_no_call(tmp_path):
    path, ids = _flooded(tmp_path, 100_000)
    store = CallStore(keep_payloads=False)
    tracemalloc.start()
    try:
        load([str(path)], store, None)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert store.malformed_count == 100_000
    assert {call.call_id for call in store.all_calls()} == ids
    assert peak < 20 * 1024 * 1024, peak  # it was 36 MB for these lines: an object each, kept to the end


def test_stats_and_check_count_every_bad_line_and_list_the_kept_ones(tmp_path):
    path, _ = _flooded(tmp_path, 20_000)
    code, out, _ = run_cli("stats", "--json", str(path))
    assert code == 1 and json.loads(out)["malformed"] == 20_000
    code, out, err = run_cli("check", str(path))
    assert code == 1 and "20000 problem(s)" in err
    listed = out.splitlines()
    assert len(listed) == MALFORMED_KEPT + 1
    assert listed[-1].endswith(f"(… and {20_000 - MALFORMED_KEPT - 1} more malformed lines like this)")
