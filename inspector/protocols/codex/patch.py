"""Codex ``apply_patch`` envelopes (``*** Begin Patch`` … ``*** End Patch``) as diff hunks, from any carrier."""

from __future__ import annotations

import re
from typing import Any

from inspector.model.details import DisplayDetail, PatchDetail, Segment
from inspector.model.diff import FileDiff, Hunk, hunks_from_structured_patch, parse_unified_diff

_BEGIN = "*** Begin Patch"
_FILE = re.compile(r"^\*\*\* (Add|Update|Delete) File: (.*)$")
_MOVE = re.compile(r"^\*\*\* Move to: (.*)$")
# A patch inside JavaScript (code mode) or a heredoc: from Begin to the first End Patch after it.
_END = "*** End Patch"


def find_patch(text: str) -> str | None:
    """The first patch envelope in ``text`` (a bare patch, a heredoc or a JavaScript string), else None."""
    start = text.find(_BEGIN)
    if start < 0:
        return None
    end = text.find(_END, start + len(_BEGIN))  # the shortest span from Begin to End Patch
    body = text[start : end + len(_END)] if end >= 0 else text[start:]
    if "\\n" in body and "\n" not in body:  # inside a JavaScript / JSON string literal
        body = body.replace("\\n", "\n").replace('\\"', '"').replace("\\'", "'").replace("\\\\", "\\")
    return body


def parse_patch(text: str) -> list[tuple[str, str, list[Hunk]]]:
    """``(kind, path, hunks)`` per file of a patch envelope; ``kind`` is add, update or delete.

    The envelope has no line numbers: hunks count from 1 and keep their ``@@`` context as the header.
    """
    files: list[tuple[str, str, list[dict[str, Any]], list[str]]] = []
    lines: list[str] = []
    for line in text.splitlines():
        found = _FILE.match(line)
        if found:
            files.append((found.group(1).lower(), found.group(2).strip(), [], []))
            continue
        if not files or line.startswith("*** End") or _MOVE.match(line):
            continue
        kind, _, entries, headers = files[-1]
        if kind == "add":
            lines = _current(entries, headers, "")
            lines.append("+" + line[1:] if line.startswith("+") else "+" + line)
        elif line.startswith("@@"):
            _new_hunk(entries, headers, line[2:].strip())
        elif kind == "update" and line[:1] in (" ", "+", "-") or (kind == "update" and line == ""):
            lines = _current(entries, headers, "")
            lines.append(line or " ")
    result = []
    for kind, path, entries, headers in files:
        hunks = hunks_from_structured_patch(entries)
        for hunk, header in zip(hunks, headers, strict=False):
            hunk.header = header
        result.append((kind, path, hunks))
    return result


def _new_hunk(entries: list[dict[str, Any]], headers: list[str], header: str) -> list[str]:
    lines: list[str] = []
    entries.append({"oldStart": 1, "newStart": 1, "lines": lines})
    headers.append(header)
    return lines


def _current(entries: list[dict[str, Any]], headers: list[str], header: str) -> list[str]:
    if not entries:
        return _new_hunk(entries, headers, header)
    lines = entries[-1]["lines"]
    assert isinstance(lines, list)
    return lines


def _sized(hunks: list[Hunk]) -> list[Hunk]:
    for hunk in hunks:
        hunk.old_lines = sum(1 for line in hunk.lines if line.kind in " -")
        hunk.new_lines = sum(1 for line in hunk.lines if line.kind in " +")
    return hunks


def patch_detail(text: str) -> PatchDetail | DisplayDetail | None:
    """The detail for a patch envelope: one file as a PatchDetail (the viewer of Claude's Edit), several
    as diff segments; None when ``text`` holds no patch."""
    body = find_patch(text)
    if body is None:
        return None
    files = [(kind, path, _sized(hunks)) for kind, path, hunks in parse_patch(body)]
    return _detail([(kind, path, hunks) for kind, path, hunks in files])


def patch_changes(text: str) -> bool:
    """What ``has_hunks(patch_detail(text))`` says, without building the hunks: a line ``parse_patch``
    puts in a file's hunks as added or removed (any line of an added file, a ``+`` or ``-`` line of an
    updated one)."""
    body = find_patch(text)
    if body is None:
        return False
    kind = None
    for line in body.splitlines():
        found = _FILE.match(line)
        if found:
            kind = found.group(1).lower()
        elif kind is None or line.startswith("*** End") or _MOVE.match(line):
            continue
        elif kind == "add" or (kind == "update" and line[:1] in ("+", "-")):
            return True
    return False


def changes_detail(changes: Any) -> PatchDetail | DisplayDetail | None:
    """The detail for ``patch_apply_end.changes`` (path -> add content / update unified_diff / delete)."""
    if not isinstance(changes, dict):
        return None
    files: list[tuple[str, str, list[Hunk]]] = []
    for path, change in changes.items():
        if not isinstance(change, dict):
            continue
        kind = str(change.get("type") or "update")
        if kind == "add" and isinstance(change.get("content"), str):
            added = ["+" + line for line in change["content"].splitlines()]
            hunks = hunks_from_structured_patch([{"oldStart": 0, "newStart": 1, "lines": added}])
        elif isinstance(change.get("unified_diff"), str):
            parsed = parse_unified_diff(change["unified_diff"], str(path))
            hunks = [hunk for diff in parsed for hunk in diff.hunks]
        else:
            hunks = []
        files.append((kind, str(path), _sized(hunks)))
    return _detail(files)


def changes_hunks(changes: Any) -> bool | None:
    """What ``has_hunks(changes_detail(changes))`` says (None where that detail is None), building only
    the diffs it must read until one changes a line: an added file's hunk is a ``+`` line per line of
    its content, so it changes a line when the content is not empty."""
    if not isinstance(changes, dict):
        return None
    found: bool | None = None
    for path, change in changes.items():
        if not isinstance(change, dict):
            continue
        found = False
        kind = str(change.get("type") or "update")
        if kind == "add" and isinstance(change.get("content"), str):
            if change["content"]:
                return True
        elif isinstance(change.get("unified_diff"), str):
            parsed = parse_unified_diff(change["unified_diff"], str(path))
            if any(_changes(diff.hunks) for diff in parsed):
                return True
    return found


def _detail(files: list[tuple[str, str, list[Hunk]]]) -> PatchDetail | DisplayDetail | None:
    if not files:
        return None
    if len(files) == 1:
        kind, path, hunks = files[0]
        return PatchDetail(path, hunks, kind="create" if kind == "add" else kind)
    diffs = [FileDiff(path, hunks) for _, path, hunks in files]
    return DisplayDetail([Segment("diff", "", diffs)], "")


def has_hunks(detail: PatchDetail | DisplayDetail | None) -> bool:
    """True when the detail changes at least one line (a patch of context lines only changes nothing)."""
    if isinstance(detail, PatchDetail):
        return _changes(detail.hunks)
    if isinstance(detail, DisplayDetail):
        return any(_changes(diff.hunks) for segment in detail.segments for diff in segment.diffs)
    return False


def _changes(hunks: list[Hunk]) -> bool:
    return any(line.kind in "+-" for hunk in hunks for line in hunk.lines)
