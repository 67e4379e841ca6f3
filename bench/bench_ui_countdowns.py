"""CPU cost of live countdowns: 1,000 pending calls with deadlines in the running app (headless, real clock).

The baseline is the same app with 1,000 finished calls (nothing to count down), measured in the same run.

    python bench/bench_ui_countdowns.py [SECONDS]
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "ui"))

from ui_factories import make_app, request, result  # noqa: E402

from inspector.model import CallStore, SystemClock  # noqa: E402

CALLS = 1000


def store(pending: bool, first_ms: int = 5_000) -> CallStore:
    clock = SystemClock()
    store = CallStore(clock=clock)
    now = clock.now()
    for index in range(CALLS):
        # deadlines spread over 20 s from first_ms: with 5 s, every visible row is in its last 10 s
        store.ingest(request(f"c{index}", ts=now, timeout_ms=first_ms + (index % 200) * 100))
        if not pending:
            store.ingest(result(f"c{index}", ts=now + 0.1))
    return store


async def cpu_share(pending: bool, seconds: float, first_ms: int = 5_000) -> float:
    data = store(pending, first_ms)
    app = make_app(data, clock=data.clock)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause(0.5)
        cpu, wall = time.process_time(), time.perf_counter()
        await asyncio.sleep(seconds)
        return (time.process_time() - cpu) / (time.perf_counter() - wall)


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 5.0
    idle = asyncio.run(cpu_share(False, seconds))
    calm = asyncio.run(cpu_share(True, seconds, 60_000))
    busy = asyncio.run(cpu_share(True, seconds))
    print(f"{CALLS:,} calls over {seconds:g} s of the running app (160x50 terminal)")
    print(f"  finished calls (baseline):            {idle:6.1%} of one core")
    print(f"  pending, deadlines 60-80 s away:      {calm:6.1%} of one core  (+{calm - idle:.1%})")
    print(
        f"  pending, every visible one < 10 s:    {busy:6.1%} of one core  (+{busy - idle:.1%}; 4 redraws/s)"
    )


if __name__ == "__main__":
    main()
