"""The app on hostile files (issue 9 items 1, 3 and 7): opens them, copies with a cap, exports them."""

from __future__ import annotations

import json

import hostile_gen as gen
import pytest
from hostile_io import alicia_request, alicia_result, jsonl, read_everything
from ui_factories import SIZE, file_app

from inspector.model import Call
from inspector.ui.export import CLIPBOARD_LIMIT
from inspector.ui.options import UiOptions
from inspector.ui.widgets.call_list import CallList


async def _loaded(pilot, app) -> None:
    for _ in range(200):
        if not app.screen.has_class("-loading"):
            return
        await pilot.pause(0.05)


async def _select(pilot, app, call_id: str) -> None:
    call_list = app.screen.query_one(CallList)
    index = next(
        i for i, item in enumerate(call_list.view.items) if isinstance(item, Call) and item.call_id == call_id
    )
    call_list.move_to(index)
    await pilot.pause()


def _notes(app) -> list[str]:
    return [str(n.message) for n in app._notifications]


async def test_copy_of_a_huge_result_is_capped_and_says_so(tmp_path):
    big = "x" * (CLIPBOARD_LIMIT + 5000)
    path = jsonl(tmp_path / "a.jsonl", [alicia_request("big"), alicia_result("big", result={"out": big})])
    app = file_app([path])
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(pilot, app)
        await _select(pilot, app, "big")
        await pilot.press("y", "down", "down", "enter")  # the result
        await pilot.pause()
        assert len(app.clipboard) == CLIPBOARD_LIMIT
        assert any("first 1,000,000" in note and "export" in note for note in _notes(app))


async def test_lone_surrogates_copy_and_export_and_timeouts_past_floats_open(tmp_path):
    surrogate = json.dumps(alicia_request("s1", parameters={"p": "x"})).replace('"x"', '"\\ud800"')
    records = [surrogate, alicia_result("s1"), alicia_request("t1", timeoutMs=10**400), alicia_result("t1")]
    path = jsonl(tmp_path / "a.jsonl", records)
    app = file_app([path], export_dir=str(tmp_path))
    assert isinstance(app.options, UiOptions)
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(pilot, app)
        await _select(pilot, app, "s1")
        await pilot.press("y", "down", "enter")  # the parameters
        await pilot.pause()
        assert json.loads(app.clipboard) == {"p": "\ufffd"}
        await pilot.press("x", "enter")  # the call as JSON
        await pilot.pause()
        [written] = list(tmp_path.glob("inspector-call-*.json"))
        assert json.loads(written.read_text())[0]["params"] == {"p": "\ufffd"}
        await _select(pilot, app, "t1")
        await pilot.press("enter")
        await pilot.pause()


@pytest.mark.parametrize("kind", sorted(gen.BASES))
async def test_generated_hostile_files_open_and_every_row_shows(tmp_path, kind):
    """One file per class of hostile input, opened together; every row is visited with its detail and
    raw view. A crash would end the app (run_test raises); the good calls are listed."""
    base = gen.BASES[kind][1]()
    request_paths = gen.paths_of(base[0][1])
    result_paths = gen.paths_of(base[1][1])
    files = []
    for number, value in enumerate([10**400, 1e308, "\ud800", "\x1b[2J\u202e", [], gen.DEEP_MARK]):
        for index, paths in ((0, request_paths), (1, result_paths)):
            path = paths[(number * 5) % len(paths)]
            files.append(gen.write_mutated(tmp_path, kind, base, index, path, value, f"c{number}-{index}"))
    files += gen.truncations(tmp_path, kind, step=max(1, len(gen._jsonl([r for _, r in base])) // 3))[1:]
    if kind in ("alicia-msgpack", "alicia-hex", "recording"):
        files += [path for k, path in gen.huge_length_files(tmp_path) if k == kind][:3]
    # a file the command line refuses (exit 2, one line, before the app starts) is not opened here
    files = [path for path in files if read_everything(str(path), gen.FORCED.get(kind)) != -1]
    app = file_app(files, format=gen.FORCED.get(kind))
    async with app.run_test(size=SIZE) as pilot:
        await _loaded(pilot, app)
        call_list = app.screen.query_one(CallList)
        rows = len(call_list.view.items)
        assert rows >= 3
        for _ in range(min(rows, 15)):
            await pilot.press("j", "enter", "r", "r")
        await pilot.pause()
