"""What a malformed line costs against a good one, per JSON Lines format (``inspector stats``, whole process).

Run: ``python bench/bench_malformed_lines.py [--lines 200000] [--repeat 3] [--only claude]``. For each
format writes files of ``--lines`` lines: good records (the baseline: a small record of the format that
makes no call, measured in the same run), then lines that are not JSON, JSON of another shape (a string,
a number) and JSON cut short, and runs ``python -m inspector stats --format F`` on each in a fresh child
(best of ``--repeat``). Prints seconds and each malformed file's time as a ratio of the good file's (the aim: a malformed line costs no more than a good one, every line still counted and said).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_T = "2026-11-01T10:00:00.000Z"
GOOD = {
    "claude": lambda n: {
        "type": "user",
        "message": {"role": "user", "content": "hello"},
        "uuid": f"u{n}",
        "timestamp": _T,
        "sessionId": "s1",
    },
    "codex": lambda n: {
        "timestamp": _T,
        "type": "event_msg",
        "payload": {"type": "token_count", "info": None},
    },
    "gemini": lambda n: {"id": f"m{n}", "timestamp": _T, "type": "user", "content": "hi"},
    "lmkit": lambda n: {"Id": f"k{n}", "Name": "get_weather", "ArgumentsJson": "{}"},
}
FIRST = {"gemini": {"sessionId": "s1", "projectHash": "p", "startTime": _T}}
BAD = {
    "not JSON": lambda n: b"not json %d" % n,
    "another shape": lambda n: b'"a string %d"' % n if n % 2 else b"%d" % n,
    "cut short": lambda n: b'{"type": "user", "message": {"role": "us%d' % n,
}


def _write(path: str, fmt: str, lines: int, make) -> None:  # type: ignore[no-untyped-def]
    with open(path, "wb") as fh:
        if fmt in FIRST:
            fh.write(json.dumps(FIRST[fmt]).encode() + b"\n")
        block: list[bytes] = []
        for n in range(lines):
            block.append(make(n))
            if len(block) == 10_000:
                fh.write(b"\n".join(block) + b"\n")
                block.clear()
        if block:
            fh.write(b"\n".join(block) + b"\n")


def _run(path: str, fmt: str) -> float:
    """Seconds of ``inspector stats`` on ``path`` in a fresh child."""
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "inspector", "stats", "--format", fmt, path],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    seconds = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise SystemExit(f"stats failed on {path}: exit {done.returncode}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", action="append", choices=sorted(GOOD))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        for fmt in args.only or sorted(GOOD):
            files = {"good": os.path.join(folder, f"{fmt}-good.jsonl")}
            _write(files["good"], fmt, args.lines, lambda n, f=GOOD[fmt]: json.dumps(f(n)).encode())
            for name, make in BAD.items():
                files[name] = os.path.join(folder, f"{fmt}-{name.replace(' ', '-')}.jsonl")
                _write(files[name], fmt, args.lines, make)
            timed = {name: min(_run(path, fmt) for _ in range(args.repeat)) for name, path in files.items()}
            for name in files:
                print(f"{fmt:7} {name:14} {timed[name]:6.2f} s  {timed[name] / timed['good']:5.2f}x good")


if __name__ == "__main__":
    main()
