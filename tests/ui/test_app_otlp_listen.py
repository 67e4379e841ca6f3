"""``otlp-listen`` in the app: a flood of 10,000 spans from the OpenTelemetry SDK's exporter into the
receiver while keys are pressed: the keys take effect, no call is lost, and the status bar says where
it listens; an export failure (``--otlp``) shows in the status bar."""

from __future__ import annotations

import asyncio

import pytest
from screen_text import screen_text, settle, wait_for
from ui_factories import SIZE, make_app

pytest.importorskip("opentelemetry.sdk", reason="the otlp extra is not installed")

from inspector.live.otlp_out import SpanOptions, send, store_spans  # noqa: E402
from inspector.model import CallStore, Outcome, Request, Result  # noqa: E402
from inspector.sources.otlp_receiver import OtlpSource  # noqa: E402
from inspector.ui.widgets.call_list import CallList  # noqa: E402

COUNT = 10_000


def flood_spans():  # type: ignore[no-untyped-def]
    sent = CallStore()
    for index in range(COUNT):
        call_id = f"flood-{index:05d}"
        sent.ingest(Request(call_id, f"tool_{index % 7}", group="flood", ts=1_764_000_000 + index / 100))
        sent.ingest(Result(call_id, Outcome.SUCCESS, group="flood", ts=1_764_000_000 + index / 100 + 0.005))
    sent.clock = sent.end_clock()
    return store_spans(sent, SpanOptions())


async def test_a_flood_of_10000_spans_loses_none_and_the_keys_keep_working() -> None:
    spans = flood_spans()
    store = CallStore()
    source = OtlpSource(store, port=0)
    app = make_app(store, source=source, label="otlp")
    async with app.run_test(size=SIZE) as pilot:
        assert await wait_for(pilot, lambda: source.state.detail.startswith("listening"), 30)
        assert "listening on http://127.0.0.1:" in screen_text(app)  # the status bar
        flood = asyncio.get_running_loop().run_in_executor(None, send, spans, source.url)
        assert await wait_for(pilot, lambda: store.call_count > 0, 60)
        calls = app.screen.query_one(CallList)
        await pilot.press("g")  # to the top, while the rest of the flood comes in
        assert await wait_for(
            pilot, lambda: calls.item is not None and calls.item.call_id == "flood-00000", 60
        )
        await pilot.press("j", "j")
        assert await wait_for(
            pilot, lambda: calls.item is not None and calls.item.call_id == "flood-00002", 60
        )
        assert await flood == COUNT + 1
        assert await wait_for(pilot, lambda: store.call_count == COUNT, 120)
        await settle(pilot)
        assert len(calls.view.items) == COUNT  # every call is in the list
        assert not store.malformed and source.refused == 0
        source.report_export(
            "OTLP export to http://127.0.0.1:9/v1/traces failed: [Errno 111] Connection refused"
        )
        assert await wait_for(pilot, lambda: "export to http://127.0.0.1:9" in screen_text(app), 30)
