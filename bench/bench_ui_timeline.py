"""Timeline frame times at 1,000 and 100,000 calls, against the call list's frame in the same run.

A frame is every visible line rendered after an action (what the compositor asks for). Prints medians
in ms, the ratio 100k/1k for each, and the timeline's frame over the call list's frame (the baseline).
The budget is 16 ms a frame.

    python bench/bench_ui_timeline.py [CALLS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ui_render import build_store  # noqa: E402
from ui_factories import T0, make_app, request, result  # noqa: E402

from inspector.model import FakeClock  # noqa: E402
from inspector.ui.widgets.call_list import CallList  # noqa: E402
from inspector.ui.widgets.timeline import Timeline  # noqa: E402

SIZE = (160, 50)


def frame(widget: CallList) -> float:
    """Seconds to render every visible line of ``widget``."""
    height = widget.size.height
    start = time.perf_counter()
    for y in range(height):
        widget.render_line(y)
    return time.perf_counter() - start


def median_ms(values: list[float]) -> float:
    return statistics.median(values) * 1000


async def measure(count: int) -> dict[str, float]:
    clock = FakeClock(T0 + count * 0.01)
    store = build_store(count, clock)
    app = make_app(store, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        call_list = next(w for w in app.screen.query(CallList) if not isinstance(w, Timeline))
        while len(call_list.view) < count:
            await pilot.pause(0.01)
        list_frames = []
        for _ in range(100):
            call_list.action_cursor_down()
            list_frames.append(frame(call_list))
        await pilot.press("w")
        await pilot.pause()
        timeline = app.screen.query_one(Timeline)
        start = time.perf_counter()
        timeline.remeasure()
        timeline.relayout()  # what a new filter costs: the extent and idle gaps of every row
        relayout = time.perf_counter() - start
        appended = []
        for batch in range(10):  # a live session: new calls arrive, the view grows at its end
            for index in range(20):
                call_id = f"new_{batch}_{index}"
                store.ingest(request(call_id, "tool_new", ts=clock.now() + index * 0.01))
                store.ingest(result(call_id, ts=clock.now() + index * 0.01 + 0.1))
            app.screen._flush_changes()
            start = time.perf_counter()
            timeline.rows_changed()
            appended.append(time.perf_counter() - start + frame(timeline))
        first = frame(timeline)
        cursor, paging, ticks, zooms = [], [], [], []
        for _ in range(100):
            timeline.action_cursor_down()
            cursor.append(frame(timeline))
        for _ in range(50):
            timeline.action_page_down()
            paging.append(frame(timeline))
        for _ in range(30):
            clock.advance(0.25)
            app.tick()
            start = time.perf_counter()
            timeline.now = app.now  # pending bars grow, the fit moves: a whole new frame
            ticks.append(time.perf_counter() - start + frame(timeline))
        for index in range(30):
            start = time.perf_counter()
            timeline.action_zoom(2.0 if index % 2 else 0.5)
            zooms.append(time.perf_counter() - start + frame(timeline))
    return {
        "list cursor ms": median_ms(list_frames),
        "first frame ms": first * 1000,
        "cursor move ms": median_ms(cursor),
        "page down ms": median_ms(paging),
        "clock tick ms": median_ms(ticks),
        "zoom ms": median_ms(zooms),
        "new rows ms": median_ms(appended),
        "refilter ms": relayout * 1000,
    }


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    base = asyncio.run(measure(1_000))
    big = asyncio.run(measure(count))
    print(f"timeline, {SIZE[0]}x{SIZE[1]} terminal; medians of a frame (every visible line) after the action")
    print(f"{'':18}{'1,000 calls':>14}{f'{count:,} calls':>16}{'ratio':>8}{'vs list':>9}")
    for key in big:
        ratio = big[key] / base[key] if base[key] else float("nan")
        versus = big[key] / big["list cursor ms"] if big["list cursor ms"] else float("nan")
        print(f"{key:18}{base[key]:14.2f}{big[key]:16.2f}{ratio:8.2f}{versus:9.2f}")
    print("budget: 16 ms a frame; 'refilter' (every row measured again) runs once per filter or fold change")


if __name__ == "__main__":
    main()
