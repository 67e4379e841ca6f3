"""Wire formats: one module per format, each turning records or packets into model events.

A format module provides ``NAME``, ``DESCRIPTION``, ``sniff(path, head) -> int`` (0 when the
content is not this format, higher when surer), ``read(path) -> Iterator[Event]`` (bad records
become ``Malformed`` events; only a missing or unreadable file raises ``OSError``) and
``redecode(raw) -> list[Event]`` (decode one stored record again, for the detail view). A module may
also provide ``read_set(paths) -> list[Iterator[Event]]`` for files of its format opened together
that know of each other (a Claude Code session and its resumption repeat records).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from types import ModuleType
from typing import BinaryIO

from inspector.model.events import Event

# Order matters only for ties in sniffing: the most specific formats first.
FORMAT_NAMES = ("recording", "claude", "codex", "gemini", "alicia", "rap", "lmkit")

HEAD_BYTES = 64 * 1024
LATER_HEADS = 3  # long first lines skipped when the head alone names no format
LONG_LINE_SCAN = 64 * 1024 * 1024  # how far one long line is followed to find the next


class UnknownFormat(Exception):
    """No format accepted the file."""


class FormatError(ValueError):
    """A file of a known format that cannot be read at all (e.g. written by a newer version)."""


def get(name: str) -> ModuleType:
    """The format module called ``name``."""
    if name not in FORMAT_NAMES:
        raise UnknownFormat(f"unknown format {name!r} (known: {', '.join(FORMAT_NAMES)})")
    return importlib.import_module(f"inspector.protocols.{name}")


def detect(path: str) -> ModuleType:
    """Pick the format of ``path`` from its content (the name only breaks ties).

    The head of the file decides; when a first record is longer than the head (one hostile or huge
    line), the heads after it are tried too, so one record never hides the format of the rest.
    """
    with open(path, "rb") as fh:
        for head in _heads(fh):
            found = _best(path, head)
            if found is not None:
                return found
    raise UnknownFormat(f"{path}: not a format the inspector reads (tried {', '.join(FORMAT_NAMES)})")


def _best(path: str, head: bytes) -> ModuleType | None:
    best: tuple[int, ModuleType] | None = None
    for name in FORMAT_NAMES:
        try:
            module = get(name)
        except ModuleNotFoundError as exc:
            if exc.name != f"inspector.protocols.{name}":
                raise
            continue  # a format being written; every shipped format is tested to import
        score = module.sniff(path, head)
        if score > 0 and (best is None or score > best[0]):
            best = (score, module)
    return None if best is None else best[1]


def _heads(fh: BinaryIO) -> Iterator[bytes]:
    """The file's head, then up to ``LATER_HEADS`` heads each starting after a line that overran the last."""
    head = fh.read(HEAD_BYTES)
    yield head
    for _ in range(LATER_HEADS):
        if len(head) < HEAD_BYTES or b"\n" in head.rstrip(b"\r\n"):
            return  # the whole file was seen, or the head holds more than one line: nothing hidden
        scanned = 0
        while True:  # skip the rest of the long line, boundedly
            block = fh.read(HEAD_BYTES)
            scanned += len(block)
            newline = block.find(b"\n")
            if newline >= 0 or not block or scanned > LONG_LINE_SCAN:
                break
        if newline < 0:
            return
        head = block[newline + 1 :] + fh.read(HEAD_BYTES - (len(block) - newline - 1))
        if not head.strip():
            return
        yield head


def readers(files: list[tuple[str, ModuleType]], *, details: bool = True) -> list[Iterator[Event]]:
    """The events of each ``(path, format module)``, in order; nothing is read until iterated.

    Files of a format that offers ``read_set`` are read as one set (each iterator still yields
    only its own file's events). ``details=False``: the results' details will be dropped, so a
    format that says ``DETAILS_OPTIONAL`` does not build them.
    """
    found: list[Iterator[Event] | None] = [None] * len(files)
    by_module: dict[int, list[int]] = {}
    for index, (_, module) in enumerate(files):
        by_module.setdefault(id(module), []).append(index)
    for indexes in by_module.values():
        module = files[indexes[0]][1]
        options = {"details": False} if not details and getattr(module, "DETAILS_OPTIONAL", False) else {}
        read_set = getattr(module, "read_set", None)
        if read_set is not None and len(indexes) > 1:
            for index, events in zip(
                indexes, read_set([files[i][0] for i in indexes], **options), strict=True
            ):
                found[index] = events
        else:
            for index in indexes:
                found[index] = module.read(files[index][0], **options)
    return [events for events in found if events is not None]
