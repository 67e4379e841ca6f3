"""The app on hostile files (issue 9 items 1, 3 and 7): opens them, copies with a cap, exports them."""

from __future__ import annotations

import json

from hostile_io import alicia_request, alicia_result, jsonl
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
