"""Build a big Claude Code transcript by repeating the real corpus sessions with fresh ids.

Run: ``python bench/make_big_transcript.py OUT.jsonl [MB] [--corpus DIR]`` (MB defaults to 100). Every copy of a
session gets its own tool_use ids and uuids (the same rewrite for every occurrence in a line, so
tool_use/tool_result pairs, parentUuid chains and inline subagents still thread), and the copies are
written one after another until the file reaches the asked size.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "claude"

_TOOL_ID = re.compile(rb"\b((?:toolu|srvtoolu)_[A-Za-z0-9]+)")
_UUID = re.compile(rb"\b[0-9a-f]{8}(-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b")


def session_files(corpus: Path) -> list[Path]:
    """The corpus sessions themselves (subagent files are left out: they cannot join one file)."""
    files = [
        path
        for path in sorted(corpus.rglob("*.jsonl"))
        if not path.name.startswith("agent-") and "subagents" not in path.parts
    ]
    if not files:
        raise SystemExit(f"no Claude transcripts under {corpus}")
    return files


def fresh_ids(line: bytes, copy: int) -> bytes:
    """``line`` with every tool id and uuid made unique to copy number ``copy``."""
    suffix = b"x%d" % copy
    line = _TOOL_ID.sub(lambda m: m.group(1) + suffix, line)
    prefix = b"%08x" % (copy & 0xFFFFFFFF)
    return _UUID.sub(lambda m: prefix + m.group(1), line)


def build(out: Path, size: int, corpus: Path) -> tuple[int, int]:
    """Write at least ``size`` bytes; returns ``(bytes written, copies of the corpus)``."""
    sources = [path.read_bytes() for path in session_files(corpus)]
    written = 0
    copy = 0
    with open(out, "wb") as fh:
        while written < size:
            copy += 1
            for data in sources:
                for line in data.splitlines(keepends=True):
                    if not line.endswith(b"\n"):
                        line += b"\n"
                    chunk = fresh_ids(line, copy)
                    fh.write(chunk)
                    written += len(chunk)
                if written >= size:
                    break
    return written, copy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the transcript to write")
    parser.add_argument("mb", nargs="?", type=float, default=100.0, help="size in megabytes (default 100)")
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS, help="folder of real transcripts")
    args = parser.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    written, copies = build(args.out, int(args.mb * 1_000_000), args.corpus)
    print(f"wrote {args.out}: {written / 1e6:.1f} MB, {copies} copies of the corpus sessions")
    return 0 if os.path.getsize(args.out) == written else 1


if __name__ == "__main__":
    raise SystemExit(main())
