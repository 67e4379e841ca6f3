"""What live countdowns cost: CPU per second to recompute the time texts of pending calls, visible rows vs all.

Run: ``python bench/bench_countdowns.py [--calls 1000] [--visible 50] [--hz 4]``. Prints, per
scenario, the CPU time per redraw and the share of one core at ``hz`` redraws per second. The baseline
is the bare ``deadline - now`` for the same rows; the other figures are given as ratios against it.
The text is the one the headless commands print (``calltext.time_column``) plus a rich Text cell
with the state's style, which is what a list row draws; the UI may swap in its own row renderer.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from rich.text import Text

from inspector.calltext import STATE_STYLES, time_column
from inspector.model import Call, CallStore, Executor, FakeClock, Request


def make_calls(count: int, now: float) -> list[Call]:
    """``count`` pending calls sent in the last minute with timeouts of 5 s to 2 min."""
    rng = random.Random(7)
    store = CallStore(clock=FakeClock(now))
    for index in range(count):
        store.ingest(
            Request(
                call_id=f"call{index:05d}",
                tool=rng.choice(["web_search", "Bash", "Read"]),
                ts=now - rng.uniform(0, 60),
                timeout_ms=rng.randint(5_000, 120_000),
                executor=Executor.CLIENT,
            )
        )
    return [item for item in store.items if isinstance(item, Call)]


def bare(rows: list[Call], now: float) -> None:
    for call in rows:
        call.remaining(now)


def texts(rows: list[Call], now: float) -> None:
    for call in rows:
        time_column(call, now)


def cells(rows: list[Call], now: float) -> None:
    for call in rows:
        state = call.state(now)
        cell = Text(time_column(call, now), style=STATE_STYLES[state])
        cell.cell_len  # noqa: B018 - measuring the cell is part of drawing it


def cpu_per_redraw(
    work: Callable[[list[Call], float], None], rows: list[Call], now: float, budget: float = 0.5
) -> float:
    """CPU seconds per redraw of ``rows``, averaged over about ``budget`` seconds of CPU."""
    repeats = 1
    while True:
        start = time.process_time()
        for step in range(repeats):
            work(rows, now + step * 0.25)
        spent = time.process_time() - start
        if spent >= budget or repeats >= 1 << 22:
            return spent / repeats
        repeats *= 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--visible", type=int, default=50)
    parser.add_argument("--hz", type=float, default=4.0, help="redraws per second")
    args = parser.parse_args()
    now = 1_700_000_000.0
    calls = make_calls(args.calls, now)
    visible = calls[: args.visible]
    print(f"{len(calls)} pending calls, {len(visible)} visible, {args.hz:g} redraws/s")
    print(f"{'scenario':<46} {'µs/redraw':>10} {'% of a core':>12} {'x baseline':>11}")
    for rows, label in ((visible, f"{len(visible)} visible rows"), (calls, f"all {len(calls)} rows")):
        baseline = cpu_per_redraw(bare, rows, now)
        for work, what in (
            (bare, "deadline - now (baseline)"),
            (texts, "countdown text"),
            (cells, "countdown Text cell"),
        ):
            per = baseline if work is bare else cpu_per_redraw(work, rows, now)
            share = per * args.hz * 100
            print(f"{label + ', ' + what:<46} {per * 1e6:>10.1f} {share:>11.3f}% {per / baseline:>10.1f}x")


if __name__ == "__main__":
    main()
