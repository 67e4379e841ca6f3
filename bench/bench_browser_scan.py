"""What the session browser's scan costs: calls (nested ones too, each id once) and titles, against a bare count.

Run: ``python bench/bench_browser_scan.py [--mb 100] [--repeat 5] [--corpus DIR]``.

A projects folder is built in a temporary folder: the real corpus sessions (with their subagent
files) and one big transcript of ``--mb`` megabytes made from them. Timed, best of ``repeat`` runs
(files in the page cache):

1. baseline: what the browser did before, ``bytes.count(b'"type":"tool_use"')`` over every session
   file in 1 MB blocks (no subagent files, no titles);
2. ``find_sessions``: the same files, their subagent files, each call id once, and each session's
   title or first prompt.

Figures: seconds, MB/s and the ratio against the baseline (the target is at most 3x).
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from make_big_transcript import DEFAULT_CORPUS, build  # noqa: E402

from inspector.sources.claude_sessions import find_sessions  # noqa: E402

TOOL_USE = b'"type":"tool_use"'


def bare_count(folder: Path) -> int:
    total = 0
    for path in sorted(folder.rglob("*.jsonl")):
        if path.name.startswith("agent-") or "subagents" in path.parts:
            continue
        tail = b""
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                data = tail + block
                total += data.count(TOOL_USE)
                tail = data[-(len(TOOL_USE) - 1) :]
    return total


def best(repeat: int, run) -> tuple[float, object]:
    times, value = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        value = run()
        times.append(time.perf_counter() - start)
    return min(times), value


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mb", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        raise SystemExit(f"no corpus at {args.corpus}")
    with tempfile.TemporaryDirectory() as tmp:
        projects = Path(tmp) / "projects"
        shutil.copytree(args.corpus, projects / "corpus")
        big = projects / "big" / "0b16b16b-0000-4000-8000-000000000001.jsonl"
        big.parent.mkdir(parents=True)
        build(big, args.mb * 1024 * 1024, args.corpus)
        size = sum(p.stat().st_size for p in projects.rglob("*.jsonl"))
        bare_s, bare_calls = best(args.repeat, lambda: bare_count(projects))
        scan_s, found = best(args.repeat, lambda: find_sessions(str(projects)))
        calls = sum(info.tool_calls or 0 for info in found)  # type: ignore[union-attr]
        titled = sum(1 for info in found if info.title)  # type: ignore[union-attr]
    mb = size / (1024 * 1024)
    print(f"folder: {len(found)} sessions, {mb:.1f} MB of .jsonl (subagent files included)")  # type: ignore[arg-type]
    print(
        f"baseline bytes.count      {bare_s:7.3f} s  {mb / bare_s:8.1f} MB/s  {bare_calls} tool_use markers"
    )
    print(
        f"find_sessions             {scan_s:7.3f} s  {mb / scan_s:8.1f} MB/s  {calls} calls, {titled} titled"
    )
    print(f"ratio                     {scan_s / bare_s:7.2f}x (target: at most 3x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
