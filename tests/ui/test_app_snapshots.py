"""Snapshots of the screens people see, at a fixed size, a fake clock, UTC, two themes, no cursor blink.

Update them with ``pytest tests/ui/test_app_snapshots.py --snapshot-update`` after a deliberate change.
"""

from __future__ import annotations

import time

import pytest
from ui_factories import kinds_store, make_app, sample_store

from inspector.model import Call
from inspector.ui.options import UiOptions
from inspector.ui.widgets.call_list import CallList

SNAP_SIZE = (110, 32)


@pytest.fixture(autouse=True)
def utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def select(call_id: str, open_detail: bool = False):
    async def run_before(pilot) -> None:
        await pilot.pause()
        app = pilot.app
        for widget in app.screen.query("Input"):
            widget.cursor_blink = False
        call_list = app.screen.query_one(CallList)
        view = call_list.view
        index = next(
            i for i, item in enumerate(view.items) if isinstance(item, Call) and item.call_id == call_id
        )
        call_list.move_to(index)
        await pilot.pause()
        if open_detail:
            await pilot.press("enter")
            await pilot.pause()

    return run_before


def theme(name: str) -> UiOptions:
    return UiOptions(theme_dirs=[], theme=name)


def test_main_screen_dark(snap_compare):
    assert snap_compare(make_app(sample_store()), terminal_size=SNAP_SIZE, run_before=select("fail1"))


def test_main_screen_light(snap_compare):
    app = make_app(sample_store(), options=theme("light"))
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=select("wait1"))


def test_filter_in_use(snap_compare):
    async def run_before(pilot) -> None:
        await pilot.pause()
        for widget in pilot.app.screen.query("Input"):
            widget.cursor_blink = False
        await pilot.press("slash", *"state:failed,timeout,orphan")
        await pilot.pause(0.3)

    assert snap_compare(make_app(sample_store()), terminal_size=SNAP_SIZE, run_before=run_before)


def test_help_screen(snap_compare):
    assert snap_compare(
        make_app(sample_store(), options=theme("high-contrast")),
        terminal_size=SNAP_SIZE,
        press=["question_mark"],
    )


def test_diff_view_light(snap_compare):
    app = make_app(kinds_store(), options=theme("light"))
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=select("edit1", open_detail=True))


@pytest.mark.parametrize("call_id", ["bash1", "read1", "todo1", "fetch1", "task9", "rap1", "err1"])
def test_detail_per_result_kind(snap_compare, call_id):
    app = make_app(kinds_store())
    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=select(call_id, open_detail=True))


def test_answer_screen(snap_compare):
    from test_app_live import live_app, shown
    from test_app_live import request as live_request

    app, source, _ = live_app()

    async def run_before(pilot) -> None:
        await pilot.pause()
        source.receive(live_request("t1"), participant="agent", topic="alicia")
        await shown(pilot, pilot.app, "t1")  # a live list repaints on a throttling timer
        await pilot.press("a")
        await pilot.pause()
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False
        pilot.app.screen.query_one("#answer-result").text = '{"content": "Buy basil"}'
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=SNAP_SIZE, run_before=run_before)
