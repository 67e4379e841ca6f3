"""Time to the first screen of calls: a sample session, and a big file that keeps loading behind it.

The baseline is the time to load the big file fully (the first screen should come long before it).

    python bench/bench_ui_first_screen.py [CALLS]
    python bench/bench_ui_first_screen.py --transcript [MB]   # a Claude Code transcript of MB megabytes
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui"))

from textual import events  # noqa: E402
from ui_factories import file_app  # noqa: E402

from inspector.ui.widgets.call_list import CallList  # noqa: E402

SAMPLE = ROOT / "sample_sessions" / "demo.recording.jsonl"


def write_big(path: Path, calls: int) -> None:
    with path.open("w") as fh:
        for index in range(calls):
            fh.write(
                json.dumps(
                    {
                        "Id": f"call_{index}",
                        "Name": f"tool_{index % 31}",
                        "ArgumentsJson": json.dumps({"path": f"/src/m{index}.py"}),
                    }
                )
                + "\n"
            )
            fh.write(
                json.dumps(
                    {
                        "ToolCallId": f"call_{index}",
                        "ToolName": f"tool_{index % 31}",
                        "Type": 0,
                        "ResultJson": json.dumps({"ok": index}),
                    }
                )
                + "\n"
            )


async def first_screen(path: Path) -> tuple[float, float, int, float]:
    """Seconds to the first rows on screen, to the end of the load, rows at the first screen, and the
    median seconds a key press (j) took to be handled while the load went on."""
    app = file_app([path])
    started = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        call_list = app.screen.query_one(CallList)
        while not len(call_list.view):
            await pilot.pause(0.005)
        first = time.perf_counter() - started
        rows = len(call_list.view)
        keys = []
        while app.screen.has_class("-loading") and len(keys) < 20:
            cursor = call_list.cursor
            start = time.perf_counter()
            app.post_message(events.Key("j", "j"))  # as a terminal would send it (pilot.press waits for idle)
            while call_list.cursor == cursor and app.screen.has_class("-loading"):
                await asyncio.sleep(0.001)
            keys.append(time.perf_counter() - start)
        while app.screen.has_class("-loading"):
            await pilot.pause(0.02)
        key = statistics.median(keys) if keys else float("nan")
        return first, time.perf_counter() - started, rows, key


def transcript_main(megabytes: int) -> None:
    """The issue's case: a 100 MB Claude Code transcript built from the corpus (bench/make_big_transcript.py)."""
    sys.path.insert(0, str(ROOT / "bench"))
    from make_big_transcript import DEFAULT_CORPUS, build

    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "big.jsonl"
        build(big, megabytes * 1_000_000, DEFAULT_CORPUS)
        size = big.stat().st_size
        first, done, rows, key = asyncio.run(first_screen(big))
    print(
        f"Claude Code transcript ({size / 1e6:.0f} MB): first screen {first:.3f} s with {rows:,} rows, fully "
        f"loaded {done:.2f} s (first screen at {first / done:.1%} of the load); a key press during the load: "
        f"{key * 1000:.0f} ms median"
    )


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "--transcript":
        transcript_main(int(sys.argv[2]) if len(sys.argv) > 2 else 100)
        return
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    sample_first, sample_done, _, _ = asyncio.run(first_screen(SAMPLE))
    with tempfile.TemporaryDirectory() as folder:
        big = Path(folder) / "big.jsonl"
        write_big(big, calls)
        size = big.stat().st_size
        big_first, big_done, rows, key = asyncio.run(first_screen(big))
    print(f"sample session ({SAMPLE.name}): first screen {sample_first:.3f} s, loaded {sample_done:.3f} s")
    print(
        f"big LM-Kit file ({calls:,} calls, {size / 1e6:.0f} MB): first screen {big_first:.3f} s with {rows:,} "
        f"rows, fully loaded {big_done:.2f} s (first screen at {big_first / big_done:.1%} of the load); "
        f"a key press during the load: {key * 1000:.0f} ms median"
    )


if __name__ == "__main__":
    main()
