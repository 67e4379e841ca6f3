"""What the session browser shows of one Claude Code session without loading it: calls and a title.

Calls are counted in the bytes, nested ones included: the session file, its ``<session>/subagents/``
files and the project-level ``agent-*.jsonl`` files whose records carry its ``sessionId``; a call
repeated by a 2.1.x progress record is counted once (by its id). The title is the newest
``custom-title`` (a ``/rename``), else the newest ``ai-title``, else the newest ``summary``, else the
first prompt the user typed (system-written text and tool results are not prompts).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from inspector.userpath import open_binary

# Claude Code writes compact JSON: one pass finds every tool_use block and title record
_MARKERS = re.compile(rb'"type":"(tool_use|custom-title|ai-title|summary)"')
_MARKER_LEN = 32
_ID_KEY = b',"id":"'
# The same, for JSON written with spaces after ':' and ',' (not Claude Code's own, but seen in samples)
_SPACED = b'"type": "'
_TOOL_USE_SPACED = re.compile(rb'"type"\s*:\s*"tool_use"')
_TOOL_USE_ID_SPACED = re.compile(rb'"type"\s*:\s*"tool_use"\s*,\s*"id"\s*:\s*"([^"\\]{1,200})"')
_TITLE_SPACED = re.compile(rb'\{\s*"type"\s*:\s*"(custom-title|ai-title|summary)"')
_TITLE_KEYS = {"custom-title": "customTitle", "ai-title": "aiTitle", "summary": "summary"}
_RANK = {"custom-title": 3, "ai-title": 2, "summary": 1}
_USER = b'"user"'
_BLOCK = 1 << 20
_TITLE_LINE = 16 * 1024  # a title record longer than this is not read
_KEEP = _TITLE_LINE + 256
_PROMPT_LINE = 1 << 20  # user records longer than this (pasted images) are not decoded for a prompt
_PROMPT_LINES = 400  # lines looked at for the first prompt
_NOT_TYPED = ("<command-", "<local-command-", "<system-reminder>", "<ide_", "Caveat: ", "<bash-")
_COMMAND = re.compile(r"<command-name>\s*(/?[^<]{1,80}?)\s*</command-name>")
_ARGS = re.compile(r"<command-args>([^<]{0,400})</command-args>")
TITLE_LIMIT = 200


@dataclass(slots=True)
class Scan:
    """What one pass over a transcript's bytes found."""

    ids: set[bytes]
    spaced: bool | None = None  # None until the first block is seen
    anonymous: int = 0  # tool_use blocks whose id could not be read from the bytes
    title: str = ""
    title_rank: int = 0

    @property
    def calls(self) -> int:
        return len(self.ids) + self.anonymous


def scan(path: str, want_title: bool = True) -> Scan | None:
    """Tool calls and the newest title record of one file, found in its bytes (None if unreadable)."""
    found = Scan(set())
    tail = b""
    try:
        with open_binary(path) as fh:
            while True:
                block = fh.read(_BLOCK)
                data = tail + block
                # markers starting in the last _KEEP bytes are read in the next round, whole
                limit = len(data) - _KEEP if block else len(data)
                if found.spaced is None:
                    found.spaced = _SPACED in data[:_BLOCK]
                if found.spaced:
                    _count_spaced(data, limit, found)
                    if want_title:
                        _titles(data, limit, found)
                else:
                    _one_pass(data, limit, found, want_title)
                if not block:
                    return found
                tail = data[max(0, limit) :]
    except OSError:
        return None


def _one_pass(data: bytes, limit: int, found: Scan, want_title: bool) -> None:
    """Claude Code's own compact JSON: calls (by the id after each marker) and titles, in one pass."""
    ids, size = found.ids, len(_ID_KEY)
    for match in _MARKERS.finditer(data, 0, limit + _MARKER_LEN):
        at = match.end()
        if match.start() >= limit:
            break
        if match.group(1) == b"tool_use":
            end = data.find(b'"', at + size, at + size + 201) if data.startswith(_ID_KEY, at) else -1
            if end > at + size and data.find(b"\\", at + size, end) < 0:
                ids.add(data[at + size : end])
            else:
                found.anonymous += 1
        elif want_title:
            _title(data, match.start() - 1, match.group(1).decode(), found)


def _count_spaced(data: bytes, limit: int, found: Scan) -> None:
    total = named = 0
    for match in _TOOL_USE_SPACED.finditer(data):
        if match.start() >= limit:
            break
        total += 1
    for match in _TOOL_USE_ID_SPACED.finditer(data):
        if match.start() >= limit:
            break
        found.ids.add(match.group(1))
        named += 1
    found.anonymous += total - named


def _titles(data: bytes, limit: int, found: Scan) -> None:
    for match in _TITLE_SPACED.finditer(data):
        if match.start() >= limit:
            break
        _title(data, match.start(), match.group(1).decode(), found)


def _title(data: bytes, start: int, kind: str, found: Scan) -> None:
    """Read the title record starting at ``start`` when it ranks at least as high as the one found."""
    if _RANK[kind] < found.title_rank or data[start : start + 1] != b"{":
        return  # a lower kind, or the words inside another record
    end = data.find(b"\n", start, start + _TITLE_LINE)
    line = data[start : end if end >= 0 else start + _TITLE_LINE]
    try:
        value = json.loads(line).get(_TITLE_KEYS[kind])
    except (ValueError, AttributeError, RecursionError):
        return
    if isinstance(value, str) and value.strip():
        found.title, found.title_rank = _one_line(value), _RANK[kind]


def first_prompt(path: str) -> str:
    """The first prompt a person typed in a session ("" when none is found near the top)."""
    fallback = ""
    try:
        with open_binary(path) as fh:
            for number, line in enumerate(_lines(fh)):
                if number >= _PROMPT_LINES:
                    break
                if _USER not in line:
                    continue
                try:
                    record = json.loads(line)
                except (ValueError, RecursionError):
                    continue
                text, command = _typed(record)
                if text:
                    return text
                fallback = fallback or command
    except OSError:
        return fallback
    return fallback


def _lines(fh: Any) -> Iterator[bytes]:
    while True:
        line = fh.readline(_PROMPT_LINE + 1)
        if not line:
            return
        if len(line) > _PROMPT_LINE:  # a huge record: skip the rest of it
            while line and not line.endswith(b"\n"):
                line = fh.readline(_PROMPT_LINE)
            continue
        yield line


def _typed(record: Any) -> tuple[str, str]:
    """``(prompt, slash command)`` of a user record ("" when it holds none)."""
    if not isinstance(record, dict) or record.get("type") != "user":
        return "", ""
    if any(record.get(flag) is True for flag in ("isMeta", "isCompactSummary", "isSidechain")):
        return "", ""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    texts = [content] if isinstance(content, str) else []
    if isinstance(content, list):
        texts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    command = ""
    for text in texts:
        stripped = text.strip()
        name = _COMMAND.search(stripped)
        if name is not None:
            args = _ARGS.search(stripped)
            words = name.group(1) + (" " + args.group(1).strip() if args and args.group(1).strip() else "")
            if args and args.group(1).strip():
                return _one_line(words), ""
            command = command or _one_line(words)
            continue
        if stripped and not stripped.startswith(_NOT_TYPED):
            return _one_line(stripped), ""
    return "", command


def _one_line(text: str) -> str:
    return " ".join(text.split())[:TITLE_LIMIT]
