"""What reading Codex CLI and Gemini CLI sessions costs, against a bare ``json.loads`` pass over the same bytes.

Run: ``python bench/bench_agents.py [--mb 20] [--repeat 5] [--codex DIR] [--gemini DIR]``.

For every corpus session, and for three big files built from the corpus in a temporary folder
(a Codex rollout, a Gemini JSON Lines session and a Gemini JSON document of about ``--mb`` megabytes
each: the corpus sessions repeated, every copy with its own call ids and message ids, so calls still
pair with their outputs and the "last record of an id wins" rule keeps every copy), the best of
``repeat`` runs of:

1. baseline: ``json.loads`` of every line (of the whole document for a JSON document), the bytes
   read beforehand;
2. ``read``: the format's reader, every event;
3. ``store``: the reader into ``CallStore(keep_payloads=False)`` (threading, states);
4. ``load``: ``session.load``, what ``inspector stats`` does (detect the format, then read);
5. ``browse`` (big files only): the session browser's scan of a folder holding the file
   (``find_codex`` / ``find_gemini``: calls, title, project).

Figures: milliseconds and the ratios against the baseline (the target for Claude Code is at most 3x).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from inspector.model import CallStore  # noqa: E402
from inspector.protocols import codex, gemini  # noqa: E402
from inspector.sources.agent_sessions import find_codex, find_gemini  # noqa: E402
from inspector.sources.files import load  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
# Codex pairs calls and outputs (and *_end events) by call_id; Gemini threads by message and tool-call
# ids ("id", "callId", a rewind's "$rewindTo"). Every copy gets a suffix on each of them.
_CODEX_IDS = re.compile(rb'("call_id"\s*:\s*")([^"\\]*)"')
_GEMINI_IDS = re.compile(rb'("(?:id|callId|\$rewindTo)"\s*:\s*")([^"\\]*)"')


def best_of(repeat: int, work: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def renamed(pattern: re.Pattern[bytes], data: bytes, copy: int) -> bytes:
    if copy == 0:
        return data
    suffix = b"-%d" % copy
    return pattern.sub(lambda m: m.group(1) + m.group(2) + suffix + b'"', data)


def build_codex(out: Path, size: int, corpus: Path) -> None:
    """Corpus rollouts (both layouts) one after another; a resumed session repeats its header, as here."""
    sources = [path.read_bytes() for path in sorted(corpus.glob("*.jsonl"))]
    with open(out, "wb") as fh:
        copy = 0
        while fh.tell() < size:
            for data in sources:
                fh.write(renamed(_CODEX_IDS, data.rstrip(b"\n") + b"\n", copy))
            copy += 1


def build_gemini_lines(out: Path, size: int, corpus: Path) -> None:
    sources = [path.read_bytes() for path in sorted(corpus.glob("*.jsonl"))]
    with open(out, "wb") as fh:
        copy = 0
        while fh.tell() < size:
            for data in sources:
                fh.write(renamed(_GEMINI_IDS, data.rstrip(b"\n") + b"\n", copy))
            copy += 1


def build_gemini_document(out: Path, size: int, corpus: Path) -> None:
    """One pretty-printed document (as the CLI writes it) holding the corpus documents' messages repeated."""
    documents = [json.loads(path.read_bytes()) for path in sorted(corpus.glob("*.json"))]
    header = {key: value for key, value in documents[0].items() if key != "messages"}
    # JSON.stringify, as the CLI writes: non-ASCII characters as they are, not as \u escapes
    messages = [
        json.dumps(m, indent=2, ensure_ascii=False).encode() for doc in documents for m in doc["messages"]
    ]
    parts: list[bytes] = []
    total, copy = 0, 0
    while total < size:
        for message in messages:
            part = renamed(_GEMINI_IDS, message, copy)
            parts.append(part)
            total += len(part)
        copy += 1
    head = json.dumps(header, indent=2, ensure_ascii=False).encode()[:-2]  # without the closing "\n}"
    out.write_bytes(head + b',\n  "messages": [\n' + b",\n".join(parts) + b"\n  ]\n}\n")


def bare(path: Path) -> Callable[[], None]:
    data = path.read_bytes()
    if path.suffix == ".json":
        return lambda: json.loads(data) and None
    lines = [line for line in data.splitlines() if line.strip()]

    def run() -> None:
        for line in lines:
            json.loads(line)

    return run


def into_store(module: ModuleType, path: str) -> CallStore:
    store = CallStore(keep_payloads=False)
    ingest = store.ingest
    for event in module.read(path):
        ingest(event)
    return store


def measure(module: ModuleType, path: Path, repeat: int, browse: Callable[[], object] | None = None) -> None:
    base = best_of(repeat, bare(path))
    read = best_of(repeat, lambda: sum(1 for _ in module.read(str(path))))
    stored = best_of(repeat, lambda: into_store(module, str(path)))
    loaded = best_of(repeat, lambda: load([str(path)], CallStore(keep_payloads=False)))
    store = into_store(module, str(path))
    row = (
        f"{path.name[:44]:44} {path.stat().st_size / 1e6:7.2f} {store.call_count:6d} {base * 1000:9.1f}"
        f" {read / base:6.2f}x {stored / base:6.2f}x {loaded / base:6.2f}x"
    )
    if browse is not None:
        row += f" {best_of(repeat, browse) / base:6.2f}x"
    print(row)


def header() -> None:
    print(
        f"{'file':44} {'MB':>7} {'calls':>6} {'json ms':>9} {'read':>7} {'store':>7} {'load':>7} {'browse':>7}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--mb", type=float, default=20.0, help="size of each built file")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--codex", type=Path, default=CORPUS / "codex")
    parser.add_argument("--gemini", type=Path, default=CORPUS / "gemini")
    args = parser.parse_args(argv)
    for folder in (args.codex, args.gemini):
        if not folder.is_dir():
            print(f"no corpus at {folder}", file=sys.stderr)
            return 2
    size = int(args.mb * 1_000_000)
    print(f"ratios against the bare json.loads pass over the same bytes (best of {args.repeat} runs)")
    header()
    for module, folder in ((codex, args.codex), (gemini, args.gemini)):
        for path in sorted(p for p in folder.iterdir() if p.suffix in (".json", ".jsonl")):
            measure(module, path, args.repeat)
    with tempfile.TemporaryDirectory() as tmp:
        rollout = Path(tmp) / "codex" / "2025" / "11" / "23" / "rollout-2025-11-23T00-00-00-big.jsonl"
        chats = Path(tmp) / "gemini" / "big" / "chats"
        rollout.parent.mkdir(parents=True)
        chats.mkdir(parents=True)
        build_codex(rollout, size, args.codex)
        lines, document = (
            chats / "session-big.jsonl",
            Path(tmp) / "gemini-doc" / "p" / "chats" / "session-big.json",
        )
        document.parent.mkdir(parents=True)
        build_gemini_lines(lines, size, args.gemini)
        build_gemini_document(document, size, args.gemini)
        codex_root, lines_root, doc_root = (
            str(Path(tmp) / name) for name in ("codex", "gemini", "gemini-doc")
        )
        measure(codex, rollout, args.repeat, lambda: find_codex(codex_root))
        measure(gemini, lines, args.repeat, lambda: find_gemini(lines_root))
        measure(gemini, document, args.repeat, lambda: find_gemini(doc_root))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
