"""An empty session file: a session with no calls yet, its format told by its name or folder, or by its first line."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from inspector import protocols
from inspector.model.events import Event, RawRef
from inspector.protocols.format import Format
from inspector.userpath import open_binary

NAME = "empty"

_UUID_JSONL = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$", re.I)
_WORDS = re.compile(r"[a-z0-9]+")

# a word of the file name -> the format it names (only formats the registry knows are used)
_NAME_WORDS = {
    "recording": "recording",
    "rap": "rap",
    "lmkit": "lmkit",
    "alicia": "alicia",
    "msgpack": "alicia",
    "codex": "codex",
    "rollout": "codex",
    "gemini": "gemini",
}


def is_empty(path: str) -> bool:
    """True when the file holds nothing but whitespace (a session that has not written a record yet)."""
    try:
        with open_binary(path) as fh:
            head = fh.read(protocols.HEAD_BYTES)
    except OSError:
        return False
    return not head.strip() and len(head) < protocols.HEAD_BYTES


def format_from_name(path: str) -> str | None:
    """The format a file's name or folders say, if they say one (a Claude session is ``<uuid>.jsonl`` under
    ``.claude/projects``, a subagent ``agent-*.jsonl`` under ``subagents``; others name their format)."""
    full = os.path.abspath(path)
    name = os.path.basename(full).lower()
    folders = [part.lower() for part in full.split(os.sep)[:-1]]
    known = set(protocols.FORMAT_NAMES)
    claude = (
        _UUID_JSONL.match(name) is not None
        or (name.startswith("agent-") and name.endswith(".jsonl"))
        or "subagents" in folders[-1:]
        or ".claude" in folders
    )
    if claude and "claude" in known:
        return "claude"
    words = _WORDS.findall(name)
    if "lm" in words and "kit" in words:
        words.append("lmkit")
    for word in [*words, *reversed(folders)]:
        wanted = _NAME_WORDS.get(word) or (word if word in known else None)
        if wanted in known:
            return wanted
    return None


def for_path(path: str) -> Format:
    """The format for an empty file: the one its name says, else one that decides on the first line."""
    named = format_from_name(path)
    return protocols.get(named) if named else undecided(path)


def undecided(path: str) -> Format:
    """A format for one empty file whose name says nothing: it reads nothing while the file is empty and
    picks the real format from the content once there is some (a follow, or a later read)."""
    chosen: list[Format] = []

    def decide() -> Format | None:
        if not chosen and not is_empty(path):
            try:
                chosen.append(protocols.detect(path))
            except (protocols.UnknownFormat, OSError):
                return None
        return chosen[0] if chosen else None

    def sniff(_path: str, head: bytes) -> int:
        return 1 if not head.strip() else 0

    def read(_path: str) -> Iterator[Event]:
        real = decide()
        if real is not None:
            yield from real.read(path)

    def decode_line(line: bytes, raw: RawRef) -> list[Event]:
        real = decide()
        if real is None or real.decode_line is None:
            raise protocols.UnknownFormat(f"{path}: its first record is not a format the inspector reads")
        raw.protocol = real.name
        return list(real.decode_line(line, raw))

    def redecode(raw: RawRef) -> list[Event]:
        real = decide()
        return [] if real is None else list(real.redecode(raw))

    return Format(NAME, "an empty file (no record yet)", sniff, read, redecode, decode_line=decode_line)
