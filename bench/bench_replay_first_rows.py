"""Time to the first rows of a replay (``--replay``), for a recording of 10^4 records and one 100 times
bigger: the replay streams the file, so the first rows should not wait for the whole of it.

Prints both times and their ratio (the baseline is the small recording, measured in the same run), and the
median time a key press took while the big recording was still being read.

    python bench/bench_replay_first_rows.py [SMALL] [BIG]     # records; default 10000 1000000
"""

from __future__ import annotations

import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui"))
sys.path.insert(0, str(ROOT / "tests"))

from recording_factory import START, big_recording  # noqa: E402
from textual import events  # noqa: E402
from ui_factories import file_app  # noqa: E402

from inspector.model import FakeClock  # noqa: E402
from inspector.model.replay import INSTANT  # noqa: E402
from inspector.ui.widgets.call_list import CallList  # noqa: E402


async def first_rows(path: Path) -> tuple[float, int, float, bool]:
    """Seconds to the first rows, the events read by then, the median key press while the file is still
    read, and whether the file was still being read when the first rows came."""
    app = file_app([path], clock=FakeClock(START), replay=True, speed=INSTANT)
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        call_list = app.screen.query_one(CallList)
        while not len(call_list.view):
            await pilot.pause(0.005)
        first = time.perf_counter() - started
        replayer = app.screen.replay.replayer
        read_then, streaming = replayer.total, not replayer.complete
        keys = []
        while not replayer.complete and len(keys) < 20:
            cursor = call_list.cursor
            start = time.perf_counter()
            app.post_message(events.Key("j", "j"))  # as a terminal sends it (pilot.press waits for idle)
            while call_list.cursor == cursor and time.perf_counter() - start < 30:
                await asyncio.sleep(0.001)
            keys.append(time.perf_counter() - start)
        key = statistics.median(keys) if keys else float("nan")
    return first, read_then, key, streaming


def main() -> None:
    small = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    big = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    with tempfile.TemporaryDirectory() as folder:
        figures = {}
        asyncio.run(first_rows(big_recording(Path(folder) / "warm.jsonl", 100)))  # imports and caches warm
        for records in (small, big):
            path = big_recording(Path(folder) / f"r{records}.jsonl", records)
            size = path.stat().st_size
            figures[records] = asyncio.run(first_rows(path))
            first, read_then, key, streaming = figures[records]
            print(
                f"{records:>9,} records ({size / 1e6:.0f} MB): first rows {first:.3f} s "
                f"({read_then:,} events read by then{', the rest still being read' if streaming else ''}); "
                f"a key press while reading: {key * 1000:.0f} ms median"
            )
            path.unlink()
    print(f"first rows, {big:,} / {small:,} records: {figures[big][0] / figures[small][0]:.2f}x")


if __name__ == "__main__":
    main()
