"""Call list speed with 100k calls: redraw after a cursor move and after a page down, first paint.

Prints medians in ms. The baseline is the same measurement on a 1,000-call store in the same run: a
line-API list should cost the same per screenful whatever the number of calls.

    python bench/bench_ui_render.py [CALLS]
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from ui_factories import T0, make_app, request, result  # noqa: E402

from inspector.model import CallStore, FakeClock, Outcome  # noqa: E402
from inspector.ui.widgets.call_list import CallList  # noqa: E402
from inspector.ui.widgets.detail import DetailPane  # noqa: E402

SIZE = (160, 50)


def build_store(count: int, clock: FakeClock) -> CallStore:
    store = CallStore(clock=clock)
    outcomes = [Outcome.SUCCESS, Outcome.SUCCESS, Outcome.SUCCESS, Outcome.ERROR, Outcome.TIMEOUT]
    for index in range(count):
        store.ingest(
            request(
                f"call_{index:07d}",
                f"tool_{index % 37}",
                ts=T0 + index * 0.01,
                summary=f"path=/src/module_{index % 997}.py line={index}",
            )
        )
        if index % 50:  # every 50th call stays pending with a running countdown
            store.ingest(result(f"call_{index:07d}", outcomes[index % 5], ts=T0 + index * 0.01 + 0.2))
    return store


def screenful(call_list: CallList) -> float:
    """Seconds to render every visible line (what the compositor asks for after a change)."""
    height = call_list.scrollable_content_region.height
    start = time.perf_counter()
    for y in range(height):
        call_list.render_line(y)
    return time.perf_counter() - start


async def measure(count: int) -> dict[str, float]:
    clock = FakeClock(T0 + count * 0.01)
    store = build_store(count, clock)
    app = make_app(store, clock=clock)
    started = time.perf_counter()
    async with app.run_test(size=SIZE) as pilot:
        call_list = app.screen.query_one(CallList)
        while len(call_list.view) < count:
            await pilot.pause(0.01)
        first_paint = time.perf_counter() - started
        cursor, paging = [], []
        for _ in range(200):
            call_list.action_cursor_down()
            cursor.append(screenful(call_list))
        for _ in range(100):
            call_list.action_page_down()
            paging.append(screenful(call_list))
        call_list.action_last()
        end = screenful(call_list)
        detail = app.screen.query_one(DetailPane)
        details = []
        for index in range(0, 5000, 100):
            detail.item = call_list.view.items[index % len(call_list.view)]
            start = time.perf_counter()
            console = app.console
            console.render_lines(detail._renderable(), console.options.update_width(SIZE[0] - 4))
            details.append(time.perf_counter() - start)
    return {
        "first paint s": first_paint,
        "cursor move ms": statistics.median(cursor) * 1000,
        "page down ms": statistics.median(paging) * 1000,
        "at the end ms": end * 1000,
        "detail render ms": statistics.median(details) * 1000,
    }


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    base = asyncio.run(measure(1_000))
    big = asyncio.run(measure(count))
    print(f"call list, {SIZE[0]}x{SIZE[1]} terminal; medians of a screenful rendered after the action")
    print(f"{'':18}{'1,000 calls':>14}{f'{count:,} calls':>16}{'ratio':>8}")
    for key in big:
        ratio = big[key] / base[key] if base[key] else float("nan")
        print(f"{key:18}{base[key]:14.2f}{big[key]:16.2f}{ratio:8.2f}")


if __name__ == "__main__":
    main()
