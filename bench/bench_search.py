"""What a free-text search over parameters and results costs on a 100 MB Claude Code session.

Run: ``python bench/bench_search.py [--big PATH] [--mb 100] [--needle TEXT]``.

The session is read as the UI reads a file above 64 MB (payloads dropped after threading). Then, each
the best of three runs, over every row (what a filter rebuild does):

- baseline 1: one pass of ``bytes.lower()`` and ``in`` over the whole file (the least any search
  that looks at every payload could cost);
- baseline 2: the old free text (tool, id, summary, errors only);
- free text now (parameters and results: the raw records' bytes first, decoded only on a hit), for a
  needle that is rare and one that is everywhere, and the same filter applied again (each row's
  answer is remembered, as when rows arrive while following);
- the same with the payloads kept in memory (files under 64 MB).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from make_big_transcript import DEFAULT_CORPUS, build  # noqa: E402

from inspector.model import CallStore  # noqa: E402
from inspector.model.filter import clear_cache, haystack, parse_filter  # noqa: E402
from inspector.sources.files import load  # noqa: E402
from inspector.sources.payloads import FilePayloads  # noqa: E402


def rows(store: CallStore) -> list:
    out: list = []
    for item in store.items:
        out.extend(item.walk() if hasattr(item, "walk") else [item])
    return out


def timed(work, repeat: int = 3) -> tuple[float, object]:
    best, answer = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        answer = work()
        best = min(best, time.perf_counter() - start)
    return best, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=Path, help="a big transcript (default: build one from the corpus)")
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--needle", default="x-request-id")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = args.big
        if path is None:
            path = Path(folder) / "big.jsonl"
            build(path, args.mb * 1_000_000, DEFAULT_CORPUS)
        size = path.stat().st_size
        print(f"{path.name}: {size / 1e6:.1f} MB")
        data = path.read_bytes()
        base, _ = timed(lambda: args.needle.encode() in data.lower())
        print(f"baseline 1, bytes.lower() + in over the file: {base * 1000:.0f} ms")
        for keep in (False, True):
            store = CallStore(keep_payloads=keep)
            load([str(path)], store)
            items = rows(store)
            now = store.clock.now()
            label = "payloads kept in memory" if keep else "payloads dropped (as the UI above 64 MB)"
            print(f"\n{label}: {len(items):,} rows")
            low = args.needle.lower()

            def summaries(low: str = low, items: list = items) -> int:
                clear_cache()
                return sum(1 for item in items if low in haystack(item))

            old, old_hits = timed(summaries)
            print(f"  baseline 2, old free text (summaries only): {old * 1000:.0f} ms, {old_hits} rows")
            for needle in (args.needle, "import"):
                payloads = None if keep else FilePayloads()

                def search(
                    needle: str = needle,
                    payloads: FilePayloads | None = payloads,
                    items: list = items,
                    now=now,
                ) -> tuple:
                    clear_cache()
                    flt = parse_filter(needle, payloads)
                    return flt, sum(1 for item in items if flt.matches(item, now))

                cold, (flt, hits) = timed(search)
                again, _ = timed(
                    lambda flt=flt, items=items, now=now: sum(1 for i in items if flt.matches(i, now))
                )
                print(
                    f"  free text {needle!r}: {cold * 1000:.0f} ms ({cold / base:.1f}x baseline 1), {hits} rows;"
                    f" applied again {again * 1000:.0f} ms"
                )


if __name__ == "__main__":
    main()
