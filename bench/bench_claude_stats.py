"""What reading a Claude Code transcript costs, against a bare ``json.loads`` pass over the same lines.

Run: ``python bench/bench_claude_stats.py [--big PATH] [--mb 100] [--repeat 15]``.

1. The largest transcript of the corpus: the best of ``repeat`` runs of a bare ``json.loads`` over its
   lines (read beforehand), of the parser into ``CallStore(keep_payloads=False)``, and of
   ``session.load`` (what ``inspector stats`` does: detect the format, then read); ratios against
   the bare pass. The target is at most 3x.
2. A big transcript (``--big``, or one of ``--mb`` megabytes built from the corpus in a temporary
   folder): the time to read it into the store, then in a fresh process the peak memory (tracemalloc
   peak, and the growth of ru_maxrss) against the file size. The targets are 5 s and half the size.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from make_big_transcript import DEFAULT_CORPUS, build  # noqa: E402

from inspector.model import CallStore  # noqa: E402
from inspector.protocols import claude  # noqa: E402
from inspector.sources.files import load  # noqa: E402


def largest_transcript(corpus: Path) -> Path:
    files = [path for path in corpus.rglob("*.jsonl") if not path.name.startswith("agent-")]
    if not files:
        raise SystemExit(f"no transcripts under {corpus}")
    return max(files, key=lambda path: path.stat().st_size)


def best_of(repeat: int, work) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def read_into_store(path: str) -> CallStore:
    store = CallStore(keep_payloads=False)
    ingest = store.ingest
    for event in claude.read(path):
        ingest(event)
    return store


def compare(path: Path, repeat: int) -> None:
    lines = path.read_bytes().splitlines()

    def bare() -> None:
        for line in lines:
            if line.strip():
                json.loads(line)

    def stats() -> None:
        load([str(path)], CallStore(keep_payloads=False))

    base = best_of(repeat, bare)
    parsed = best_of(repeat, lambda: read_into_store(str(path)))
    loaded = best_of(repeat, stats)
    store = read_into_store(str(path))
    print(f"{path.name}: {path.stat().st_size / 1e6:.2f} MB, {len(lines)} lines, {store.call_count} calls")
    print(f"  bare json.loads      {base * 1000:8.2f} ms   1.00x")
    print(f"  parser -> store      {parsed * 1000:8.2f} ms   {parsed / base:.2f}x")
    print(f"  session.load (stats) {loaded * 1000:8.2f} ms   {loaded / base:.2f}x   (target <= 3x)")


def measure_child(path: str) -> None:
    """In a fresh process: time and ru_maxrss growth of one read, then the tracemalloc peak of another."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    start = time.perf_counter()
    store = read_into_store(path)
    elapsed = time.perf_counter() - start
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024  # KiB on Linux
    calls, malformed = store.call_count, len(store.malformed)
    del store
    tracemalloc.start()
    read_into_store(path)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(
        json.dumps(
            {"seconds": elapsed, "maxrss_growth": grown, "peak": peak, "calls": calls, "malformed": malformed}
        )
    )


def big(path: Path) -> None:
    size = path.stat().st_size
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path)], capture_output=True, text=True, check=True
    )
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{path}: {size / 1e6:.1f} MB, {figures['calls']} calls, {figures['malformed']} malformed")
    print(f"  read into the store  {figures['seconds']:8.2f} s    (target <= 5 s)")
    print(
        f"  tracemalloc peak     {figures['peak'] / 1e6:8.1f} MB   {figures['peak'] / size:.2f} of the file"
        "   (target <= 0.5)"
    )
    print(
        f"  ru_maxrss growth     {figures['maxrss_growth'] / 1e6:8.1f} MB   "
        f"{figures['maxrss_growth'] / size:.2f} of the file"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--big", type=Path, help="a big transcript (default: build one from the corpus)")
    parser.add_argument("--mb", type=float, default=100.0, help="size of the built transcript")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        measure_child(args.child)
        return 0
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    compare(largest_transcript(args.corpus), args.repeat)
    if args.big:
        big(args.big)
        return 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.jsonl"
        build(path, int(args.mb * 1_000_000), args.corpus)
        big(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
