"""Whole commands on the largest corpus transcript: `inspector stats`, a bare `json.loads` pass in a
fresh interpreter, and claude-code-log's `convert FILE -o out.json` when it is installed.

Run: ``python bench/bench_vs_claude_code_log.py [--file PATH] [--repeat 5] [--ccl PATH_TO_claude-code-log]``.
(``pip install claude-code-log`` in a separate virtualenv and pass its script with --ccl, since it pins
its own Textual.) Every command works on a copy in a temporary folder with HOME pointed there, so
nothing reads or writes a real ~/.claude.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus" / "claude"

BARE = (
    "import json,sys\nn=0\nfor line in open(sys.argv[1],'rb'):\n    if line.strip(): json.loads(line); n+=1\n"
)


def best(repeat: int, argv: list[str], env: dict[str, str]) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        proc = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
        times.append(time.perf_counter() - start)
        if proc.returncode not in (0, 1):
            raise SystemExit(f"{argv[0]} failed: {proc.stderr.decode()[-400:]}")
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--file", type=Path)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--ccl", default=shutil.which("claude-code-log"))
    args = parser.parse_args()
    source = args.file or max(
        (p for p in CORPUS.rglob("*.jsonl") if not p.name.startswith("agent-")),
        key=lambda p: p.stat().st_size,
    )
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "project" / source.name
        copy.parent.mkdir()
        shutil.copy(source, copy)
        env = {**os.environ, "HOME": tmp, "INSPECTOR_CLAUDE_DIR": tmp}
        size = copy.stat().st_size / 1e6
        print(f"{source.name}: {size:.2f} MB, best of {args.repeat}")
        startup = best(args.repeat, [sys.executable, "-c", "pass"], env)
        bare = best(args.repeat, [sys.executable, "-c", BARE, str(copy)], env)
        stats = best(args.repeat, [sys.executable, "-m", "inspector", "stats", "--json", str(copy)], env)
        print(f"  python start-up            {startup * 1000:8.1f} ms")
        print(f"  bare json.loads pass       {bare * 1000:8.1f} ms   1.00x")
        print(f"  inspector stats --json     {stats * 1000:8.1f} ms   {stats / bare:.2f}x whole command")
        print(f"  (work only, start-up removed: {(stats - startup) / max(bare - startup, 1e-9):.2f}x)")
        if args.ccl:
            out = Path(tmp) / "out.json"
            ccl = best(max(1, args.repeat // 2), [args.ccl, "convert", str(copy), "-o", str(out)], env)
            print(
                f"  claude-code-log convert    {ccl * 1000:8.1f} ms   {ccl / bare:.2f}x  ({ccl / stats:.1f}x inspector)"
            )
        else:
            print("  claude-code-log: not installed (pass --ccl PATH)")


if __name__ == "__main__":
    main()
